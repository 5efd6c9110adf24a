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

export type DashboardUploadRow = Pick<PhotoRow, "id" | "original_name" | "status" | "failure_reason" | "publication_key" | "created_at"> & { owner_name: string };

/**
 * The latest uploads with their owner's name, newest first: one owner's through their
 * (owner_id, created_at) index, or everyone's as one index range per status (status, created_at),
 * each cut to `limit` and merged, since no index orders every photo by upload.
 */
export function listDashboardUploadRows(db: DatabaseHandle, ownerId: string | null, limit: number): Promise<DashboardUploadRow[]> {
  const latest = (status: PhotoRow["status"] | null) =>
    db
      .selectFrom("photos")
      .innerJoin("users", "users.id", "photos.owner_id")
      .select(["photos.id", "photos.original_name", "photos.status", "photos.failure_reason", "photos.publication_key", "photos.created_at", "users.name as owner_name"])
      .where("photos.trashed_at", "is", null)
      .$if(ownerId !== null, (query) => query.where("photos.owner_id", "=", ownerId as string))
      .$if(status !== null, (query) => query.where("photos.status", "=", status as PhotoRow["status"]))
      .orderBy("photos.created_at", "desc")
      .orderBy("photos.id", "desc")
      .limit(limit);
  if (ownerId !== null) return latest(null).execute();
  const statuses: Array<PhotoRow["status"]> = ["processing", "ready", "failed"];
  return db
    .selectFrom(latest(statuses[0]).as("first"))
    .selectAll()
    .unionAll(statuses.slice(1).map((status) => db.selectFrom(latest(status).as(status)).selectAll()))
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}
