import { type Expression, type ExpressionBuilder, type Kysely, type RawBuilder, type SqlBool, sql } from "kysely";
import type { Database, LocationPrecision } from "@/src/db/database";
import type { OwnerNotesScope } from "@/src/photos/metadata-policy";
import { tagKey, tagNameProblem } from "@/src/tags/tag-name";
import { foldSearchText } from "./fold-search-text";
import { personCondition } from "./person-search-term";
import type { SearchTerm, SubstringTerm, TextTerm } from "./search-query.types";

// The search language's parsed form (search-query.types.ts) as Kysely conditions on `photos`, for
// SQLite and PostgreSQL alike. The one place the two databases differ: free words go to FTS5's
// MATCH on SQLite and to a tsquery on PostgreSQL. User text never reaches SQL but as a bound
// parameter, and never reaches a MATCH or tsquery string but as words of letters and digits (every
// other character is a separator on both sides, as in the index), so FTS operators typed in the box
// (NEAR, AND, OR, NOT, *, ^, quotes, parentheses, colons) are plain words or nothing. A substring
// (`*ton*`) is letters and digits only (the parser refuses anything else), and still reaches FTS5
// as a quoted string (quotes doubled) and PostgreSQL's LIKE with `\`, `%` and `_` escaped.

export type SearchDialect = "sqlite" | "postgres";

/**
 * Which database the handle speaks to, from the handle itself (a test's own database may differ
 * from the app's). Not `instanceof PostgresAdapter`: Next.js may bundle a second copy of Kysely, whose
 * class that would not be. Of the two, only PostgreSQL runs DDL in transactions.
 */
export function searchDialectOf(db: Kysely<Database>): SearchDialect {
  return db.getExecutor().adapter.supportsTransactionalDdl ? "postgres" : "sqlite";
}

/**
 * The words of a text as the index holds them: folded (accents and case), split on everything but
 * letters and digits (FTS5's unicode61 tokenizer on SQLite; photo_search_fold on PostgreSQL).
 */
export function searchTokensOf(text: string): string[] {
  return foldSearchText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token.length > 0);
}

/** The term's tokens in a row; the last one a prefix for a free word, whole for a quoted phrase. Null when it has no letters or digits. */
function textPattern(term: TextTerm): { tokens: string[]; prefix: boolean } | null {
  const tokens = term.words.flatMap(searchTokensOf);
  return tokens.length === 0 ? null : { tokens, prefix: !term.phrase };
}

/** FTS5: a quoted string (its words in a row), `*` for a prefix. Tokens hold no quote, but one would be doubled. */
function ftsPattern(pattern: { tokens: string[]; prefix: boolean }): string {
  return `"${pattern.tokens.join(" ").replace(/"/g, '""')}"${pattern.prefix ? "*" : ""}`;
}

/** PostgreSQL: the tokens followed by each other (`<->`), `:*` for a prefix. */
function tsPattern(pattern: { tokens: string[]; prefix: boolean }): string {
  return pattern.tokens.map((token, index) => (index === pattern.tokens.length - 1 && pattern.prefix ? `${token}:*` : token)).join(" <-> ");
}

/** FTS5 trigram table: each substring a quoted string (its characters in a row), all of them (AND). */
function trigramPattern(substrings: string[]): string {
  return substrings.map((each) => `"${each.replace(/"/g, '""')}"`).join(" AND ");
}

/** PostgreSQL LIKE: the substring anywhere, its `\`, `%` and `_` escaped (the default escape is `\`). */
function likePattern(substring: string): string {
  return `%${substring.replace(/[\\%_]/g, "\\$&")}%`;
}

/** PostgreSQL: the folded text (punctuation kept, photo_search_fold_letters) holds the substring; found by the GIN trigram index. */
function likeCondition(substring: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`photo_search.document_letters like ${likePattern(substring)}`;
}

/**
 * The ids of the photos whose text matches every word pattern and holds every substring (a
 * subquery on the indexes: the index of words, the trigram index, or both).
 */
function matchingPhotoIds(dialect: SearchDialect, patterns: Array<{ tokens: string[]; prefix: boolean }>, substrings: string[] = []) {
  if (dialect === "sqlite") {
    if (patterns.length === 0) {
      return sql<string>`(select photo_search.photo_id from photo_search_trigram join photo_search on photo_search.id = photo_search_trigram.rowid where photo_search_trigram match ${trigramPattern(substrings)})`;
    }
    const holding = substrings.length === 0 ? sql`` : sql` and photo_search.id in (select rowid from photo_search_trigram where photo_search_trigram match ${trigramPattern(substrings)})`;
    return sql<string>`(select photo_search.photo_id from photo_search_fts join photo_search on photo_search.id = photo_search_fts.rowid where photo_search_fts match ${patterns.map(ftsPattern).join(" AND ")}${holding})`;
  }
  const conditions = [
    ...(patterns.length === 0 ? [] : [sql<SqlBool>`photo_search.document_vector @@ to_tsquery('simple', ${patterns.map((each) => `(${tsPattern(each)})`).join(" & ")})`]),
    ...substrings.map(likeCondition),
  ];
  // OFFSET 0 keeps PostgreSQL from folding the lookup into the join: the matches are found on
  // their own (by the GIN indexes), not tested one photo at a time.
  return sql<string>`(select photo_search.photo_id from photo_search where ${sql.join(conditions, sql` and `)} offset 0)`;
}

/** Whether a term is looked up in an index of the text (a word or phrase with letters or digits, or a substring). */
function isTextLookup(term: SearchTerm): term is TextTerm | SubstringTerm {
  return term.kind === "substring" || (term.kind === "text" && textPattern(term) !== null);
}

/** What the service resolved before the query is built: the slugs `camera:`/`lens:` values name. */
export interface ResolvedSearch {
  terms: SearchTerm[];
  /**
   * For each camera:/lens: term, the slugs it names; for each album: term, the ids of the albums
   * with that slug the viewer may list; for each person: term, the ids of the people of that name
   * the viewer may see. Possibly none: the term then finds nothing.
   */
  slugs: Map<SearchTerm, string[]>;
  /** Whose ratings and labels the viewer may search (metadata policy): rating: and label: find only those photos. */
  ownerNotes: OwnerNotesScope;
  /** For each place: term, the stored names it matches (resolved in the service, where names are folded alike for both databases). */
  places: Map<SearchTerm, PlaceNames>;
  /** Whose places the viewer may learn (metadata policy's location rule): place: finds and facets count only those photos. */
  placeScope: PlaceScope;
}

/**
 * The stored values a place: term names, exactly as stored (compared with `=`, so `%` and `_` in a
 * name are plain characters): towns, regions and country codes.
 */
export interface PlaceNames {
  cities: string[];
  regions: string[];
  countryCodes: string[];
}

/**
 * Whose place a viewer may learn among the photos they list, as listedPlacesOf (metadata policy)
 * says: every photo's (admins), or those whose owner shows the location and the viewer's own; and
 * how much of it (listedPrecisionOf): their own exactly, others' at the photo's precision, else the
 * site's default (a town only from city precision up, a region from region precision up).
 */
export type PlaceScope = { kind: "all" } | { kind: "shown-or-own"; viewerId: string | null; siteDefault: LocationPrecision };

/** The precisions at which a viewer learns a photo's town, or its region (location-precision.ts). */
const PRECISIONS_NAMING: Record<"city" | "region", LocationPrecision[]> = { city: ["exact", "city"], region: ["exact", "city", "region"] };

/** The photos whose town (or region) this viewer learns, of those whose place they may learn at all. */
export function wherePlacePartLearned(eb: PhotosBuilder, scope: PlaceScope, part: "city" | "region"): Expression<SqlBool> | true {
  if (scope.kind === "all") return true;
  const precise = eb(eb.fn.coalesce("photos.location_precision", eb.val(scope.siteDefault)), "in", PRECISIONS_NAMING[part]);
  return scope.viewerId === null ? precise : eb.or([precise, eb("photos.owner_id", "=", scope.viewerId)]);
}

/** The photos whose place the viewer may learn: all (true), or those shown and their own. */
export function wherePlaceShown(eb: PhotosBuilder, scope: PlaceScope): Expression<SqlBool> | true {
  if (scope.kind === "all") return true;
  const shown = eb("photos.show_location", "=", 1);
  return scope.viewerId === null ? shown : eb.or([shown, eb("photos.owner_id", "=", scope.viewerId)]);
}

/**
 * Never null: a photo without a town, region or country does not match (so NOT of it keeps the
 * photo). A town or region matches only where the viewer learns it at the photo's precision.
 */
function placeNamesCondition(eb: PhotosBuilder, names: PlaceNames, scope: PlaceScope): Expression<SqlBool> | null {
  const parts: Expression<SqlBool>[] = [];
  const add = (column: "photos.place_city" | "photos.place_region" | "photos.place_country_code", values: string[], learned: Expression<SqlBool> | true) => {
    if (values.length === 0) return;
    const named = eb.and([eb(column, "is not", null), eb(column, "in", values)]);
    parts.push(learned === true ? named : eb.and([named, learned]));
  };
  add("photos.place_city", names.cities, wherePlacePartLearned(eb, scope, "city"));
  add("photos.place_region", names.regions, wherePlacePartLearned(eb, scope, "region"));
  add("photos.place_country_code", names.countryCodes, true);
  return parts.length === 0 ? null : eb.or(parts);
}

/** Whether the query has free words or substrings: then the indexes of the text drive the query; otherwise the photos' own indexes do. */
export function hasPositiveText(terms: SearchTerm[]): boolean {
  return terms.some((term) => !term.negated && isTextLookup(term));
}

/**
 * The positive free words and substrings as one index lookup (every one must match): a subquery
 * of `photo_id`s to select from, or null when there are none.
 */
export function positiveTextPhotoIds(dialect: SearchDialect, terms: SearchTerm[]): RawBuilder<{ photo_id: string }> | null {
  const patterns = terms.flatMap((term) => (term.kind === "text" && !term.negated ? [textPattern(term)] : [])).filter((each) => each !== null);
  const substrings = terms.flatMap((term) => (term.kind === "substring" && !term.negated ? [term.value] : []));
  if (patterns.length === 0 && substrings.length === 0) return null;
  return matchingPhotoIds(dialect, patterns, substrings) as unknown as RawBuilder<{ photo_id: string }>;
}

/**
 * SQLite: the size of a second in photo_search's keys. A row's key is its photo's sort_at to the
 * second times this, plus a number within the second (migration 2026-11-30T0200-search-gallery-order),
 * so the FTS5 doclists, kept in rowid order, hold a word's matches in gallery order to the second.
 */
export const SEARCH_KEYS_PER_SECOND = 16777216;

/** SQLite: the first key of the second of a sort_at (the migration's expression, on a bound value). */
export function searchKeyOfSecond(sortAt: string): RawBuilder<number> {
  return sql<number>`(coalesce(unixepoch(substr(${sortAt}, 1, 19)), 0) * ${sql.lit(SEARCH_KEYS_PER_SECOND)})`;
}

/**
 * SQLite: the photos the positive free words match (holding every positive substring too), each
 * with its key (`search_key`, in gallery order to the second), to walk with ORDER BY search_key
 * DESC: FTS5 reads the doclists in that order and stops at the LIMIT. Excluded free words are part
 * of the MATCH (whereSearchTerms' `skipExcludedText` leaves them out there). Null without positive words
 * (a substring alone is looked up as a list, positiveTextPhotoIds).
 */
export function keyedWordMatches(terms: SearchTerm[]): RawBuilder<{ photo_id: string; search_key: number }> | null {
  const patterns = terms.flatMap((term) => (term.kind === "text" && !term.negated ? [textPattern(term)] : [])).filter((each) => each !== null);
  const substrings = terms.flatMap((term) => (term.kind === "substring" && !term.negated ? [term.value] : []));
  if (patterns.length === 0) return null;
  // Excluded words in the same MATCH (FTS5's NOT, read along in rowid order): as NOT IN, the
  // statement would first list every photo holding the excluded word.
  const excluded = terms.flatMap((term) => (term.kind === "text" && term.negated ? [textPattern(term)] : [])).filter((each) => each !== null);
  const match = patterns.map(ftsPattern).join(" AND ") + excluded.map((each) => ` NOT ${ftsPattern(each)}`).join("");
  const holding = substrings.length === 0 ? sql`` : sql` and photo_search.id in (select rowid from photo_search_trigram where photo_search_trigram match ${trigramPattern(substrings)})`;
  return sql<{ photo_id: string; search_key: number }>`(select photo_search.photo_id, photo_search_fts.rowid as search_key from photo_search_fts join photo_search on photo_search.id = photo_search_fts.rowid where photo_search_fts match ${match}${holding})`;
}

/**
 * PostgreSQL: the word whose postings (photo_search_words, in gallery order) a search walks: the
 * first token of its one positive free word or phrase, a prefix when it is a free word's only token
 * (the last token of a free word is a prefix; a phrase's are whole). Null when the query has no
 * positive words, several, or a substring: those are found by the GIN indexes (an AND of lists),
 * as before.
 */
export function postingWordOf(terms: SearchTerm[]): { token: string; prefix: boolean; whole: boolean } | null {
  const positive = terms.filter((term) => !term.negated && isTextLookup(term));
  if (positive.length !== 1 || positive[0].kind !== "text") return null;
  const pattern = textPattern(positive[0]);
  if (pattern === null) return null;
  // `whole`: the word is the whole pattern, so its postings are exactly the matches (a phrase's
  // photos must still be tested for the words in a row).
  return { token: pattern.tokens[0], prefix: pattern.prefix && pattern.tokens.length === 1, whole: pattern.tokens.length === 1 };
}

type PhotosBuilder = ExpressionBuilder<Database, "photos">;

/** A never-null condition for one term (so NOT of it is exactly "does not match"). */
function termCondition(eb: PhotosBuilder, dialect: SearchDialect, term: SearchTerm, resolved: ResolvedSearch, probe: boolean): Expression<SqlBool> {
  switch (term.kind) {
    case "text": {
      const pattern = textPattern(term);
      if (pattern === null) return eb.lit(true);
      // PostgreSQL tests the photo's own tsvector (found by the photo's id): a probe per photo, so
      // walking the gallery in order stops after a page even for a common word. FTS5 cannot seek a
      // MATCH to one row cheaply (it reads the word's whole list each time), so SQLite builds the
      // list of matches once per statement and tests each photo against it.
      if (dialect === "postgres") {
        return sql<SqlBool>`exists (select 1 from photo_search where photo_search.photo_id = photos.id and photo_search.document_vector @@ to_tsquery('simple', ${tsPattern(pattern)}))`;
      }
      return eb("photos.id", "in", matchingPhotoIds(dialect, [pattern]));
    }
    case "substring": {
      // As a word: PostgreSQL probes the photo's own row (LIKE on one row), SQLite tests the photo
      // against the trigram index's matches, built once per statement.
      if (dialect === "postgres") {
        return sql<SqlBool>`exists (select 1 from photo_search where photo_search.photo_id = photos.id and ${likeCondition(term.value)})`;
      }
      return eb("photos.id", "in", matchingPhotoIds(dialect, [], [term.value]));
    }
    case "person":
      return personCondition(eb, resolved.slugs.get(term) ?? [], probe);
    case "tag": {
      if (tagNameProblem(term.value) !== null) return eb.lit(false);
      const tagged = eb.selectFrom("photo_tags").innerJoin("tags", "tags.id", "photo_tags.tag_id").select("photo_tags.photo_id").where("tags.key", "=", tagKey(term.value));
      // Probing photos already found (by free words): one lookup each. Otherwise IN, so the planner
      // may start from the tag's photos (a rare tag reads only its own rows).
      return probe ? eb.exists(tagged.whereRef("photo_tags.photo_id", "=", "photos.id")) : eb("photos.id", "in", tagged);
    }
    case "album": {
      // The album's own access is checked by the service (it resolves only albums the viewer may
      // list): an album the viewer may not list finds nothing, exactly like one that does not exist.
      const albumIds = resolved.slugs.get(term) ?? [];
      if (albumIds.length === 0) return eb.lit(false);
      const held = eb.selectFrom("album_photos").select("album_photos.photo_id").where("album_photos.album_id", "in", albumIds);
      return probe ? eb.exists(held.whereRef("album_photos.photo_id", "=", "photos.id")) : eb("photos.id", "in", held);
    }
    case "camera":
    case "lens": {
      const slugs = resolved.slugs.get(term) ?? [];
      if (slugs.length === 0) return eb.lit(false);
      const column = term.kind === "camera" ? "photos.camera_slug" : "photos.lens_slug";
      return eb.and([eb(column, "is not", null), eb(column, "in", slugs)]);
    }
    case "place": {
      // Only photos whose place the viewer may learn can match, as for rating: and label:, so
      // neither the term nor its negation tells anyone where a photo with a hidden location was.
      const names = resolved.places.get(term);
      const named = names === undefined ? null : placeNamesCondition(eb, names, resolved.placeScope);
      if (named === null) return eb.lit(false);
      const shown = wherePlaceShown(eb, resolved.placeScope);
      return shown === true ? named : eb.and([shown, named]);
    }
    case "date": {
      const bounds: Expression<SqlBool>[] = [];
      // sort_at is an ISO timestamp in UTC: comparing the text with a day compares the instants.
      if (term.from !== null) bounds.push(eb("photos.sort_at", ">=", term.from));
      if (term.to !== null) bounds.push(eb("photos.sort_at", "<", term.to));
      // Without a date taken, sort_at is the upload time: such a photo is of no date, so no date
      // filter finds it (and an excluded date keeps it).
      bounds.push(eb("photos.taken_at", "is not", null));
      return eb.and(bounds);
    }
    case "iso":
    case "aperture": {
      const column = term.kind === "iso" ? "photos.iso" : "photos.aperture";
      // Apertures are stored as reals (2.8 may come back as 2.7999999): "=" means to the hundredth.
      const comparison =
        term.comparison === "=" && term.kind === "aperture"
          ? eb.between(column, term.value - 0.005, term.value + 0.005)
          : eb(column, term.comparison, term.value);
      return eb.and([eb(column, "is not", null), comparison]);
    }
    case "rating":
    case "label": {
      // Only photos whose notes the viewer may see can match, so neither a term nor its negation
      // tells a visitor anything: NOT of "theirs and rated 5" keeps every photo of someone else.
      const visible = ownerNotesCondition(eb, resolved.ownerNotes);
      if (visible === null) return eb.lit(false);
      const note =
        term.kind === "rating"
          ? eb("photos.rating", term.comparison, term.value)
          : term.value === "none"
            ? eb("photos.label", "is", null)
            : eb.and([eb("photos.label", "is not", null), eb("photos.label", "=", term.value)]);
      return visible === true ? note : eb.and([visible, note]);
    }
    case "orientation": {
      const known = [eb("photos.width", "is not", null), eb("photos.height", "is not", null)];
      const shape =
        term.value === "portrait"
          ? eb("photos.height", ">", eb.ref("photos.width"))
          : term.value === "landscape"
            ? eb("photos.width", ">", eb.ref("photos.height"))
            : eb("photos.width", "=", eb.ref("photos.height"));
      return eb.and([...known, shape]);
    }
  }
}

/** Photos whose rating and label the viewer may see: all (true), none (null), or their own. */
function ownerNotesCondition(eb: PhotosBuilder, scope: OwnerNotesScope): Expression<SqlBool> | true | null {
  if (scope.kind === "nobody") return null;
  if (scope.kind === "all") return true;
  return eb("photos.owner_id", "=", scope.ownerId);
}

/**
 * Every term as one condition on `photos` (AND), negated terms as NOT (NOT IN / NOT EXISTS). With
 * `skipPositiveText`, positive free words and substrings are left out: the caller drives the query from the index
 * with positiveTextPhotoIds instead. `skipExcludedText`: negated free words are left out too (the
 * caller's MATCH excludes them, keyedWordMatches). `probe` (by default as `skipPositiveText`): tags and albums
 * tested photo by photo (EXISTS), for photos already found some other way.
 */
export function whereSearchTerms(
  eb: PhotosBuilder,
  dialect: SearchDialect,
  resolved: ResolvedSearch,
  options: { skipPositiveText: boolean; probe?: boolean; skipExcludedText?: boolean },
): Expression<SqlBool> {
  const conditions = resolved.terms
    .filter((term) => !(options.skipPositiveText && (term.kind === "text" || term.kind === "substring") && !term.negated))
    .filter((term) => !(options.skipExcludedText && term.kind === "text" && term.negated && textPattern(term) !== null))
    .map((term) => {
      const condition = termCondition(eb, dialect, term, resolved, options.probe ?? options.skipPositiveText);
      return term.negated ? eb.not(condition) : condition;
    });
  return conditions.length === 0 ? eb.lit(true) : eb.and(conditions);
}
