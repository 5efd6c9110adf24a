import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.
//
// Substring search (issue 26, `*ton*`): an index of the searchable text by runs of three characters
// (trigrams) beside the index of words of migration 2026-11-28T0100-search-index, over the same
// `photo_search.document` the triggers of that migration keep in step.
//
// - SQLite: a second FTS5 table with the `trigram` tokenizer (case and diacritics folded), external
//   content like the first; the three triggers that feed the index of words are replaced by three
//   that feed both, so one statement keeps both in step. Built from the rows already there.
// - PostgreSQL: pg_trgm (a contrib extension; on Debian it ships in the postgresql package itself,
//   and it is trusted, so a database owner may create it) and a stored generated column holding the
//   folded text (NFKD, marks removed, lower case, punctuation kept), under a GIN trigram index.
//   Adding the column computes it for every row already there.
//
// Both fold letters one by one and keep everything else, so a substring of letters and digits
// (what the parser accepts) matches the same photos on both.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * The folded text the trigram index reads, as foldSearchText (src/search/fold-search-text.ts) makes
 * the query's: NFKD, marks removed, lower case, NFC again (Hangul syllables come back whole).
 * Unlike photo_search_fold, punctuation and spaces are kept.
 */
const POSTGRES_FOLD_LETTERS = `create function photo_search_fold_letters(text) returns text language sql immutable parallel safe as $$
  select normalize(regexp_replace(lower(normalize($1, NFKD)), '[\\u0300-\\u036f\\u1ab0-\\u1aff\\u1dc0-\\u1dff\\u20d0-\\u20ff\\ufe20-\\ufe2f]', '', 'g'), NFC)
$$`;

/** The external-content triggers of photo_search, writing to these FTS tables. */
function sqliteContentTriggers(tables: string[]): string[] {
  const add = (table: string) => `insert into ${table} (rowid, document) values (new.id, new.document);`;
  const remove = (table: string) => `insert into ${table} (${table}, rowid, document) values ('delete', old.id, old.document);`;
  return [
    `create trigger photo_search_fts_insert after insert on photo_search begin ${tables.map(add).join(" ")} end`,
    `create trigger photo_search_fts_delete after delete on photo_search begin ${tables.map(remove).join(" ")} end`,
    `create trigger photo_search_fts_update after update on photo_search begin ${tables.map(remove).join(" ")} ${tables.map(add).join(" ")} end`,
  ];
}

const SQLITE_CONTENT_TRIGGERS = ["photo_search_fts_insert", "photo_search_fts_delete", "photo_search_fts_update"];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql.raw(POSTGRES_FOLD_LETTERS).execute(db);
    await sql`alter table photo_search add column document_letters text generated always as (photo_search_fold_letters(document)) stored`.execute(db);
    await sql`create index photo_search_trigram on photo_search using gin (document_letters gin_trgm_ops)`.execute(db);
    return;
  }
  await sql`
    create virtual table photo_search_trigram using fts5(
      document, content = 'photo_search', content_rowid = 'id',
      tokenize = 'trigram remove_diacritics 1'
    )`.execute(db);
  for (const name of SQLITE_CONTENT_TRIGGERS) await sql.raw(`drop trigger ${name}`).execute(db);
  for (const trigger of sqliteContentTriggers(["photo_search_fts", "photo_search_trigram"])) await sql.raw(trigger).execute(db);
  await sql`insert into photo_search_trigram (photo_search_trigram) values ('rebuild')`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop index if exists photo_search_trigram`.execute(db);
    await sql`alter table photo_search drop column if exists document_letters`.execute(db);
    await sql`drop function if exists photo_search_fold_letters(text)`.execute(db);
    // The extension stays: other objects may have come to use it.
    return;
  }
  for (const name of SQLITE_CONTENT_TRIGGERS) await sql.raw(`drop trigger if exists ${name}`).execute(db);
  for (const trigger of sqliteContentTriggers(["photo_search_fts"])) await sql.raw(trigger).execute(db);
  await sql`drop table if exists photo_search_trigram`.execute(db);
}
