import { sql } from "kysely";
import type { DatabaseHandle, DatabaseKind } from "@/src/db/client";
import type { NewPendingUploadRow, PendingUploadRow } from "@/src/db/database";

/** How many unfinished uploads a user has, and the bytes they declared. */
export interface PendingUsage {
  count: number;
  declaredBytes: number;
}

export async function insertPendingUpload(db: DatabaseHandle, row: NewPendingUploadRow): Promise<void> {
  await db.insertInto("pending_uploads").values(row).execute();
}

/** Quiet when the row is already gone. */
export async function deletePendingUpload(db: DatabaseHandle, uploadId: string): Promise<void> {
  await db.deleteFrom("pending_uploads").where("upload_id", "=", uploadId).execute();
}

/** The user's unfinished uploads, leaving out `exceptUploadId` (the one finishing, when there is one). */
export async function findPendingUsage(db: DatabaseHandle, ownerId: string, exceptUploadId?: string): Promise<PendingUsage> {
  let query = db
    .selectFrom("pending_uploads")
    .select((eb) => [eb.fn.countAll<string | number>().as("count"), eb.fn.coalesce(eb.fn.sum<string | number>("declared_bytes"), eb.lit(0)).as("declared")])
    .where("owner_id", "=", ownerId);
  if (exceptUploadId) query = query.where("upload_id", "!=", exceptUploadId);
  const row = await query.executeTakeFirstOrThrow();
  return { count: Number(row.count), declaredBytes: Number(row.declared) };
}

export async function listPendingUploadsCreatedBefore(db: DatabaseHandle, before: string): Promise<PendingUploadRow[]> {
  return db.selectFrom("pending_uploads").selectAll().where("created_at", "<", before).execute();
}

/**
 * Makes the rest of this transaction the only one deciding about this user's unfinished uploads:
 * on PostgreSQL, under READ COMMITTED, two creations would otherwise each count the rows without
 * the other's and both pass the cap. SQLite needs nothing: a transaction that writes first holds
 * the database's one write lock until it ends.
 */
export async function lockPendingUploadsOf(db: DatabaseHandle, kind: DatabaseKind, ownerId: string): Promise<void> {
  if (kind !== "postgres") return;
  await sql`select pg_advisory_xact_lock(hashtext(${`pending_uploads:${ownerId}`}))`.execute(db);
}
