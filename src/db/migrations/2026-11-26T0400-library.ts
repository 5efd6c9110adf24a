import type { Kysely } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // An editor's trash page: their own trashed photos, most recently trashed first. Partial, like
  // photos_trashed_at: only the few photos in the trash are in it.
  await db.schema
    .createIndex("photos_owner_trashed_at")
    .on("photos")
    .columns(["owner_id", "trashed_at", "id"])
    .where("trashed_at", "is not", null)
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("photos_owner_trashed_at").execute();
}
