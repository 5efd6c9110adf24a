import type { Kysely } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // One row per tus upload a request is working on, shared by every app instance (see
  // src/uploads/tus-database-locker.ts). Rows live for the length of one request.
  await db.schema
    .createTable("upload_locks")
    .addColumn("upload_id", "text", (column) => column.primaryKey())
    // A random id of the request holding the lock.
    .addColumn("holder", "text", (column) => column.notNull())
    // ISO 8601; renewed while the holder works, so a crashed instance's lock runs out.
    .addColumn("expires_at", "text", (column) => column.notNull())
    // Set to 1 by a request waiting for the lock: the holder then ends its request.
    .addColumn("release_requested", "integer", (column) => column.notNull().defaultTo(0))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("upload_locks").execute();
}
