import type { DatabaseHandle } from "@/src/db/client";
import type { PhotoRow, PhotoStatus } from "@/src/db/database";

/** Every photo outside the trash with one of these statuses, oldest upload first (ids only). */
export function listPhotoIdsWithStatus(db: DatabaseHandle, statuses: readonly PhotoStatus[]): Promise<Array<Pick<PhotoRow, "id">>> {
  return db.selectFrom("photos").select("id").where("status", "in", [...statuses]).where("trashed_at", "is", null).orderBy("created_at").orderBy("id").execute();
}

/** These photos' statuses (trashed ones too, so a caller can say why one was left alone), and whether each has a motion clip. */
export function listPhotoStatuses(db: DatabaseHandle, ids: readonly string[]): Promise<Array<Pick<PhotoRow, "id" | "status" | "trashed_at" | "motion_clip_key">>> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom("photos").select(["id", "status", "trashed_at", "motion_clip_key"]).where("id", "in", [...ids]).execute();
}
