import type { DatabaseHandle } from "@/src/db/client";
import type { PhotoRow } from "@/src/db/database";

export type RecentUploadRow = Pick<PhotoRow, "id" | "original_name" | "status" | "publication_key" | "created_at" | "alt_text">;

/** One owner's photos in the order they arrived, newest first. */
export function listRecentUploadRows(db: DatabaseHandle, ownerId: string, limit: number): Promise<RecentUploadRow[]> {
  return db
    .selectFrom("photos")
    .select(["id", "original_name", "status", "publication_key", "created_at", "alt_text"])
    .where("owner_id", "=", ownerId)
    .where("trashed_at", "is", null)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}
