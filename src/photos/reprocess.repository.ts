import type { DatabaseHandle } from "@/src/db/client";
import type { PhotoRow, PhotoStatus } from "@/src/db/database";

/** Every photo outside the trash with one of these statuses, oldest upload first (ids only). */
export function listPhotoIdsWithStatus(db: DatabaseHandle, statuses: readonly PhotoStatus[]): Promise<Array<Pick<PhotoRow, "id">>> {
  return db.selectFrom("photos").select("id").where("status", "in", [...statuses]).where("trashed_at", "is", null).orderBy("created_at").orderBy("id").execute();
}

/**
 * These photos' statuses (trashed ones too, so a caller can say why one was left alone), whether
 * each has a motion clip, and whether that clip came out of the still (a motion photo: a JPEG or
 * HEIC without a Live Photo's content identifier) or is a Live Photo's MOV.
 */
export function listPhotoStatuses(
  db: DatabaseHandle,
  ids: readonly string[],
): Promise<Array<Pick<PhotoRow, "id" | "status" | "trashed_at" | "motion_clip_key" | "original_type" | "live_content_id">>> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom("photos").select(["id", "status", "trashed_at", "motion_clip_key", "original_type", "live_content_id"]).where("id", "in", [...ids]).execute();
}
