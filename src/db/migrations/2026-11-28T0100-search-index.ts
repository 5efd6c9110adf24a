import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.
//
// The search index (issue 15): one `photo_search` row per photo holding its searchable text (title,
// caption, alt text, camera make and model, lens, its tags' names, the titles of the PUBLIC albums
// holding it), kept in step by the database itself: triggers on photos, photo_tags, tags,
// album_photos and albums rebuild the row of every photo a change touches, whoever makes it (a
// service, an admin's SQL, a future import). A photo's deletion takes its row with it (cascade).
//
// - SQLite: an FTS5 index over photo_search (external content, so the text is stored once), words
//   split by unicode61 with diacritics removed, and prefix indexes for 2 and 3 characters.
// - PostgreSQL: a tsvector ('simple': no stemming, no stop words) of the folded text (NFKD, marks
//   removed, lower case, everything but letters and digits a space: the same words FTS5 makes) with
//   a GIN index.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The searchable text of photo `p` (SQLite and PostgreSQL spell the aggregate differently). */
function documentOf(aggregate: (column: string) => string): string {
  return `trim(p.title || ' ' || p.caption || ' ' || p.alt_text
    || ' ' || coalesce(p.camera_make, '') || ' ' || coalesce(p.camera_model, '') || ' ' || coalesce(p.lens, '')
    || ' ' || coalesce((select ${aggregate("t.name")} from photo_tags pt join tags t on t.id = pt.tag_id where pt.photo_id = p.id), '')
    || ' ' || coalesce((select ${aggregate("a.title")} from album_photos ap join albums a on a.id = ap.album_id
                        where ap.photo_id = p.id and a.visibility = 'public'), ''))`;
}

const SQLITE_DOCUMENT = documentOf((column) => `group_concat(${column}, ' ')`);
const POSTGRES_DOCUMENT = documentOf((column) => `string_agg(${column}, ' ')`);

/** SQLite has no procedures: each trigger repeats this upsert for the photos `where` names. */
function sqliteRefresh(where: string): string {
  return `insert into photo_search (photo_id, document)
    select p.id, ${SQLITE_DOCUMENT} from photos p where ${where}
    on conflict (photo_id) do update set document = excluded.document where photo_search.document is not excluded.document;`;
}

/** [name, table, event, `when` condition or "", the photos to refresh] for SQLite. */
const SQLITE_TRIGGERS: Array<[string, string, string, string, string]> = [
  ["photo_search_photo_insert", "photos", "after insert", "", "p.id = new.id"],
  [
    "photo_search_photo_update",
    "photos",
    "after update of title, caption, alt_text, camera_make, camera_model, lens",
    "",
    "p.id = new.id",
  ],
  ["photo_search_tag_added", "photo_tags", "after insert", "", "p.id = new.photo_id"],
  ["photo_search_tag_removed", "photo_tags", "after delete", "", "p.id = old.photo_id"],
  ["photo_search_tag_renamed", "tags", "after update of name", "", "p.id in (select photo_id from photo_tags where tag_id = new.id)"],
  ["photo_search_album_added", "album_photos", "after insert", "", "p.id = new.photo_id"],
  ["photo_search_album_removed", "album_photos", "after delete", "", "p.id = old.photo_id"],
  [
    "photo_search_album_changed",
    "albums",
    "after update of title, visibility",
    "when old.title is not new.title or old.visibility is not new.visibility",
    "p.id in (select photo_id from album_photos where album_id = new.id)",
  ],
];

/** Tokens the query side makes the same way (src/search/search-query-builder.ts): keep the two in step. */
const POSTGRES_FOLD = `create function photo_search_fold(text) returns text language sql immutable parallel safe as $$
  select trim(regexp_replace(
    regexp_replace(lower(normalize($1, NFKD)), '[\\u0300-\\u036f\\u1ab0-\\u1aff\\u1dc0-\\u1dff\\u20d0-\\u20ff\\ufe20-\\ufe2f]', '', 'g'),
    '[^[:alnum:]]+', ' ', 'g'))
$$`;

const POSTGRES_REFRESH = `create function photo_search_refresh(ids text[]) returns void language sql as $$
  insert into photo_search (photo_id, document, document_vector)
  select d.id, d.document, to_tsvector('simple', photo_search_fold(d.document))
  from (select p.id, ${POSTGRES_DOCUMENT} as document from photos p where p.id = any(ids)) d
  on conflict (photo_id) do update set document = excluded.document, document_vector = excluded.document_vector
  where photo_search.document is distinct from excluded.document
$$`;

/** [function and trigger name, table, event, `when` or "", the photo ids (an array expression)] for PostgreSQL. */
const POSTGRES_TRIGGERS: Array<[string, string, string, string, string]> = [
  ["photo_search_photo_insert", "photos", "after insert", "", "array[new.id]"],
  [
    "photo_search_photo_update",
    "photos",
    "after update of title, caption, alt_text, camera_make, camera_model, lens",
    "",
    "array[new.id]",
  ],
  ["photo_search_tag_added", "photo_tags", "after insert", "", "array[new.photo_id]"],
  ["photo_search_tag_removed", "photo_tags", "after delete", "", "array[old.photo_id]"],
  ["photo_search_tag_renamed", "tags", "after update of name", "when (old.name is distinct from new.name)", "array(select photo_id from photo_tags where tag_id = new.id)"],
  ["photo_search_album_added", "album_photos", "after insert", "", "array[new.photo_id]"],
  ["photo_search_album_removed", "album_photos", "after delete", "", "array[old.photo_id]"],
  [
    "photo_search_album_changed",
    "albums",
    "after update of title, visibility",
    "when (old.title is distinct from new.title or old.visibility is distinct from new.visibility)",
    "array(select photo_id from album_photos where album_id = new.id)",
  ],
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await db.schema
      .createTable("photo_search")
      .addColumn("photo_id", "text", (column) => column.primaryKey().references("photos.id").onDelete("cascade"))
      .addColumn("document", "text", (column) => column.notNull())
      .addColumn("document_vector", sql`tsvector`, (column) => column.notNull())
      .execute();
    await sql`create index photo_search_vector on photo_search using gin (document_vector)`.execute(db);
    await sql.raw(POSTGRES_FOLD).execute(db);
    await sql.raw(POSTGRES_REFRESH).execute(db);
    for (const [name, table, event, when, ids] of POSTGRES_TRIGGERS) {
      await sql.raw(`create function ${name}() returns trigger language plpgsql as $$
        begin
          perform photo_search_refresh(${ids});
          return null;
        end $$`).execute(db);
      await sql.raw(`create trigger ${name} ${event} on ${table} for each row ${when} execute function ${name}()`).execute(db);
    }
    await sql`select photo_search_refresh(array(select id from photos))`.execute(db);
    return;
  }

  // An integer key of its own: FTS5's external content is addressed by rowid, and a table whose
  // key is text may renumber its rowids on VACUUM.
  await db.schema
    .createTable("photo_search")
    .addColumn("id", "integer", (column) => column.primaryKey())
    .addColumn("photo_id", "text", (column) => column.notNull().unique().references("photos.id").onDelete("cascade"))
    .addColumn("document", "text", (column) => column.notNull())
    .execute();
  await sql`
    create virtual table photo_search_fts using fts5(
      document, content = 'photo_search', content_rowid = 'id',
      tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
    )`.execute(db);
  // The FTS index follows its content table (the documented external-content triggers).
  await sql`create trigger photo_search_fts_insert after insert on photo_search begin
    insert into photo_search_fts (rowid, document) values (new.id, new.document);
  end`.execute(db);
  await sql`create trigger photo_search_fts_delete after delete on photo_search begin
    insert into photo_search_fts (photo_search_fts, rowid, document) values ('delete', old.id, old.document);
  end`.execute(db);
  await sql`create trigger photo_search_fts_update after update on photo_search begin
    insert into photo_search_fts (photo_search_fts, rowid, document) values ('delete', old.id, old.document);
    insert into photo_search_fts (rowid, document) values (new.id, new.document);
  end`.execute(db);
  for (const [name, table, event, when, where] of SQLITE_TRIGGERS) {
    await sql.raw(`create trigger ${name} ${event} on ${table} for each row ${when} begin ${sqliteRefresh(where)} end`).execute(db);
  }
  // The cascade removes the row when foreign keys are on; said outright for connections without them.
  await sql`create trigger photo_search_photo_delete after delete on photos begin
    delete from photo_search where photo_id = old.id;
  end`.execute(db);
  await sql.raw(sqliteRefresh("true").replace(/;$/, "")).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    for (const [name, table] of POSTGRES_TRIGGERS) {
      await sql.raw(`drop trigger if exists ${name} on ${table}`).execute(db);
      await sql.raw(`drop function if exists ${name}()`).execute(db);
    }
    await sql`drop function if exists photo_search_refresh(text[])`.execute(db);
    await sql`drop function if exists photo_search_fold(text)`.execute(db);
    await db.schema.dropTable("photo_search").execute();
    return;
  }
  for (const [name] of SQLITE_TRIGGERS) await sql.raw(`drop trigger if exists ${name}`).execute(db);
  await sql`drop trigger if exists photo_search_photo_delete`.execute(db);
  await sql`drop table if exists photo_search_fts`.execute(db);
  await db.schema.dropTable("photo_search").execute();
}
