import "server-only";
import type { DatabaseHandle } from "@/src/db/client";
import { cacheUntilPhotosChange } from "@/src/photos/cache-until-photos-change";
import type { PhotoListAccess } from "@/src/photos/listable-photos";
import { countVisibleAlbumPhotos, countVisibleDistinctAlbumPhotos } from "./albums.repository";

/**
 * How long a count is remembered when nothing in this process changes photos or albums: the time
 * another process's change may take to show in a count (the visitor's / page is kept as long).
 */
const REMEMBER_MS = 10_000;
/** Enough for every album for the readers of the last seconds. */
const MAX_ENTRIES = 10_000;

const remembered = cacheUntilPhotosChange<number>({ lifetimeMs: REMEMBER_MS, maxEntries: MAX_ENTRIES });

/** Counts for the same rule are the same: these visibilities plus one reader's own photos (in any state or finished). */
function keyOf(albumId: string, access: PhotoListAccess): string {
  return `${albumId}|${access.visibilities.join(",")}|${access.viewerId ?? ""}|${access.ownPhotos}`;
}

/**
 * How many photos of each album the reader may see, remembered until photos or albums change in
 * this process (both announce it, src/photos/photo-changes.ts) or for REMEMBER_MS. Counting reads
 * every row of the album (6-18 ms for 10,000 photos in SQLite), on every view of an album or a list
 * of albums, and changes only when photos or albums do. Never remembered inside a transaction,
 * which may not commit.
 */
export async function countVisibleAlbumPhotosRemembered(db: DatabaseHandle, albumIds: string[], access: PhotoListAccess): Promise<Map<string, number>> {
  const counts = await remembered.getMany(db, albumIds, (albumId) => keyOf(albumId, access), async (missing) => {
    const found = await countVisibleAlbumPhotos(db, missing, access);
    return (albumId) => found.get(albumId) ?? 0;
  });
  return new Map(albumIds.map((albumId, index) => [albumId, counts[index]]));
}

const rememberedSubAlbums = cacheUntilPhotosChange<number>({ lifetimeMs: REMEMBER_MS, maxEntries: MAX_ENTRIES });

/**
 * How many photos the reader may see in an album's sub-albums (every level the reader may list),
 * each photo once: the count a parent without photos of its own shows. Remembered like the counts
 * above, keyed by the album and the reader's rule: the sub-albums a reader may list follow from the
 * same visibilities and viewer, and moving, hiding or deleting an album announces a change as photos
 * do. `descendantIds` are the sub-albums this reader may list, found by the caller.
 */
export async function countSubAlbumPhotosRemembered(db: DatabaseHandle, albumId: string, descendantIds: string[], access: PhotoListAccess): Promise<number> {
  return rememberedSubAlbums.get(db, keyOf(albumId, access), () => countVisibleDistinctAlbumPhotos(db, descendantIds, access));
}
