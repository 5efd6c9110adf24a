import type { Kysely } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // Set when a photo is moved to the trash: from then on it is hidden everywhere (lists, pages,
  // media, albums, tags, counts) but its files are kept until it is restored or the trash expires.
  await db.schema.alterTable("photos").addColumn("trashed_at", "text").execute();
  // The trash page and the purge job read trashed photos by when they were trashed.
  await db.schema.createIndex("photos_trashed_at").on("photos").columns(["trashed_at", "id"]).where("trashed_at", "is not", null).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("photos_trashed_at").execute();
  await db.schema.alterTable("photos").dropColumn("trashed_at").execute();
}
