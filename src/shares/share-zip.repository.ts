import "server-only";
import type { DatabaseHandle } from "@/src/db/client";
import { SHARE_LINK_ACCESS, whereListablePhotos } from "@/src/photos/listable-photos";

/**
 * Where a photo stands in its share, for its neutral file name ("Wedding 007.jpg"): how many of the
 * share's open photos (ready, not in the trash) come before `position`, and how many there are.
 * Both count along the (share_id, position) index.
 */
export async function countSharedPhotosBefore(db: DatabaseHandle, shareId: string, position: number): Promise<{ before: number; total: number }> {
  const row = await db
    .selectFrom("share_photos")
    .innerJoin("photos", "photos.id", "share_photos.photo_id")
    .where("share_photos.share_id", "=", shareId)
    .where((eb) => whereListablePhotos(eb, SHARE_LINK_ACCESS))
    .select((eb) => [
      eb.fn.countAll<number | string>().as("total"),
      eb.fn.sum<number | string | null>(eb.case().when("share_photos.position", "<", position).then(1).else(0).end()).as("before"),
    ])
    .executeTakeFirstOrThrow();
  return { before: Number(row.before ?? 0), total: Number(row.total) };
}
