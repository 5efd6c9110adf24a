import type { DatabaseHandle } from "@/src/db/client";
import type { PhotoRow, PhotoVariantRow } from "@/src/db/database";

export type VerifiedPhotoRow = Pick<PhotoRow, "id" | "status" | "original_key" | "original_size" | "sha256">;

/** One page of every photo (trashed ones too: their files are kept), by id after `afterId`. */
export function listPhotosToVerify(db: DatabaseHandle, afterId: string | null, limit: number): Promise<VerifiedPhotoRow[]> {
  return db
    .selectFrom("photos")
    .select(["id", "status", "original_key", "original_size", "sha256"])
    .$if(afterId !== null, (query) => query.where("id", ">", afterId as string))
    .orderBy("id")
    .limit(limit)
    .execute();
}

export function listVariantsOfPhotos(db: DatabaseHandle, photoIds: string[]): Promise<PhotoVariantRow[]> {
  if (photoIds.length === 0) return Promise.resolve([]);
  return db.selectFrom("photo_variants").selectAll().where("photo_id", "in", photoIds).execute();
}

/** Whether a render of this photo is already waiting or running, so a second repair queues nothing. */
export async function hasUnfinishedJob(db: DatabaseHandle, photoId: string, kind: string): Promise<boolean> {
  const row = await db
    .selectFrom("jobs")
    .select("id")
    .where("photo_id", "=", photoId)
    .where("kind", "=", kind)
    .where("status", "in", ["queued", "running"])
    .executeTakeFirst();
  return row !== undefined;
}
