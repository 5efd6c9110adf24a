import type { Kysely } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.
// Each index serves a query that runs on every page view or /media request; without it that query
// reads every row once a library reaches 100,000 photos (tests/query-plans.test.ts checks them).

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // A /media request finds its variant by the key in its URL. Unique: every variant has its own file.
  await db.schema.createIndex("photo_variants_storage_key").on("photo_variants").column("storage_key").unique().execute();
  // An admin's lists see every visibility, so they walk the gallery order itself.
  await db.schema.createIndex("photos_sort").on("photos").columns(["sort_at", "id"]).execute();
  // Previous and next for an admin: every visibility, but only finished photos.
  await db.schema.createIndex("photos_status_sort").on("photos").columns(["status", "sort_at", "id"]).execute();
  // The processing queue on /admin: unfinished photos, newest upload first.
  await db.schema.createIndex("photos_status_created").on("photos").columns(["status", "created_at", "id"]).execute();
  // An uploader's recent uploads, in the order they arrived.
  await db.schema.createIndex("photos_owner_created").on("photos").columns(["owner_id", "created_at", "id"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("photos_owner_created").execute();
  await db.schema.dropIndex("photos_status_created").execute();
  await db.schema.dropIndex("photos_status_sort").execute();
  await db.schema.dropIndex("photos_sort").execute();
  await db.schema.dropIndex("photo_variants_storage_key").execute();
}
