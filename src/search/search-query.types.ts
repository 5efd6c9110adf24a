// The search language's parsed form (issue 15): what `parseSearchQuery` (search-query-parser.ts)
// makes of the text in the search box, and what the query builder (search-query-builder.ts) turns
// into SQL for SQLite and PostgreSQL alike. Client-safe: the search page builds its filter chips
// from it.
//
import { PHOTO_LABELS, type PhotoLabel } from "@/src/db/database";

// Every term is ANDed with the others. `raw` is the term as typed (with its `-`), so a chip can
// show it and removing a chip removes exactly that text from the box.

export type SearchComparison = "=" | "<" | "<=" | ">" | ">=";

/** The fields a `name:value` token may name. `f` is the aperture (f-number). */
export const SEARCH_FIELDS = ["tag", "album", "camera", "lens", "place", "year", "date", "iso", "f", "orientation", "rating", "label", "person"] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

export const ORIENTATIONS = ["portrait", "landscape", "square"] as const;
export type Orientation = (typeof ORIENTATIONS)[number];

interface TermBase {
  /** The token as typed, with its leading `-` when negated. */
  raw: string;
  /** `-` in front: photos matching this term are left out. */
  negated: boolean;
}

/**
 * A free word or a quoted phrase, folded (NFKD, marks removed, lower case) so accents and case
 * never matter. A word matches any word of the photo's text that starts with it (title, caption,
 * alt text, tags, public album titles, camera, lens); a phrase matches those words in a row.
 */
export interface TextTerm extends TermBase {
  kind: "text";
  /** The folded words; one for a bare word, one or more for a phrase. */
  words: string[];
  phrase: boolean;
}

/**
 * `*ton*`: photos whose text holds these letters anywhere inside a word (Boston, cartons, Tonga),
 * folded like a word. Only letters and digits, at least MIN_SUBSTRING_LENGTH of them (the trigram
 * indexes look up runs of three) and at most MAX_SUBSTRING_LENGTH.
 */
export interface SubstringTerm extends TermBase {
  kind: "substring";
  /** The folded letters and digits between the stars. */
  value: string;
}

/**
 * `tag:`, `album:`, `camera:`, `lens:` with the value as typed (quotes removed, trimmed, not folded).
 * `person:` names a named person the viewer may see (person-search-term.ts).
 */
export interface NameTerm extends TermBase {
  kind: "person" | "tag" | "album" | "camera" | "lens";
  value: string;
}

/**
 * `place:Rome`, `place:"New York"`, `place:IT`: photos whose stored town, region or country is
 * called this, the whole name (accents and case ignored: `place:zurich` finds Zürich), or whose
 * country has this ISO code. The value as typed (quotes removed, trimmed, not folded). Like
 * `rating:`, it finds only photos whose place the viewer may learn (the metadata policy's
 * location rule), so neither the term nor its negation tells anyone where a hidden photo was taken.
 */
export interface PlaceTerm extends TermBase {
  kind: "place";
  value: string;
}

/**
 * `year:` and `date:` as one half-open range of the day the photo was taken, [from, to), ISO dates
 * (YYYY-MM-DD); either end may be open. `year:2019` is 2019-01-01..2020-01-01, `date:2024-05` the
 * month, `date:>=2024-05-01` from that day on, `date:<2024` before 2024.
 */
export interface DateTerm extends TermBase {
  kind: "date";
  from: string | null;
  to: string | null;
}

/** `iso:` and `f:` (aperture): a comparison with a positive number. */
export interface NumberTerm extends TermBase {
  kind: "iso" | "aperture";
  comparison: SearchComparison;
  value: number;
}

export interface OrientationTerm extends TermBase {
  kind: "orientation";
  value: Orientation;
}

/**
 * `rating:5`, `rating:>=4`: the owner's stars (0 = none). Like `label:`, it finds only photos whose
 * rating the viewer may see (their own; an admin's, every photo): for anyone else it finds nothing,
 * so a search can never tell a visitor how the owner rated a photo.
 */
export interface RatingTerm extends TermBase {
  kind: "rating";
  comparison: SearchComparison;
  value: number;
}

/** The labels `label:` takes: a colour, or `none` for photos without one. */
export const SEARCH_LABELS = [...PHOTO_LABELS, "none"] as const;

/** `label:red`, `label:none`: the owner's colour label; only the photos whose label the viewer may see. */
export interface LabelTerm extends TermBase {
  kind: "label";
  value: PhotoLabel | "none";
}

export type SearchTerm = TextTerm | SubstringTerm | NameTerm | PlaceTerm | DateTerm | NumberTerm | OrientationTerm | RatingTerm | LabelTerm;

export interface SearchQuery {
  terms: SearchTerm[];
}

/** Why a query could not be read: the message names the token, for the page and the API's 400. */
export interface SearchQueryError {
  message: string;
  /** The offending token as typed. */
  token: string;
  /** Where it starts in the text (UTF-16 index). */
  position: number;
}

export type SearchQueryParse = { ok: true; query: SearchQuery } | { ok: false; error: SearchQueryError };

/** The longest query text read; longer text is a 400 (the page says so), never truncated silently. */
export const MAX_SEARCH_QUERY_LENGTH = 500;
/** At most this many terms in one query. */
export const MAX_SEARCH_TERMS = 20;
/** A substring needs this many characters: both indexes look text up by runs of three (trigrams). */
export const MIN_SUBSTRING_LENGTH = 3;
/** The longest substring read: longer than any word worth searching inside, short enough to stay cheap. */
export const MAX_SUBSTRING_LENGTH = 50;
