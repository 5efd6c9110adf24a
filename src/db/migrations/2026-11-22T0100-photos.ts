import type { Kysely } from "kysely";
import { sql } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("photos")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("owner_id", "text", (column) => column.notNull().references("users.id").onDelete("cascade"))
    .addColumn("sha256", "text", (column) => column.notNull())
    .addColumn("status", "text", (column) => column.notNull().check(sql`status in ('processing', 'ready', 'failed')`))
    .addColumn("failure_reason", "text")
    .addColumn("visibility", "text", (column) =>
      column.notNull().check(sql`visibility in ('public', 'unlisted', 'members', 'private')`),
    )
    .addColumn("original_key", "text", (column) => column.notNull())
    .addColumn("original_name", "text", (column) => column.notNull())
    .addColumn("original_type", "text", (column) => column.notNull())
    .addColumn("original_size", "integer", (column) => column.notNull())
    .addColumn("width", "integer")
    .addColumn("height", "integer")
    .addColumn("title", "text", (column) => column.notNull().defaultTo(""))
    .addColumn("caption", "text", (column) => column.notNull().defaultTo(""))
    .addColumn("alt_text", "text", (column) => column.notNull().defaultTo(""))
    .addColumn("taken_at", "text")
    .addColumn("camera_make", "text")
    .addColumn("camera_model", "text")
    .addColumn("lens", "text")
    .addColumn("focal_length", "real")
    .addColumn("aperture", "real")
    .addColumn("exposure_time", "text")
    .addColumn("iso", "integer")
    .addColumn("gps_latitude", "real")
    .addColumn("gps_longitude", "real")
    .addColumn("gps_altitude", "real")
    .addColumn("show_location", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("thumbhash", "text")
    .addColumn("dominant_color", "text")
    // The gallery's order: date taken when known, else upload time. Kept in one column so the
    // keyset pagination (sort_at, id) has an index to walk.
    .addColumn("sort_at", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("updated_at", "text", (column) => column.notNull())
    // Duplicates are per owner: someone else's upload of the same bytes must neither reveal that
    // photo nor be folded into it.
    .addUniqueConstraint("photos_owner_sha256", ["owner_id", "sha256"])
    .execute();
  await db.schema.createIndex("photos_visibility_sort").on("photos").columns(["visibility", "sort_at", "id"]).execute();
  await db.schema.createIndex("photos_owner_sort").on("photos").columns(["owner_id", "sort_at", "id"]).execute();

  await db.schema
    .createTable("photo_variants")
    .addColumn("photo_id", "text", (column) => column.notNull().references("photos.id").onDelete("cascade"))
    .addColumn("format", "text", (column) => column.notNull().check(sql`format in ('jpeg', 'webp', 'avif')`))
    .addColumn("width", "integer", (column) => column.notNull())
    .addColumn("height", "integer", (column) => column.notNull())
    .addColumn("storage_key", "text", (column) => column.notNull())
    .addColumn("byte_size", "integer", (column) => column.notNull())
    .addPrimaryKeyConstraint("photo_variants_pk", ["photo_id", "format", "width"])
    .execute();

  // The durable job queue: a worker claims a row by setting a lease; a crashed worker's lease runs
  // out and the job is claimed again.
  await db.schema
    .createTable("jobs")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("kind", "text", (column) => column.notNull())
    .addColumn("photo_id", "text", (column) => column.references("photos.id").onDelete("cascade"))
    .addColumn("priority", "integer", (column) => column.notNull())
    .addColumn("status", "text", (column) => column.notNull().check(sql`status in ('queued', 'running', 'done', 'failed')`))
    .addColumn("attempts", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("lease_expires_at", "text")
    .addColumn("last_error", "text")
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("updated_at", "text", (column) => column.notNull())
    .execute();
  await db.schema.createIndex("jobs_claim").on("jobs").columns(["status", "priority", "created_at"]).execute();
  await db.schema.createIndex("jobs_photo_id").on("jobs").column("photo_id").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("jobs").execute();
  await db.schema.dropTable("photo_variants").execute();
  await db.schema.dropTable("photos").execute();
}
