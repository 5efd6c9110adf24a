// Rows written straight into a fresh test database, for tests of queries and services that need
// photos in exact states without the image pipeline. This is the one place that knows which columns
// a photo row must have, so a new column is added here once, not in every test.
import type { Kysely } from "kysely";
import type { SessionUser } from "@/src/access/viewer";
import type { Database, NewPhotoRow } from "@/src/db/database";

/** Inserts password-less users. */
export async function insertUsers(db: Kysely<Database>, users: SessionUser[], now = new Date().toISOString()): Promise<void> {
  for (const each of users) {
    await db.insertInto("users").values({ id: each.id, email: each.email, name: each.name, role: each.role, password_hash: null, disabled_at: null, session_version: 1, created_at: now, updated_at: now }).execute();
  }
}

/** A photo row: its id, owner and place in the gallery order, and whatever else the test is about. */
export type TestPhotoRow = Pick<NewPhotoRow, "id" | "owner_id" | "sort_at"> & Partial<NewPhotoRow>;

/**
 * The row with everything the test did not name filled in: a private, ready 1200×800 JPEG of one
 * byte whose hash and storage key derive from its id, uploaded when it sorts.
 */
export function photoRow(row: TestPhotoRow): NewPhotoRow {
  return {
    sha256: row.id, status: "ready", failure_reason: null, visibility: "private",
    original_key: `originals/${row.id}`, original_name: `${row.id}.jpg`, original_type: "image/jpeg", original_size: 1, width: 1200, height: 800,
    created_at: row.sort_at, updated_at: row.sort_at,
    ...row,
  };
}

export async function insertPhotoRows(db: Kysely<Database>, rows: TestPhotoRow[]): Promise<void> {
  if (rows.length > 0) await db.insertInto("photos").values(rows.map(photoRow)).execute();
}
