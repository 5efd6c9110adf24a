import { type Kysely, sql } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.
//
// Browse → Years → "Date unknown" (/years/unknown) lists the photos without a date taken in gallery
// order. Without these its pages walk every photo of a visibility (or an owner) in order to find the
// few undated ones; with them each range reads only undated photos, and a page stops after a page.
// Partial, so they cost only as many entries as there are undated photos.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("photos_undated_visibility_sort").on("photos").columns(["visibility", "status", "sort_at", "id"]).where(sql.ref("taken_at"), "is", null).execute();
  await db.schema.createIndex("photos_undated_owner_sort").on("photos").columns(["owner_id", "sort_at", "id"]).where(sql.ref("taken_at"), "is", null).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("photos_undated_owner_sort").execute();
  await db.schema.dropIndex("photos_undated_visibility_sort").execute();
}
