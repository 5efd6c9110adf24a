import type { Kysely } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // One row per tus upload that has been created and has not finished, been deleted or expired,
  // shared by every app instance: what a user's unfinished uploads reserve (see
  // src/uploads/pending-uploads.service.ts).
  await db.schema
    .createTable("pending_uploads")
    // The tus store's id of the upload (with the store's key prefix on S3).
    .addColumn("upload_id", "text", (column) => column.primaryKey())
    .addColumn("owner_id", "text", (column) => column.notNull().references("users.id").onDelete("cascade"))
    // Upload-Length: bigint, since MAX_UPLOAD_BYTES may be set past PostgreSQL's 2 GiB integer.
    .addColumn("declared_bytes", "bigint", (column) => column.notNull())
    // ISO 8601; rows older than the abandoned-upload age whose upload has gone are swept.
    .addColumn("created_at", "text", (column) => column.notNull())
    .execute();
  await db.schema.createIndex("pending_uploads_owner_id").on("pending_uploads").column("owner_id").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("pending_uploads").execute();
}
