import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  await db.schema
    .createTable("albums")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("owner_id", "text", (column) => column.notNull().references("users.id").onDelete("cascade"))
    .addColumn("slug", "text", (column) => column.notNull().unique())
    .addColumn("title", "text", (column) => column.notNull())
    .addColumn("description", "text", (column) => column.notNull().defaultTo(""))
    .addColumn("visibility", "text", (column) => column.notNull().check(sql`visibility in ('public', 'unlisted', 'members', 'private')`))
    // Nesting: a child outlives its parent as a top-level album (the service also clears it first).
    .addColumn("parent_id", "text", (column) => column.references("albums.id").onDelete("set null"))
    .addColumn("sort", "text", (column) =>
      column.notNull().defaultTo("manual").check(sql`sort in ('manual', 'taken-desc', 'taken-asc', 'uploaded-desc', 'uploaded-asc')`),
    )
    // The chosen cover; whether a viewer may see it is decided per viewer (else the first visible photo stands in).
    .addColumn("cover_photo_id", "text", (column) => column.references("photos.id").onDelete("set null"))
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("updated_at", "text", (column) => column.notNull())
    .execute();
  // /albums and an album's children: albums under one parent (null: top level).
  await db.schema.createIndex("albums_parent").on("albums").columns(["parent_id", "created_at", "id"]).execute();
  await db.schema.createIndex("albums_owner").on("albums").columns(["owner_id", "created_at", "id"]).execute();

  await db.schema
    .createTable("album_photos")
    .addColumn("album_id", "text", (column) => column.notNull().references("albums.id").onDelete("cascade"))
    .addColumn("photo_id", "text", (column) => column.notNull().references("photos.id").onDelete("cascade"))
    // A fractional-indexing key: manual order. Compared byte by byte ("C"), whatever the database's
    // own collation, so PostgreSQL orders keys as the library and SQLite do ("a0" < "Zz" would be
    // wrong under a linguistic collation).
    .addColumn("order_key", postgres ? sql`text collate "C"` : "text", (column) => column.notNull())
    // The photo's own sort_at and created_at, copied so the other sorts page by keyset on an index of
    // this table instead of sorting every photo of the album; a trigger keeps sort_at in step.
    .addColumn("photo_sort_at", "text", (column) => column.notNull())
    .addColumn("photo_created_at", "text", (column) => column.notNull())
    .addColumn("added_at", "text", (column) => column.notNull())
    .addPrimaryKeyConstraint("album_photos_pk", ["album_id", "photo_id"])
    // Two editors moving photos at once can never give two photos one place: the second write fails and retries.
    .addUniqueConstraint("album_photos_order", ["album_id", "order_key"])
    .execute();
  await db.schema.createIndex("album_photos_taken").on("album_photos").columns(["album_id", "photo_sort_at", "photo_id"]).execute();
  await db.schema.createIndex("album_photos_uploaded").on("album_photos").columns(["album_id", "photo_created_at", "photo_id"]).execute();
  // The albums holding a photo (the photo page), and the cascade when a photo is deleted.
  await db.schema.createIndex("album_photos_photo").on("album_photos").column("photo_id").execute();

  // A photo's sort_at moves once its date taken is read (processing); its album rows follow.
  if (postgres) {
    await sql`
      create function album_photos_follow_sort() returns trigger language plpgsql as $$
      begin
        update album_photos set photo_sort_at = new.sort_at where photo_id = new.id;
        return new;
      end $$`.execute(db);
    await sql`
      create trigger album_photos_follow_sort after update of sort_at on photos
      for each row when (old.sort_at is distinct from new.sort_at) execute function album_photos_follow_sort()`.execute(db);
  } else {
    await sql`
      create trigger album_photos_follow_sort after update of sort_at on photos
      for each row when old.sort_at is not new.sort_at
      begin
        update album_photos set photo_sort_at = new.sort_at where photo_id = new.id;
      end`.execute(db);
  }

  // Slugs an album answered to before a rename: they answer with a redirect to the current one.
  await db.schema
    .createTable("album_slugs")
    .addColumn("slug", "text", (column) => column.primaryKey())
    .addColumn("album_id", "text", (column) => column.notNull().references("albums.id").onDelete("cascade"))
    .addColumn("created_at", "text", (column) => column.notNull())
    .execute();
  await db.schema.createIndex("album_slugs_album").on("album_slugs").column("album_id").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("album_slugs").execute();
  await sql`drop trigger if exists album_photos_follow_sort ${isPostgres(db) ? sql`on photos` : sql``}`.execute(db);
  if (isPostgres(db)) await sql`drop function if exists album_photos_follow_sort()`.execute(db);
  await db.schema.dropTable("album_photos").execute();
  await db.schema.dropTable("albums").execute();
}
