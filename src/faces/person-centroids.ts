import type { DatabaseHandle } from "@/src/db/client";
import { centroidOf, type PersonCentroid } from "./face-clustering";
import { descriptorFromBytes, descriptorToBytes } from "./face-descriptor";
import { listStaleCentroidPeople } from "./person-suggestions.repository";

// Each person's centroid (the mean of their detected faces' descriptors), stored in
// person_centroids so clustering and "is this X?" compare against one row per person instead of
// reading people's faces (issue 32: "is this X?" took 1.7 s at 100,000 faces when it sampled them).
//
// Triggers (migration 2026-12-03T0100) mark a person's row stale whenever a detected face joins or
// leaves them, whoever changes the faces (a purge from the trash cascades to faces without this
// module). Every write of the faces module calls refreshStaleCentroids in its own transaction, so
// its change and the centroids commit together; a read that meets a stale row (left by a purge)
// computes that person from their faces and stores nothing. A person with no detected face has no row.

/** People per `in (...)` list: well under SQLite's and PostgreSQL's limits on bound values. */
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += CHUNK) out.push(items.slice(start, start + CHUNK));
  return out;
}

/** These people's centroids computed from every detected face they hold; people with none are left out. */
export async function computeCentroids(db: DatabaseHandle, personIds: readonly string[]): Promise<Map<string, { centroid: Float32Array; faceCount: number }>> {
  const byPerson = new Map<string, Float32Array[]>();
  for (const chunk of chunks([...new Set(personIds)])) {
    const rows = await db.selectFrom("faces").select(["person_id", "descriptor"]).where("person_id", "in", chunk).where("descriptor", "is not", null).execute();
    for (const row of rows) {
      if (!row.person_id || !row.descriptor) continue;
      const list = byPerson.get(row.person_id) ?? [];
      list.push(descriptorFromBytes(row.descriptor));
      byPerson.set(row.person_id, list);
    }
  }
  return new Map([...byPerson].map(([personId, descriptors]) => [personId, { centroid: centroidOf(descriptors), faceCount: descriptors.length }]));
}

/**
 * Recomputes and stores every stale centroid of this owner's people (found through the stale
 * index: a handful after a change, never every person). Call it inside the transaction that
 * changed their faces, after the change. Answers whose centroid it stored or removed: the people
 * to name in announcePeopleChanged once the transaction has committed.
 */
export async function refreshStaleCentroids(db: DatabaseHandle, ownerId: string): Promise<string[]> {
  const ids = await listStaleCentroidPeople(db, ownerId);
  if (ids.length === 0) return [];
  const computed = await computeCentroids(db, ids);
  const now = new Date().toISOString();
  const gone = ids.filter((id) => !computed.has(id));
  for (const chunk of chunks(gone)) await db.deleteFrom("person_centroids").where("person_id", "in", chunk).execute();
  for (const [personId, { centroid, faceCount }] of computed) {
    await db
      .updateTable("person_centroids")
      .set({ centroid: descriptorToBytes(centroid), face_count: faceCount, is_stale: 0, updated_at: now })
      .where("person_id", "=", personId)
      .execute();
  }
  return ids;
}

/**
 * Centroids of the owner's people (only `personIds` when given), ready to compare: stored ones
 * as they are, stale ones computed from the faces (nothing is stored: a read may not write).
 */
export async function readCentroids(db: DatabaseHandle, ownerId: string, personIds?: readonly string[]): Promise<PersonCentroid[]> {
  if (personIds && personIds.length === 0) return [];
  const rows = (
    await Promise.all(
      (personIds ? chunks(personIds) : [null]).map((chunk) =>
        db
          .selectFrom("person_centroids")
          .innerJoin("people", "people.id", "person_centroids.person_id")
          .select(["person_centroids.person_id as personId", "person_centroids.centroid", "person_centroids.is_stale as isStale"])
          .where("people.owner_id", "=", ownerId)
          // Both keys: SQLite without statistics otherwise walks every person of the owner to find these.
          .$if(chunk !== null, (query) => query.where("person_centroids.person_id", "in", chunk ?? []).where("people.id", "in", chunk ?? []))
          .execute(),
      ),
    )
  ).flat();
  return centroidsOfRows(db, rows);
}

/** Stored centroid rows made ready to compare: fresh ones decoded, stale ones computed from the faces (not stored). */
export async function centroidsOfRows(db: DatabaseHandle, rows: ReadonlyArray<{ personId: string; centroid: Uint8Array | null; isStale: number }>): Promise<PersonCentroid[]> {
  const staleIds = rows.filter((row) => row.isStale === 1 || !row.centroid).map((row) => row.personId);
  const recomputed = staleIds.length > 0 ? await computeCentroids(db, staleIds) : new Map<string, { centroid: Float32Array }>();
  return rows.flatMap((row) => {
    if (row.isStale !== 1 && row.centroid) return [{ personId: row.personId, centroid: descriptorFromBytes(row.centroid) }];
    const fresh = recomputed.get(row.personId);
    return fresh ? [{ personId: row.personId, centroid: fresh.centroid }] : [];
  });
}

/** Turning people off: centroids are made of descriptors, so every one goes with them. */
export async function deleteAllCentroids(db: DatabaseHandle): Promise<void> {
  await db.deleteFrom("person_centroids").execute();
}
