import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // One row per tag. `name` is the first spelling anyone used (NFC, trimmed, inner whitespace
  // collapsed); `key` is what makes two spellings the same tag (NFC and case-folded), unique, and
  // what /tags/[tag] is addressed by.
  await db.schema
    .createTable("tags")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("name", "text", (column) => column.notNull())
    .addColumn("key", "text", (column) => column.notNull().unique())
    .addColumn("created_at", "text", (column) => column.notNull())
    .execute();

  // Which photo has which tag. `sort_at` is a copy of the photo's (kept equal by the trigger below),
  // so a tag's page walks (tag_id, sort_at, photo_id) in gallery order and stops after a page,
  // however many photos the tag has, instead of joining and sorting all of them.
  await db.schema
    .createTable("photo_tags")
    .addColumn("photo_id", "text", (column) => column.notNull().references("photos.id").onDelete("cascade"))
    .addColumn("tag_id", "text", (column) => column.notNull().references("tags.id").onDelete("cascade"))
    .addColumn("sort_at", "text", (column) => column.notNull())
    .addPrimaryKeyConstraint("photo_tags_pk", ["photo_id", "tag_id"])
    .execute();
  await db.schema.createIndex("photo_tags_tag_sort").on("photo_tags").columns(["tag_id", "sort_at", "photo_id"]).execute();

  // A photo's sort_at changes once after upload (to the date taken, when processing reads it); the
  // copy follows in the same statement, whoever changes it.
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`
      create function photo_tags_follow_sort_at() returns trigger language plpgsql as $$
      begin
        update photo_tags set sort_at = new.sort_at where photo_id = new.id;
        return new;
      end
      $$`.execute(db);
    await sql`
      create trigger photo_tags_follow_sort_at after update of sort_at on photos
      for each row when (new.sort_at is distinct from old.sort_at)
      execute function photo_tags_follow_sort_at()`.execute(db);
  } else {
    await sql`
      create trigger photo_tags_follow_sort_at after update of sort_at on photos
      for each row when new.sort_at is not old.sort_at
      begin
        update photo_tags set sort_at = new.sort_at where photo_id = new.id;
      end`.execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists photo_tags_follow_sort_at${db.getExecutor().adapter instanceof PostgresAdapter ? sql` on photos` : sql``}`.execute(db);
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`drop function if exists photo_tags_follow_sort_at()`.execute(db);
  await db.schema.dropTable("photo_tags").execute();
  await db.schema.dropTable("tags").execute();
}
