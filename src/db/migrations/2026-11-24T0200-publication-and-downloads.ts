import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // Part of every variant URL; replaced whenever the photo stops being public, so URLs a CDN or a
  // browser cached for a year are never valid again (src/photos/photo-publication.ts).
  await db.schema.alterTable("photos").addColumn("publication_key", "text", (column) => column.notNull().defaultTo("")).execute();
  // Null: the site's "allow downloads" setting decides; 0 or 1: this photo's own choice.
  await db.schema.alterTable("photos").addColumn("allow_download", "integer").execute();
  const photos = await db.selectFrom("photos").select("id").execute();
  for (const photo of photos) {
    await db.updateTable("photos").set({ publication_key: randomBytes(9).toString("base64url") }).where("id", "=", photo.id).execute();
  }

  // One row whose version moves whenever a photo stops being public (or a public one is deleted);
  // every app instance's in-memory media cache checks it before answering (src/media/media-access-version.ts).
  await db.schema
    .createTable("media_access_version")
    .addColumn("id", "integer", (column) => column.primaryKey())
    .addColumn("version", "integer", (column) => column.notNull())
    .execute();
  await db.insertInto("media_access_version").values({ id: 1, version: 1 }).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("media_access_version").execute();
  await db.schema.alterTable("photos").dropColumn("allow_download").execute();
  await db.schema.alterTable("photos").dropColumn("publication_key").execute();
}
