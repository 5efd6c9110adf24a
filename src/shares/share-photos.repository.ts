import "server-only";
import type { DatabaseHandle } from "@/src/db/client";
import type { PhotoRow } from "@/src/db/database";
import { SHARE_LINK_ACCESS, whereListablePhotos } from "@/src/photos/listable-photos";

/**
 * The photos a share opens are its share_photos rows whose photo is ready and not in the trash:
 * a photo deleted, trashed or still processing drops out of every share at once.
 */
function sharedPhotos(db: DatabaseHandle, shareId: string) {
  return db
    .selectFrom("share_photos")
    .innerJoin("photos", "photos.id", "share_photos.photo_id")
    .where("share_photos.share_id", "=", shareId)
    .where((eb) => whereListablePhotos(eb, SHARE_LINK_ACCESS));
}

/** Replaces nothing: adds photos at the end of the share in the order given (ids already in it are skipped by the caller). */
export async function insertSharePhotos(db: DatabaseHandle, shareId: string, photoIds: string[], firstPosition = 0): Promise<void> {
  if (photoIds.length === 0) return;
  const rows = photoIds.map((photoId, index) => ({ share_id: shareId, photo_id: photoId, position: firstPosition + index }));
  // Batches stay under SQLite's bound-parameter limit.
  for (let start = 0; start < rows.length; start += 500) {
    await db.insertInto("share_photos").values(rows.slice(start, start + 500)).execute();
  }
}

/** The photo when it is one this share opens; undefined otherwise (not in it, trashed, not ready, gone). */
export function findSharedPhoto(db: DatabaseHandle, shareId: string, photoId: string): Promise<(PhotoRow & { position: number }) | undefined> {
  return sharedPhotos(db, shareId).selectAll("photos").select("share_photos.position").where("share_photos.photo_id", "=", photoId).executeTakeFirst();
}

/** A page of the share's photos in its order, after `afterPosition` (keyset on the unique (share_id, position)). */
export function listSharedPhotos(
  db: DatabaseHandle,
  shareId: string,
  page: { afterPosition?: number; limit: number },
): Promise<Array<PhotoRow & { position: number }>> {
  let query = sharedPhotos(db, shareId).selectAll("photos").select("share_photos.position");
  if (page.afterPosition !== undefined) query = query.where("share_photos.position", ">", page.afterPosition);
  return query.orderBy("share_photos.position").limit(page.limit).execute();
}

/** How many photos the share opens now; with `beforePosition`, how many of them come before that place. */
export async function countSharedPhotos(db: DatabaseHandle, shareId: string, beforePosition?: number): Promise<number> {
  const row = await sharedPhotos(db, shareId)
    .$if(beforePosition !== undefined, (query) => query.where("share_photos.position", "<", beforePosition!))
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The neighbours of a photo in the share's order (for a photo page's previous/next). */
export async function findSharedNeighbours(
  db: DatabaseHandle,
  shareId: string,
  position: number,
): Promise<{ previousId: string | null; nextId: string | null }> {
  const [previous, next] = await Promise.all([
    sharedPhotos(db, shareId).select("photos.id").where("share_photos.position", "<", position).orderBy("share_photos.position", "desc").limit(1).executeTakeFirst(),
    sharedPhotos(db, shareId).select("photos.id").where("share_photos.position", ">", position).orderBy("share_photos.position").limit(1).executeTakeFirst(),
  ]);
  return { previousId: previous?.id ?? null, nextId: next?.id ?? null };
}
