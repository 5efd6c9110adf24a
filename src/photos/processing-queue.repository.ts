import type { DatabaseHandle } from "@/src/db/client";
import type { JobRow, PhotoRow } from "@/src/db/database";

export interface UnfinishedPhotoRow {
  id: string;
  original_name: string;
  status: PhotoRow["status"];
  failure_reason: string | null;
  created_at: string;
  updated_at: string;
  owner_name: string;
}

/**
 * Photos still processing or failed, newest upload first; only the owner's when `ownerId` is given.
 * One index range per status, each cut to `limit` rows, then merged: `status IN (…)` would sort
 * every unfinished photo first.
 */
export function listUnfinishedPhotos(db: DatabaseHandle, options: { ownerId: string | null; limit: number }): Promise<UnfinishedPhotoRow[]> {
  const withStatus = (status: PhotoRow["status"]) =>
    db.selectFrom(
      db
        .selectFrom("photos")
        .innerJoin("users", "users.id", "photos.owner_id")
        .select([
          "photos.id",
          "photos.original_name",
          "photos.status",
          "photos.failure_reason",
          "photos.created_at",
          "photos.updated_at",
          "users.name as owner_name",
        ])
        .where("photos.status", "=", status)
        .where("photos.trashed_at", "is", null)
        .$if(options.ownerId !== null, (query) => query.where("photos.owner_id", "=", options.ownerId as string))
        .orderBy("photos.created_at", "desc")
        .orderBy("photos.id", "desc")
        .limit(options.limit)
        .as("unfinished"),
    ).selectAll();
  return withStatus("processing")
    .unionAll(withStatus("failed"))
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(options.limit)
    .execute();
}

function countByStatus(db: DatabaseHandle, ownerId: string | null) {
  return db
    .selectFrom("photos")
    .select(["status", (eb) => eb.fn.countAll<string | number>().as("count")])
    .$if(ownerId !== null, (query) => query.where("owner_id", "=", ownerId as string))
    .groupBy("status")
    .execute();
}

/**
 * The trashed photos by status, a column each. Grouped with GROUP BY, SQLite (without statistics:
 * the app never runs ANALYZE) walked the status index and read every photo's row to test
 * trashed_at, 30-55 ms at 100,000 photos, blocking the event loop on a dashboard view. Without a
 * GROUP BY it walks the trash's partial index.
 */
function countTrashedByStatus(db: DatabaseHandle, ownerId: string | null) {
  return db
    .selectFrom("photos")
    .select((eb) => [
      eb.fn.countAll<string | number>().filterWhere("status", "=", "processing").as("processing"),
      eb.fn.countAll<string | number>().filterWhere("status", "=", "ready").as("ready"),
      eb.fn.countAll<string | number>().filterWhere("status", "=", "failed").as("failed"),
    ])
    .where("trashed_at", "is not", null)
    .$if(ownerId !== null, (query) => query.where("owner_id", "=", ownerId as string))
    .executeTakeFirstOrThrow();
}

/**
 * Photo counts by status, without the trash; only the owner's when `ownerId` is given. Every photo
 * counted from an index alone, less the trashed ones found through the trash's partial index:
 * `trashed_at IS NULL` would make the count read every row of the table.
 */
export async function countPhotosByStatus(db: DatabaseHandle, ownerId: string | null): Promise<Record<PhotoRow["status"], number>> {
  const [all, trashed] = await Promise.all([countByStatus(db, ownerId), countTrashedByStatus(db, ownerId)]);
  const counts = { processing: 0, ready: 0, failed: 0 };
  for (const row of all) counts[row.status] += Number(row.count);
  for (const status of ["processing", "ready", "failed"] as const) counts[status] -= Number(trashed[status]);
  return counts;
}

/** The latest job of each of these photos, so the queue can say "waiting", "running" or how many tries. */
export function listLatestJobs(db: DatabaseHandle, photoIds: string[]): Promise<Array<Pick<JobRow, "photo_id" | "kind" | "status" | "attempts" | "created_at">>> {
  if (photoIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("jobs")
    .select(["photo_id", "kind", "status", "attempts", "created_at"])
    .where("photo_id", "in", photoIds)
    .orderBy("created_at")
    .execute();
}
