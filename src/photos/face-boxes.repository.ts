import type { DatabaseHandle } from "@/src/db/client";
import type { FractionBox } from "./turned-boxes";

// A photo's face boxes, as the photo's own turn changes them. Faces import photos (never the other
// way: the arrows), yet a turn is a change of the photo and its boxes must turn in the same
// transaction, so these two statements on `faces` live here. No rules.

/** The photo's faces that have a box (a person without a face, source "tag", has none to turn). */
export function listFaceBoxes(db: DatabaseHandle, photoId: string) {
  return db.selectFrom("faces").select(["id", "box_left as left", "box_top as top", "box_width as width", "box_height as height"]).where("photo_id", "=", photoId).where("source", "!=", "tag").execute();
}

export async function updateFaceBox(db: DatabaseHandle, faceId: string, box: FractionBox): Promise<void> {
  await db.updateTable("faces").set({ box_left: box.left, box_top: box.top, box_width: box.width, box_height: box.height }).where("id", "=", faceId).execute();
}
