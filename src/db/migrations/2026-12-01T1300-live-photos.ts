import type { Kysely } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.
//
// Live Photos and motion clips that play (issue 30):
// - live_content_id: Apple's content identifier, the same in a Live Photo's still (its maker
//   notes) and in its MOV (QuickTime's com.apple.quicktime.content.identifier). Whichever half is
//   stored first carries it, and (owner_id, live_content_id) finds the other half by equality on
//   both databases. Photos uploaded before this have none and never pair.
// - motion_playable_*: the copy of a motion photo's or Live Photo's clip that viewers play (H.264
//   MP4 without sound or metadata), stored under the photo's variant prefix like a video's
//   playable copy, so removing the photo removes it. Null until the job made it.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // One column per statement: SQLite adds only one at a time.
  await db.schema.alterTable("photos").addColumn("live_content_id", "text").execute();
  await db.schema.alterTable("photos").addColumn("motion_playable_key", "text").execute();
  await db.schema.alterTable("photos").addColumn("motion_playable_size", "bigint").execute();
  await db.schema.createIndex("photos_owner_live_content_id").on("photos").columns(["owner_id", "live_content_id"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("photos_owner_live_content_id").execute();
  for (const column of ["motion_playable_size", "motion_playable_key", "live_content_id"]) {
    await db.schema.alterTable("photos").dropColumn(column).execute();
  }
}
