import { type Kysely, PostgresAdapter } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.
//
// People (issue 32): faces found in photos, and the people they are grouped into. A person belongs
// to one owner (each owner's people are their own); a face belongs to the photo it is in and goes
// with it. A detected face's descriptor (128 float32, little-endian: 512 bytes) is a blob on SQLite
// and bytea on PostgreSQL: the same bytes on both, read back as a Buffer, and never sent to a client.
// A face drawn by hand has no descriptor. photo_face_scans records which photos detection has
// looked at (with how many faces, and whether the per-photo cap cut it short), so a backfill
// resumes where it stopped and the dashboard can show progress.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable("people")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("owner_id", "text", (column) => column.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text")
    .addColumn("is_hidden", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("cover_face_id", "text")
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("updated_at", "text", (column) => column.notNull())
    .execute();
  await db.schema.createIndex("people_owner").on("people").columns(["owner_id", "name"]).execute();

  await db.schema
    .createTable("faces")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("photo_id", "text", (column) => column.notNull().references("photos.id").onDelete("cascade"))
    .addColumn("person_id", "text", (column) => column.references("people.id").onDelete("set null"))
    // The box as fractions (0-1) of the photo as it is shown (turned upright), so it fits every variant.
    .addColumn("box_left", "real", (column) => column.notNull())
    .addColumn("box_top", "real", (column) => column.notNull())
    .addColumn("box_width", "real", (column) => column.notNull())
    .addColumn("box_height", "real", (column) => column.notNull())
    .addColumn("score", "real")
    .addColumn("descriptor", postgres ? "bytea" : "blob")
    .addColumn("source", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .execute();
  await db.schema.createIndex("faces_photo").on("faces").column("photo_id").execute();
  await db.schema.createIndex("faces_person").on("faces").columns(["person_id", "photo_id"]).execute();

  await db.schema
    .createTable("photo_face_scans")
    .addColumn("photo_id", "text", (column) => column.primaryKey().references("photos.id").onDelete("cascade"))
    .addColumn("face_count", "integer", (column) => column.notNull())
    .addColumn("is_capped", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("scanned_at", "text", (column) => column.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("photo_face_scans").ifExists().execute();
  await db.schema.dropTable("faces").ifExists().execute();
  await db.schema.dropTable("people").ifExists().execute();
}
