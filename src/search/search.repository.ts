import { type ExpressionBuilder, type RawBuilder, type SelectQueryBuilder, sql } from "kysely";
import type { DatabaseHandle } from "@/src/db/client";
import type { Database, LocationPrecision, PhotoRow, PhotoStatus, TagRow, Visibility } from "@/src/db/database";
import { type AlbumListAccess, whereListableAlbums } from "@/src/albums/album-access";
import { listablePhotoRanges, type PhotoListAccess, whereInRange, whereListablePhotos } from "@/src/photos/listable-photos";
import { mergePhotoRanges } from "@/src/photos/merge-photo-ranges";
import { type PeopleAccess, whereVisiblePeople } from "@/src/faces/people-access";
import {
  keyedWordMatches,
  positiveTextPhotoIds,
  postingWordOf,
  type ResolvedSearch,
  type SearchDialect,
  SEARCH_KEYS_PER_SECOND,
  searchDialectOf,
  searchKeyOfSecond,
  searchTokensOf,
  type PlaceScope,
  wherePlacePartLearned,
  wherePlaceShown,
  whereSearchTerms,
} from "./search-query-builder";

// SQL for search, one statement per function, the handle first. No rules: the service decides who
// is asking (the access every function takes) and what the query means (ResolvedSearch). Every
// query here is cut by whereListablePhotos.

type PhotosQuery = SelectQueryBuilder<Database, "photos", PhotoRow>;

function keysetAfter(query: PhotosQuery, after: { sortAt: string; id: string } | undefined): PhotosQuery {
  // A row value: only this form becomes an index range in SQLite (see photos.repository.ts).
  return after === undefined ? query : query.where((eb) => eb(eb.refTuple("sort_at", "id"), "<", eb.tuple(after.sortAt, after.id)));
}

export interface SearchPhotosQuery {
  resolved: ResolvedSearch;
  access: PhotoListAccess;
  after?: { sortAt: string; id: string };
  limit: number;
}

/**
 * A page of the photos the query finds that the access rule lets through, in gallery order
 * (sort_at desc, id desc) after the keyset.
 *
 * - With free words on SQLite, their matches in the FTS5 index's key order, which is gallery order
 *   to the second (searchInKeyOrder): a page reads about a page of matches, whatever the word matches.
 * - With one free word or phrase on PostgreSQL, its word's postings in gallery order
 *   (searchInPostingOrder): the same.
 * - Otherwise, with free words (PostgreSQL: several, a prefix of several words, or substrings; a
 *   substring alone on SQLite), the index of words drives: the matching ids come from FTS5 / the GIN
 *   index, each photo is read by its key and filtered, and the matches are sorted (cheap for a rare
 *   word; past MATCHES_READ_WHOLE matches the gallery is walked instead).
 * - Without (filters only, or nothing): one index range per access class walked in gallery order,
 *   each cut to the page, merged; a single camera or lens walks its slug index, dates bound the
 *   range of sort_at.
 */
export async function searchPhotos(db: DatabaseHandle, query: SearchPhotosQuery): Promise<PhotoRow[]> {
  const dialect = searchDialectOf(db);
  const { resolved, access } = query;
  const keyed = dialect === "sqlite" ? keyedWordMatches(resolved.terms) : null;
  if (keyed !== null) return searchInKeyOrder(db, keyed, query);
  const postingWord = dialect === "postgres" ? postingWordOf(resolved.terms) : null;
  const posted = postingWord === null ? null : await findPostingWord(db, postingWord);
  if (posted === "none") return [];
  if (posted !== null && postingWord !== null) return searchInPostingOrder(db, posted, postingWord.whole, query);
  const textIds = positiveTextPhotoIds(dialect, resolved.terms);
  const matches = textIds === null ? null : await findFewMatches(db, textIds);
  if (matches?.length === 0) return [];
  if (matches !== null) {
    const after = query.after;
    return fromMatches(db, listedIds(dialect, matches))
      .selectAll("photos")
      .where((eb) => whereListablePhotos(asPhotos(eb), access))
      .where((eb) => whereSearchTerms(asPhotos(eb), dialect, resolved, { skipPositiveText: true }))
      // The keyset filters the matches (found by the index of words, not walked in gallery order),
      // so it is written on the photo's own columns.
      .$if(after !== undefined, (select) =>
        select.where((eb) => eb(eb.refTuple("photos.sort_at", "photos.id"), "<", eb.tuple(after!.sortAt, after!.id))),
      )
      .orderBy("photos.sort_at", "desc")
      .orderBy("photos.id", "desc")
      .limit(query.limit)
      .execute();
  }
  // No words, or words so common that reading every match by key and sorting them costs more than
  // walking the gallery in order and testing each photo (a word on 1 photo in 10 fills a page of 30
  // after about 300 photos). PostgreSQL tests each photo's own tsvector; SQLite tests it against the
  // list of matches, built once per request from the word index, so there a common word's cost still
  // grows with its matches, only more slowly (search-query-builder.ts).
  // The list rule's index ranges (src/photos/listable-photos.ts): ((visibility|owner_id|status,
  // sort_at, id), or (camera_slug|lens_slug, visibility, sort_at, id)), each cut to the page.
  const ranges = listablePhotoRanges(access).map((range) =>
    keysetAfter(
      db
        .selectFrom("photos")
        .selectAll()
        .where((eb) => whereInRange(eb, access, range))
        .where((eb) => whereSearchTerms(eb, dialect, resolved, { skipPositiveText: false })),
      query.after,
    )
      .orderBy("sort_at", "desc")
      .orderBy("id", "desc")
      .limit(query.limit),
  );
  return mergePhotoRanges(db, ranges, query.limit);
}

/**
 * SQLite, free words: their matches walked in key order (gallery order to the second, newest first;
 * see keyedWordMatches), each photo read by its key and filtered, stopping after about a page,
 * whatever the word matches:
 * 1. the first `limit` matches let through, in key order, and the one after them: every second
 *    but the page's last is then whole, and the last one too when the match after it is from an
 *    earlier second (or there is none). Sorted by (sort_at, id), that is the page, exactly.
 * 2. Only when the match after the page shares its last second (photos taken in the same second):
 *    every match let through from that second on, sorted by (sort_at, id), cut to the page.
 * Each MATCH of a prefix reads the word's whole list (FTS5 expands it), so the second statement is
 * only sent when it is needed.
 */
async function searchInKeyOrder(db: DatabaseHandle, keyed: RawBuilder<{ photo_id: string; search_key: number }>, query: SearchPhotosQuery): Promise<PhotoRow[]> {
  const { resolved, access, after } = query;
  const searchKey = sql<number>`found.search_key`;
  const secondOfKey = sql<number>`found.search_key / ${sql.lit(SEARCH_KEYS_PER_SECOND)} - (found.search_key < 0 and found.search_key % ${sql.lit(SEARCH_KEYS_PER_SECOND)} != 0)`;
  const matches = () =>
    fromMatches(db, keyed)
      .where((eb) => whereListablePhotos(asPhotos(eb), access))
      .where((eb) => whereSearchTerms(asPhotos(eb), "sqlite", resolved, { skipPositiveText: true, skipExcludedText: true }))
      // The keyset: the keys of its second and before (an FTS5 rowid range), then exactly on the photo's columns.
      .$if(after !== undefined, (select) =>
        select
          .where(searchKey, "<", sql<number>`${searchKeyOfSecond(after!.sortAt)} + ${sql.lit(SEARCH_KEYS_PER_SECOND)}`)
          .where((eb) => eb(eb.refTuple("photos.sort_at", "photos.id"), "<", eb.tuple(after!.sortAt, after!.id))),
      );
  const first = await matches().selectAll("photos").select(secondOfKey.as("search_second")).orderBy(searchKey, "desc").limit(query.limit + 1).execute();
  if (first.length === 0) return [];
  const lastSecond = Number(first[Math.min(first.length, query.limit) - 1].search_second);
  const next = first[query.limit];
  if (next === undefined || Number(next.search_second) !== lastSecond) {
    return first
      .slice(0, query.limit)
      .map(({ search_second: _second, ...photo }) => photo)
      .sort(inGalleryOrder);
  }
  return matches()
    .selectAll("photos")
    .where(searchKey, ">=", sql<number>`${lastSecond} * ${sql.lit(SEARCH_KEYS_PER_SECOND)}`)
    .orderBy("photos.sort_at", "desc")
    .orderBy("photos.id", "desc")
    .limit(query.limit)
    .execute();
}

/** Gallery order: sort_at, then id, both descending (as the databases compare text: by code unit). */
function inGalleryOrder(left: PhotoRow, right: PhotoRow): number {
  if (left.sort_at !== right.sort_at) return left.sort_at < right.sort_at ? 1 : -1;
  return left.id < right.id ? 1 : left.id > right.id ? -1 : 0;
}

/**
 * PostgreSQL: the one word of photo_search_words the search walks: the token itself, or the only
 * word starting with a prefix (found by two index lookups: the first word from the prefix on, and
 * the next after it). Null when the prefix starts several words: their postings would have to be
 * merged, and PostgreSQL sorts a UNION ALL of them rather than merging (tests/query-plans.test.ts),
 * so those are searched as before (the GIN index, then the gallery walked). "none" when no word has it.
 */
async function findPostingWord(db: DatabaseHandle, word: { token: string; prefix: boolean }): Promise<string | "none" | null> {
  if (!word.prefix) return word.token;
  const end = prefixEnd(word.token);
  const { rows } = await sql<{ word: string }>`with recursive found (word) as (
      select min(word) from photo_search_words where word >= ${word.token} and word < ${end}
      union all
      select (select min(word) from photo_search_words where word > found.word and word < ${end}) from found where found.word is not null
    )
    select word from found where word is not null limit 2`.execute(db);
  return rows.length === 0 ? "none" : rows.length === 1 ? rows[0].word : null;
}

/**
 * PostgreSQL, one free word or phrase: the postings of its word walked in gallery order (the btree
 * of photo_search_words backwards), each photo read by its key and tested against every other term
 * (and a phrase's words in a row, through the photo's own tsvector), stopping at the page. A lone
 * word is not tested again: its postings are its matches (and testing each photo's tsvector made
 * the planner's estimate big enough for a parallel plan: 84 ms instead of 6 at 100,000 photos).
 */
async function searchInPostingOrder(db: DatabaseHandle, word: string, whole: boolean, query: SearchPhotosQuery): Promise<PhotoRow[]> {
  const { resolved, access, after } = query;
  const keyset = after === undefined ? sql`` : sql` and (w.sort_at, w.photo_id) < (${after.sortAt}, ${after.id})`;
  const postings = sql<{ photo_id: string; sort_at: string }>`(select w.photo_id, w.sort_at from photo_search_words w where w.word = ${word}${keyset})`;
  return db
    .selectFrom(postings.as("found"))
    .crossJoin("photos")
    .whereRef("photos.id", "=", "found.photo_id")
    .selectAll("photos")
    .where((eb) => whereListablePhotos(asPhotos(eb), access))
    .where((eb) => whereSearchTerms(asPhotos(eb), "postgres", resolved, { skipPositiveText: whole, probe: true }))
    .orderBy("found.sort_at", "desc")
    .orderBy("found.photo_id", "desc")
    .limit(query.limit)
    .execute();
}

/**
 * Up to this many matches, a word search reads them as a list and looks each photo up by key;
 * past it, it walks the gallery in order (searchPhotos).
 */
const MATCHES_READ_WHOLE = 2000;

/**
 * The ids of the photos the words match (anyone's: access is applied after), when there are at most
 * MATCHES_READ_WHOLE; null when there are more. Read on their own, from the index alone, and then
 * handed to the photos query as a list: the planners cannot guess how many photos a word matches
 * (PostgreSQL assumes 2 % of rows for a prefix and then reads every public photo to join them).
 */
async function findFewMatches(db: DatabaseHandle, textIds: RawBuilder<{ photo_id: string }>): Promise<string[] | null> {
  const rows = await db.selectFrom(textIds.as("found")).select("found.photo_id").limit(MATCHES_READ_WHOLE + 1).execute();
  return rows.length > MATCHES_READ_WHOLE ? null : rows.map((row) => row.photo_id);
}

/** A list of photo ids as rows to join from (the list is bound as one parameter, whatever its length). */
function listedIds(dialect: SearchDialect, ids: string[]): RawBuilder<{ photo_id: string }> {
  return dialect === "sqlite"
    ? sql<{ photo_id: string }>`(select value as photo_id from json_each(${JSON.stringify(ids)}))`
    : sql<{ photo_id: string }>`(select unnest(${ids}::text[]) as photo_id)`;
}

/**
 * The photos the index of words matched, joined to their rows: `found` first (CROSS JOIN keeps
 * SQLite from walking a photos index instead and testing every photo against the matches), each
 * photo then read by its key.
 */
function fromMatches(db: DatabaseHandle, textIds: RawBuilder<{ photo_id: string }>) {
  return db
    .selectFrom(textIds.as("found"))
    .crossJoin("photos")
    .whereRef("photos.id", "=", "found.photo_id");
}

/** whereListablePhotos and the term conditions name only `photos` columns, fully qualified. */
function asPhotos<DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>): ExpressionBuilder<Database, "photos"> {
  return eb as unknown as ExpressionBuilder<Database, "photos">;
}

/** The photos the query finds for this access (facets count among them): from the matches when there are free words. */
async function selectFound(db: DatabaseHandle, query: { resolved: ResolvedSearch; access: PhotoListAccess }) {
  const dialect = searchDialectOf(db);
  const textIds = positiveTextPhotoIds(dialect, query.resolved.terms);
  const conditions = (eb: ExpressionBuilder<Database, "photos">) =>
    eb.and([whereListablePhotos(eb, query.access), whereSearchTerms(eb, dialect, query.resolved, { skipPositiveText: true })]);
  if (textIds === null) return db.selectFrom("photos").where(conditions);
  const matches = await findFewMatches(db, textIds);
  // Typed as a plain photos query: the facet queries name only photos' (and joined tables') columns.
  return fromMatches(db, matches === null ? textIds : listedIds(dialect, matches)).where((eb) => conditions(asPhotos(eb))) as unknown as SelectQueryBuilder<Database, "photos", object>;
}

export interface FacetCountRow {
  value: string;
  /** What to show: the camera's make and model, the lens, the tag's name, the year; for a town, `make` is its country code. */
  make: string | null;
  label: string | null;
  count: number;
}

const FACET_LIMIT = 12;

function toFacetRows(rows: Array<{ value: string | null; make?: string | null; label: string | null; count: string | number | bigint }>): FacetCountRow[] {
  return rows.filter((row) => row.value !== null).map((row) => ({ value: row.value as string, make: row.make ?? null, label: row.label, count: Number(row.count) }));
}

/** How many found photos each camera has, biggest first (at most 12). */
export async function countFoundPerCamera(db: DatabaseHandle, query: { resolved: ResolvedSearch; access: PhotoListAccess }): Promise<FacetCountRow[]> {
  const rows = await (await selectFound(db, query))
    .select((eb) => [
      "photos.camera_slug as value",
      eb.fn.max("photos.camera_make").as("make"),
      eb.fn.max("photos.camera_model").as("label"),
      eb.fn.countAll<string | number>().as("count"),
    ])
    .where("photos.camera_slug", "is not", null)
    .groupBy("photos.camera_slug")
    .orderBy("count", "desc")
    .orderBy("photos.camera_slug")
    .limit(FACET_LIMIT)
    .execute();
  return toFacetRows(rows);
}

/** How many found photos each lens has, biggest first (at most 12). */
export async function countFoundPerLens(db: DatabaseHandle, query: { resolved: ResolvedSearch; access: PhotoListAccess }): Promise<FacetCountRow[]> {
  const rows = await (await selectFound(db, query))
    .select((eb) => ["photos.lens_slug as value", eb.fn.max("photos.lens").as("label"), eb.fn.countAll<string | number>().as("count")])
    .where("photos.lens_slug", "is not", null)
    .groupBy("photos.lens_slug")
    .orderBy("count", "desc")
    .orderBy("photos.lens_slug")
    .limit(FACET_LIMIT)
    .execute();
  return toFacetRows(rows);
}

/** How many found photos each year (of sort_at, UTC) has, biggest first (at most 12); a photo without a date taken is of no year. */
export async function countFoundPerYear(db: DatabaseHandle, query: { resolved: ResolvedSearch; access: PhotoListAccess }): Promise<FacetCountRow[]> {
  const year = sql<string>`substr(photos.sort_at, 1, 4)`;
  const rows = await (await selectFound(db, query))
    .where("photos.taken_at", "is not", null)
    .select((eb) => [year.as("value"), year.as("label"), eb.fn.countAll<string | number>().as("count")])
    .groupBy(year)
    .orderBy("count", "desc")
    .orderBy(year, "desc")
    .limit(FACET_LIMIT)
    .execute();
  return toFacetRows(rows);
}

/** How many found photos each tag has, biggest first (at most 12). */
export async function countFoundPerTag(db: DatabaseHandle, query: { resolved: ResolvedSearch; access: PhotoListAccess }): Promise<FacetCountRow[]> {
  const rows = await (await selectFound(db, query))
    .innerJoin("photo_tags", "photo_tags.photo_id", "photos.id")
    .innerJoin("tags", "tags.id", "photo_tags.tag_id")
    .select((eb) => ["tags.key as value", eb.fn.max("tags.name").as("label"), eb.fn.countAll<string | number>().as("count")])
    .groupBy("tags.key")
    .orderBy("count", "desc")
    .orderBy("tags.key")
    .limit(FACET_LIMIT)
    .execute();
  return toFacetRows(rows);
}

/**
 * How many found photos each town has (per country: two towns of one name are two entries),
 * biggest first (at most 12), among the photos whose town the viewer may learn: a hidden place,
 * or a town kept to its region or country by the photo's precision, is in no facet.
 */
export async function countFoundPerPlace(
  db: DatabaseHandle,
  query: { resolved: ResolvedSearch; access: PhotoListAccess; placeScope: PlaceScope },
): Promise<FacetCountRow[]> {
  const rows = await (await selectFound(db, query))
    .where("photos.place_city", "is not", null)
    .where((eb) => {
      const shown = wherePlaceShown(eb, query.placeScope);
      const town = wherePlacePartLearned(eb, query.placeScope, "city");
      const conditions = [shown, town].filter((condition) => condition !== true);
      return conditions.length === 0 ? eb.lit(true) : eb.and(conditions);
    })
    .select((eb) => ["photos.place_city as value", "photos.place_country_code as make", "photos.place_city as label", eb.fn.countAll<string | number>().as("count")])
    .groupBy(["photos.place_city", "photos.place_country_code"])
    .orderBy("count", "desc")
    .orderBy("photos.place_city")
    .limit(FACET_LIMIT)
    .execute();
  return toFacetRows(rows);
}

/**
 * How many found photos each named person the viewer may see (people-access.ts) is in, biggest
 * first (at most 12); people of the same name count as one, as `person:` finds them all. Hidden
 * people are left out (their owner put them out of sight), though `person:` still finds them for the owner.
 */
export async function countFoundPerPerson(db: DatabaseHandle, query: { resolved: ResolvedSearch; access: PhotoListAccess; people: PeopleAccess }): Promise<FacetCountRow[]> {
  if (query.people.kind === "nobody") return [];
  const rows = await (await selectFound(db, query))
    .innerJoin("faces", "faces.photo_id", "photos.id")
    .innerJoin("people", "people.id", "faces.person_id")
    .where("people.name", "is not", null)
    .where("people.is_hidden", "=", 0)
    .where((eb) => whereVisiblePeople(eb as unknown as ExpressionBuilder<Database, "people">, query.people))
    .select((eb) => ["people.name as value", "people.name as label", eb.fn.count<string | number>("photos.id").distinct().as("count")])
    .groupBy("people.name")
    .orderBy("count", "desc")
    .orderBy("people.name")
    .limit(FACET_LIMIT)
    .execute();
  return toFacetRows(rows);
}

/** Places by who may list them and learn them: one row per town, region, country, visibility, owner, state, location switch and precision (a small set). */
export interface PlaceGroupRow {
  city: string | null;
  region: string | null;
  country_code: string | null;
  visibility: Visibility;
  owner_id: string;
  status: PhotoStatus;
  show_location: number;
  location_precision: LocationPrecision | null;
}

/** Every stored place of photos outside the trash, with who may list and learn it. Reads every photo with a place: the service remembers it. */
export function listPlaceGroups(db: DatabaseHandle): Promise<PlaceGroupRow[]> {
  return db
    .selectFrom("photos")
    .select(["place_city as city", "place_region as region", "place_country_code as country_code", "visibility", "owner_id", "status", "show_location", "location_precision"])
    .where((eb) => eb.or([eb("place_city", "is not", null), eb("place_region", "is not", null), eb("place_country_code", "is not", null)]))
    .where("trashed_at", "is", null)
    .groupBy(["place_city", "place_region", "place_country_code", "visibility", "owner_id", "status", "show_location", "location_precision"])
    .execute();
}

/** Cameras and lenses by who may list them: one row per slug (a camera's per EXIF spelling), visibility, owner and state (a small set). */
export interface SlugGroupRow {
  kind: "camera" | "lens";
  slug: string;
  make: string | null;
  label: string | null;
  visibility: Visibility;
  owner_id: string;
  status: PhotoStatus;
}

/**
 * Every camera and lens slug of photos outside the trash, with who may list them: each camera
 * spelling apart (each had its own URL name before 2026-11-29, earlierCameraSlug), a lens by any
 * one of its spellings. Read from photo_slug_groups, which the database keeps in step with photos.
 */
export async function listSlugGroups(db: DatabaseHandle): Promise<SlugGroupRow[]> {
  const [cameras, lenses] = await Promise.all([
    db
      .selectFrom("photo_slug_groups")
      .select(["slug", "make", "label", "visibility", "owner_id", "status"])
      .where("kind", "=", "camera")
      .execute(),
    db
      .selectFrom("photo_slug_groups")
      .select((eb) => ["slug", eb.fn.max("label").as("label"), "visibility", "owner_id", "status"])
      .where("kind", "=", "lens")
      .groupBy(["slug", "visibility", "owner_id", "status"])
      .execute(),
  ]);
  const orNull = (text: string | null) => (text === "" ? null : text);
  return [
    ...cameras.map((row) => ({ kind: "camera" as const, slug: row.slug, make: orNull(row.make), label: orNull(row.label), visibility: row.visibility, owner_id: row.owner_id, status: row.status })),
    ...lenses.map((row) => ({ kind: "lens" as const, slug: row.slug, make: null, label: orNull(row.label), visibility: row.visibility, owner_id: row.owner_id, status: row.status })),
  ];
}

/** The ids of the albums with one of these slugs that the viewer may list. */
export async function findListableAlbumIds(db: DatabaseHandle, slugs: string[], access: AlbumListAccess): Promise<string[]> {
  if (slugs.length === 0) return [];
  const rows = await db
    .selectFrom("albums")
    .select("albums.id")
    .where("albums.slug", "in", slugs)
    .where((eb) => whereListableAlbums(eb, access))
    .execute();
  return rows.map((row) => row.id);
}

/** Text greater than any text starting with `prefix` (byte order on both databases): a prefix as an index range. */
function prefixEnd(prefix: string): string {
  return `${prefix}\u{10ffff}`;
}

/** Tags whose key starts with `prefix` that have a photo the viewer may list, in key order. */
export function suggestTagsByPrefix(db: DatabaseHandle, prefix: string, access: PhotoListAccess, limit: number): Promise<TagRow[]> {
  return db
    .selectFrom("tags")
    .selectAll("tags")
    .where("tags.key", ">=", prefix)
    .where("tags.key", "<", prefixEnd(prefix))
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom("photo_tags")
          .innerJoin("photos", "photos.id", "photo_tags.photo_id")
          .select("photo_tags.photo_id")
          .whereRef("photo_tags.tag_id", "=", "tags.id")
          .where((eb) => whereListablePhotos(eb, access)),
      ),
    )
    .orderBy("tags.key")
    .limit(limit)
    .execute();
}

/** Albums the viewer may list whose slug starts with `prefix`, in slug order. */
export function suggestAlbumsByPrefix(db: DatabaseHandle, prefix: string, access: AlbumListAccess, limit: number): Promise<Array<{ slug: string; title: string }>> {
  return db
    .selectFrom("albums")
    .select(["albums.slug", "albums.title"])
    .where("albums.slug", ">=", prefix)
    .where("albums.slug", "<", prefixEnd(prefix))
    .where((eb) => whereListableAlbums(eb, access))
    .orderBy("albums.slug")
    .limit(limit)
    .execute();
}

/**
 * The searchable text of up to `limit` photos the viewer may list whose words start with `prefix`
 * (the word index, then each photo by its key): words are suggested only from photos the viewer
 * may list, never from the index's vocabulary as a whole.
 */
export async function listMatchingDocuments(db: DatabaseHandle, prefix: string, access: PhotoListAccess, limit: number): Promise<string[]> {
  const dialect = searchDialectOf(db);
  const tokens = searchTokensOf(prefix);
  if (tokens.length !== 1) return [];
  const term = { kind: "text" as const, raw: prefix, negated: false, words: tokens, phrase: false };
  const ids = positiveTextPhotoIds(dialect, [term]);
  if (ids === null) return [];
  const rows = await fromMatches(db, ids)
    .innerJoin("photo_search", "photo_search.photo_id", "photos.id")
    .select("photo_search.document")
    .where((eb) => whereListablePhotos(asPhotos(eb), access))
    .limit(limit)
    .execute();
  return rows.map((row) => row.document);
}
