import { type Kysely, sql } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.
//
// Videos are photos' rows too, so every list, album, search, feed, share link and access rule
// treats them alike: `media_kind` tells them apart, `duration_ms` and `video_codec` come from the
// probe on upload, and `playable_key` names the copy browsers play (H.264/AAC MP4 without the
// original's metadata), made by a later job; null until then. Its bytes live under the photo's
// variant prefix, so removing the photo removes it.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("photos")
    .addColumn("media_kind", "text", (column) => column.notNull().defaultTo("photo").check(sql`media_kind in ('photo', 'video')`))
    .execute();
  await db.schema.alterTable("photos").addColumn("duration_ms", "integer").execute();
  await db.schema.alterTable("photos").addColumn("video_codec", "text").execute();
  await db.schema.alterTable("photos").addColumn("playable_key", "text").execute();
  await db.schema.alterTable("photos").addColumn("playable_size", "bigint").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ["playable_size", "playable_key", "video_codec", "duration_ms", "media_kind"]) {
    await db.schema.alterTable("photos").dropColumn(column).execute();
  }
}
