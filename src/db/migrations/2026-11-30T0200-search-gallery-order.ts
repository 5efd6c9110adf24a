import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.
//
// Search at 100,000 photos (issue 26): a word's matches in gallery order, so a page of a common
// word stops after a page instead of reading and sorting every match.
//
// - SQLite: photo_search's integer key (the rowid of both FTS5 tables, whose doclists are kept in
//   rowid order) now follows gallery order: the photo's sort_at to the second (the text's first 19
//   characters, so the key grows with the text the gallery sorts by) times 2^24, plus a number
//   within that second. `ORDER BY rowid DESC` then walks a word's matches newest first and stops
//   at the page; the photos of the page's last second are read whole and sorted by (sort_at, id),
//   so the order is exact however a second's numbers were given. The refresh triggers give a new
//   row the next free number of its second; a change of sort_at to another second moves the row
//   (and so its FTS entries: the content triggers delete the old rowid and insert the new). The
//   rows already there are renumbered (in (sort_at, id) order) and both FTS tables rebuilt.
// - PostgreSQL: a GIN index cannot answer in any order, so beside it a table of postings,
//   photo_search_words (word, sort_at, photo_id), one row per word of each photo's text (the
//   lexemes of its tsvector), under a btree in that order: a word's photos walked backwards, newest
//   first, stop after a page. photo_search_refresh (called by every trigger of the search index)
//   now also rewrites the photo's postings; a change of sort_at is copied to them; a photo's
//   deletion takes them with it (cascade). Filled from the rows already there.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The first key of the second of `row`'s sort_at (the same expression as search-query-builder.ts's searchKeyOfSecond). */
const secondBase = (row: string) => `(coalesce(unixepoch(substr(${row}.sort_at, 1, 19)), 0) * 16777216)`;

/** The next free key of the second starting at `base`: after the largest key already in it. */
const nextKeyOf = (base: string) =>
  `${base} + coalesce((select max(s.id) + 1 - ${base} from photo_search s where s.id >= ${base} and s.id < ${base} + 16777216), 0)`;

/** The searchable text of photo `p`, as migration 2026-11-28T0100-search-index wrote it. */
const SQLITE_DOCUMENT = `trim(p.title || ' ' || p.caption || ' ' || p.alt_text
    || ' ' || coalesce(p.camera_make, '') || ' ' || coalesce(p.camera_model, '') || ' ' || coalesce(p.lens, '')
    || ' ' || coalesce((select group_concat(t.name, ' ') from photo_tags pt join tags t on t.id = pt.tag_id where pt.photo_id = p.id), '')
    || ' ' || coalesce((select group_concat(a.title, ' ') from album_photos ap join albums a on a.id = ap.album_id
                        where ap.photo_id = p.id and a.visibility = 'public'), ''))`;

/**
 * The upsert each refresh trigger runs for the photos `where` names: as before, and a new row is
 * keyed by its sort_at (several new rows of one second numbered in id order).
 */
function keyedRefresh(where: string): string {
  return `insert into photo_search (id, photo_id, document)
    select ${nextKeyOf("k.base")} + row_number() over (partition by k.base order by k.id) - 1, k.id, k.document
    from (select p.id, ${secondBase("p")} as base, ${SQLITE_DOCUMENT} as document from photos p where ${where}) k
    where true
    on conflict (photo_id) do update set document = excluded.document where photo_search.document is not excluded.document;`;
}

/** The first migration's upsert (a new row takes the next rowid), for down(). */
function unkeyedRefresh(where: string): string {
  return `insert into photo_search (photo_id, document)
    select p.id, ${SQLITE_DOCUMENT} from photos p where ${where}
    on conflict (photo_id) do update set document = excluded.document where photo_search.document is not excluded.document;`;
}

/** The refresh triggers of 2026-11-28T0100-search-index: [name, table, event, `when` or "", the photos to refresh]. */
const SQLITE_TRIGGERS: Array<[string, string, string, string, string]> = [
  ["photo_search_photo_insert", "photos", "after insert", "", "p.id = new.id"],
  ["photo_search_photo_update", "photos", "after update of title, caption, alt_text, camera_make, camera_model, lens", "", "p.id = new.id"],
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

/** The content triggers of 2026-11-29T0400-search-trigrams (both FTS tables follow photo_search). */
const SQLITE_CONTENT_TRIGGERS = [
  `create trigger photo_search_fts_insert after insert on photo_search begin
    insert into photo_search_fts (rowid, document) values (new.id, new.document);
    insert into photo_search_trigram (rowid, document) values (new.id, new.document); end`,
  `create trigger photo_search_fts_delete after delete on photo_search begin
    insert into photo_search_fts (photo_search_fts, rowid, document) values ('delete', old.id, old.document);
    insert into photo_search_trigram (photo_search_trigram, rowid, document) values ('delete', old.id, old.document); end`,
  `create trigger photo_search_fts_update after update on photo_search begin
    insert into photo_search_fts (photo_search_fts, rowid, document) values ('delete', old.id, old.document);
    insert into photo_search_trigram (photo_search_trigram, rowid, document) values ('delete', old.id, old.document);
    insert into photo_search_fts (rowid, document) values (new.id, new.document);
    insert into photo_search_trigram (rowid, document) values (new.id, new.document); end`,
];

/** The searchable text of photo `p` on PostgreSQL, as migration 2026-11-28T0100-search-index wrote it. */
const POSTGRES_DOCUMENT = SQLITE_DOCUMENT.replace(/group_concat/g, "string_agg");

/** photo_search_refresh as 2026-11-28T0100-search-index made it, and (`withWords`) rewriting the photos' postings too. */
function postgresRefresh(withWords: boolean): string {
  const words = `;
  delete from photo_search_words where photo_id = any(ids);
  insert into photo_search_words (word, sort_at, photo_id)
  select distinct w.word, p.sort_at, p.id
  from photos p join photo_search s on s.photo_id = p.id cross join lateral unnest(tsvector_to_array(s.document_vector)) as w(word)
  where p.id = any(ids)`;
  return `create or replace function photo_search_refresh(ids text[]) returns void language sql as $$
  insert into photo_search (photo_id, document, document_vector)
  select d.id, d.document, to_tsvector('simple', photo_search_fold(d.document))
  from (select p.id, ${POSTGRES_DOCUMENT} as document from photos p where p.id = any(ids)) d
  on conflict (photo_id) do update set document = excluded.document, document_vector = excluded.document_vector
  where photo_search.document is distinct from excluded.document${withWords ? words : ""}
$$`;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function upPostgres(db: Kysely<any>): Promise<void> {
  // Text in the database's collation, like photos.sort_at and photos.id: the postings sort as the gallery does.
  await sql`create table photo_search_words (
    word text not null,
    sort_at text not null,
    photo_id text not null references photos (id) on delete cascade,
    primary key (word, sort_at, photo_id)
  )`.execute(db);
  // A photo's own postings, for the refresh and a change of sort_at (and the cascade).
  await sql`create index photo_search_words_photo on photo_search_words (photo_id)`.execute(db);
  await sql.raw(postgresRefresh(true)).execute(db);
  await sql`create function photo_search_words_sorted() returns trigger language plpgsql as $$
    begin
      update photo_search_words set sort_at = new.sort_at where photo_id = new.id;
      return null;
    end $$`.execute(db);
  await sql`create trigger photo_search_words_sorted after update of sort_at on photos for each row
    when (old.sort_at is distinct from new.sort_at) execute function photo_search_words_sorted()`.execute(db);
  await sql`insert into photo_search_words (word, sort_at, photo_id)
    select distinct w.word, p.sort_at, p.id
    from photos p join photo_search s on s.photo_id = p.id cross join lateral unnest(tsvector_to_array(s.document_vector)) as w(word)`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return upPostgres(db);
  for (const [name, table, event, when, where] of SQLITE_TRIGGERS) {
    await sql.raw(`drop trigger ${name}`).execute(db);
    await sql.raw(`create trigger ${name} ${event} on ${table} for each row ${when} begin ${keyedRefresh(where)} end`).execute(db);
  }
  // Another second: the row moves to that second's next key (the content triggers move its FTS entries).
  await sql.raw(`create trigger photo_search_photo_sorted after update of sort_at on photos for each row
    when ${secondBase("old")} is not ${secondBase("new")}
    begin
      update photo_search set id = ${nextKeyOf(secondBase("new"))} where photo_id = new.id;
    end`).execute(db);

  // Renumber the rows already there: keyed aside, the table emptied and refilled without the
  // content triggers (one FTS rebuild each instead of a delete and an insert per row).
  await sql.raw(`create temporary table photo_search_keyed as
    select ${secondBase("p")} + row_number() over (partition by ${secondBase("p")} order by p.id) - 1 as id, s.photo_id, s.document
    from photo_search s join photos p on p.id = s.photo_id`).execute(db);
  for (const name of ["photo_search_fts_insert", "photo_search_fts_delete", "photo_search_fts_update"]) await sql.raw(`drop trigger ${name}`).execute(db);
  await sql`delete from photo_search`.execute(db);
  await sql`insert into photo_search (id, photo_id, document) select id, photo_id, document from photo_search_keyed`.execute(db);
  await sql`drop table photo_search_keyed`.execute(db);
  for (const trigger of SQLITE_CONTENT_TRIGGERS) await sql.raw(trigger).execute(db);
  await sql`insert into photo_search_fts (photo_search_fts) values ('rebuild')`.execute(db);
  await sql`insert into photo_search_trigram (photo_search_trigram) values ('rebuild')`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger if exists photo_search_words_sorted on photos`.execute(db);
    await sql`drop function if exists photo_search_words_sorted()`.execute(db);
    await sql.raw(postgresRefresh(false)).execute(db);
    await sql`drop table if exists photo_search_words`.execute(db);
    return;
  }
  // The keys stay (any integers do); new rows go back to taking the next rowid.
  await sql`drop trigger if exists photo_search_photo_sorted`.execute(db);
  for (const [name, table, event, when, where] of SQLITE_TRIGGERS) {
    await sql.raw(`drop trigger if exists ${name}`).execute(db);
    await sql.raw(`create trigger ${name} ${event} on ${table} for each row ${when} begin ${unkeyedRefresh(where)} end`).execute(db);
  }
}
