import type { DatabaseHandle } from "@/src/db/client";
import { cacheUntilPhotosChange } from "@/src/photos/cache-until-photos-change";
import { descriptorToBytes } from "./face-descriptor";
import { NamedCentroidIndex } from "./named-centroid-index";
import { onPeopleChanged } from "./people-changes";
import { computeCentroids } from "./person-centroids";
import { listNamedCentroidRows } from "./person-suggestions.repository";

// The owner's named, shown people's centroids, remembered as one NamedCentroidIndex per owner and
// database handle: "is this X?" at 100,000 faces spent its time reading and decoding about 2,000
// stored centroids on every ask (measured in the commit), not comparing them.
//
// Dropped at once when people change in this process (people-changes.ts: a face found, moved or
// removed, a person named, hidden, merged or split) or photos do (a purge takes faces with it), and
// after LIFETIME_MS for another process's change (a worker of its own storing faces): a suggestion
// a few seconds behind costs a click, and rejections are read afresh on every ask.

const LIFETIME_MS = 10_000;
/** Owners remembered per database handle: at 2,000 named people an entry is about 1 MB. */
const MAX_OWNERS = 16;

const cache = cacheUntilPhotosChange<NamedCentroidIndex>({ lifetimeMs: LIFETIME_MS, maxEntries: MAX_OWNERS });
onPeopleChanged(cache.clear);

async function loadIndex(db: DatabaseHandle, ownerId: string): Promise<NamedCentroidIndex> {
  const rows = await listNamedCentroidRows(db, ownerId);
  // A stale row (faces changed by a purge since it was stored) is computed from the faces, not stored: a read may not write.
  const staleIds = rows.filter((row) => row.isStale === 1 || !row.centroid).map((row) => row.personId);
  const recomputed = staleIds.length > 0 ? await computeCentroids(db, staleIds) : new Map<string, { centroid: Float32Array }>();
  return NamedCentroidIndex.fromStored(
    rows.flatMap((row) => {
      if (row.isStale !== 1 && row.centroid) return [{ personId: row.personId, name: row.name ?? "", centroid: row.centroid }];
      const fresh = recomputed.get(row.personId);
      return fresh ? [{ personId: row.personId, name: row.name ?? "", centroid: descriptorToBytes(fresh.centroid) }] : [];
    }),
  );
}

/** The owner's named, shown people with a centroid, ready to compare (remembered; see above). */
export function namedCentroidIndexOf(db: DatabaseHandle, ownerId: string): Promise<NamedCentroidIndex> {
  return cache.get(db, ownerId, () => loadIndex(db, ownerId));
}
