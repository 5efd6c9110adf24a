// The search language (issue 15): the text of the search box → SearchQuery, or an error naming
// the token that could not be read. Pure and client-safe: the API, the search page's chips and
// the query builder all read queries through this one function.
//
// The grammar (also shown on /search):
// - Tokens are separated by white space (control characters count as white space). Every token
//   narrows the result: tokens combine with AND.
// - A leading `-` excludes: `-beach`, `-tag:beach`. More dashes are the same as one (`--x` is `-x`);
//   a lone `-` is punctuation and is dropped.
// - `"..."` is a phrase: its words in a row. A quote with no closing quote runs to the end of the
//   text. Quotes may also hold a field's value: camera:"eos 40d". Inside quotes a colon is plain
//   text ("10:30 pm" is a phrase).
// - `name:value` with a known field (person, tag, album, camera, lens, year, date, iso, f, orientation,
//   rating, label, place; the name in any case) is a filter. A token whose part before the first colon is letters only and
//   not a field (foo:bar, http://...) is an error naming it, so a typo never silently searches for
//   text; quote it to search for the words. A colon after digits (10:30) is a free word.
// - `*ton*` (stars at both ends, letters and digits between) is a substring: the photo's text holds
//   those letters anywhere inside a word (Boston, cartons), accents and case ignored. At least 3
//   characters (the trigram indexes need one run of three), at most 50; anything else between the
//   stars is an error naming the token. Stars only at one end (`ton*`) stay punctuation.
// - Anything else is free text: folded (accents and case ignored) and split on characters that
//   are neither letters nor digits, as the full-text tokenizer does. One word matches by prefix;
//   several ("rock'n'roll") are a phrase of those words. A token of only punctuation or emoji is
//   dropped. Operators of the full-text engines (AND, OR, NEAR, *, ^) are plain words here.

import { foldSearchText } from "./fold-search-text";
import {
  MAX_SEARCH_QUERY_LENGTH,
  MAX_SEARCH_TERMS,
  MAX_SUBSTRING_LENGTH,
  MIN_SUBSTRING_LENGTH,
  ORIENTATIONS,
  SEARCH_FIELDS,
  SEARCH_LABELS,
  type LabelTerm,
  type RatingTerm,
  type DateTerm,
  type NumberTerm,
  type Orientation,
  type SearchComparison,
  type SearchField,
  type SearchQuery,
  type SearchQueryParse,
  type SearchTerm,
  type SubstringTerm,
} from "./search-query.types";

/** One example per field, for messages and the help on the page. */
export const SEARCH_FIELD_EXAMPLES: Record<SearchField, string> = {
  person: 'person:"Anna Berg"',
  tag: "tag:beach",
  album: "album:summer-2019",
  camera: "camera:canon",
  lens: "lens:50mm",
  place: 'place:"New York"',
  year: "year:2019",
  date: "date:>=2024-05-01",
  iso: "iso:>1600",
  f: "f:<2.8",
  orientation: "orientation:portrait",
  rating: "rating:>=4",
  label: "label:red",
};

const WHITESPACE = /[\s\p{Cc}]/u;
const WORD_SEPARATORS = /[^\p{L}\p{N}]+/u;
const FIELD_PREFIX = /^(\p{L}+):/u;
const MAX_ISO = 10_000_000;
const MAX_APERTURE = 1000;

interface RawToken {
  /** As typed, with its dashes and quotes. */
  text: string;
  position: number;
}

class QueryError extends Error {
  constructor(
    message: string,
    readonly token: string,
    readonly position: number,
  ) {
    super(message);
  }
}

/** Reads the text of the search box. Never throws: a bad query is `{ ok: false, error }`. */
export function parseSearchQuery(text: string): SearchQueryParse {
  if (text.length > MAX_SEARCH_QUERY_LENGTH) {
    return {
      ok: false,
      error: {
        message: `The search is ${text.length} characters long; at most ${MAX_SEARCH_QUERY_LENGTH} are read.`,
        token: `${text.slice(0, 40)}…`,
        position: 0,
      },
    };
  }
  const terms: SearchTerm[] = [];
  try {
    for (const token of splitTokens(text)) {
      const term = readTerm(token);
      if (!term) continue;
      if (terms.length === MAX_SEARCH_TERMS) {
        throw new QueryError(
          `${token.text} is one term too many: a search holds at most ${MAX_SEARCH_TERMS} terms.`,
          token.text,
          token.position,
        );
      }
      terms.push(term);
    }
  } catch (error) {
    if (error instanceof QueryError) {
      return { ok: false, error: { message: error.message, token: error.token, position: error.position } };
    }
    throw error;
  }
  const query: SearchQuery = { terms };
  return { ok: true, query };
}

/** White-space separated tokens; a quote holds white space until the next quote or the end. */
function splitTokens(text: string): RawToken[] {
  const tokens: RawToken[] = [];
  let index = 0;
  while (index < text.length) {
    while (index < text.length && WHITESPACE.test(text[index])) index += 1;
    if (index >= text.length) break;
    const start = index;
    let quoted = false;
    while (index < text.length) {
      const char = text[index];
      if (char === '"') quoted = !quoted;
      else if (!quoted && WHITESPACE.test(char)) break;
      index += 1;
    }
    tokens.push({ text: text.slice(start, index), position: start });
  }
  return tokens;
}

function readTerm(token: RawToken): SearchTerm | null {
  const raw = token.text;
  let body = raw;
  while (body.startsWith("-")) body = body.slice(1);
  const negated = body.length < raw.length;
  if (body === "") return null;

  if (!body.startsWith('"')) {
    const field = FIELD_PREFIX.exec(body);
    if (field) {
      const name = field[1].toLowerCase();
      if (!isSearchField(name)) {
        throw new QueryError(
          `${raw} names no field: ${field[1]}: is not one of ${SEARCH_FIELDS.map((f) => `${f}:`).join(", ")} (put it in quotes to search for the words).`,
          raw,
          token.position,
        );
      }
      const value = unquote(body.slice(field[0].length));
      return readField(name, value, { raw, negated }, token);
    }
  }

  if (body.length > 2 && body.startsWith("*") && body.endsWith("*")) return readSubstring(body, { raw, negated }, token);

  const quoted = body.includes('"');
  const words = splitWords(body.replaceAll('"', " "));
  if (words.length === 0) return null;
  return { kind: "text", raw, negated, words, phrase: quoted || words.length > 1 };
}

const SUBSTRING_CHARACTERS = /^[\p{L}\p{N}]+$/u;

/** `*ton*`: the folded letters between the stars; more stars at either end are the same as one. */
function readSubstring(body: string, base: { raw: string; negated: boolean }, token: RawToken): SubstringTerm | null {
  const inner = body.replace(/^\*+/, "").replace(/\*+$/, "");
  if (inner === "") return null;
  const fail = (what: string): never => {
    throw new QueryError(`${base.raw} ${what} (use *ton* to find Boston or cartons)`, base.raw, token.position);
  };
  const value = foldSearchText(inner);
  if (!SUBSTRING_CHARACTERS.test(value)) fail("holds more than letters and digits: a substring is part of one word");
  const length = [...value].length;
  if (length < MIN_SUBSTRING_LENGTH) fail(`is too short: a substring needs at least ${MIN_SUBSTRING_LENGTH} letters or digits`);
  if (length > MAX_SUBSTRING_LENGTH) fail(`is too long: a substring holds at most ${MAX_SUBSTRING_LENGTH} letters or digits`);
  return { kind: "substring", ...base, value };
}

/** Folded words, split the way the full-text tokenizers split them. */
export function splitWords(text: string): string[] {
  return foldSearchText(text)
    .split(WORD_SEPARATORS)
    .filter((word) => word !== "");
}

function isSearchField(name: string): name is SearchField {
  return (SEARCH_FIELDS as readonly string[]).includes(name);
}

function unquote(value: string): string {
  return value.replaceAll('"', "").replace(/\p{Cc}/gu, " ").trim();
}

function readField(
  field: SearchField,
  value: string,
  base: { raw: string; negated: boolean },
  token: RawToken,
): SearchTerm {
  const fail = (what: string): never => {
    throw new QueryError(`${base.raw} ${what} (use ${SEARCH_FIELD_EXAMPLES[field]})`, base.raw, token.position);
  };
  if (value === "") fail("needs a value");

  switch (field) {
    case "person":
    case "tag":
    case "album":
    case "camera":
    case "lens":
    case "place":
      return { kind: field, ...base, value };
    case "orientation": {
      const orientation = value.toLowerCase();
      if (!(ORIENTATIONS as readonly string[]).includes(orientation)) {
        return fail(`is not an orientation: portrait, landscape or square`);
      }
      return { kind: "orientation", ...base, value: orientation as Orientation };
    }
    case "iso": {
      const { comparison, number } = splitComparison(value);
      if (!/^\d+$/.test(number) || Number(number) <= 0 || Number(number) > MAX_ISO) {
        return fail("is not an ISO speed");
      }
      const term: NumberTerm = { kind: "iso", ...base, comparison, value: Number(number) };
      return term;
    }
    case "f": {
      const { comparison, number } = splitComparison(value);
      const digits = number.replace(/^f\/?/i, "").replace(",", ".");
      if (!/^(\d+(\.\d*)?|\.\d+)$/.test(digits) || Number(digits) <= 0 || Number(digits) > MAX_APERTURE) {
        return fail("is not an aperture");
      }
      const term: NumberTerm = { kind: "aperture", ...base, comparison, value: Number(digits) };
      return term;
    }
    case "rating": {
      const { comparison, number } = splitComparison(value);
      if (!/^[0-5]$/.test(number)) return fail("is not a rating: 0 (none) to 5 stars");
      const term: RatingTerm = { kind: "rating", ...base, comparison, value: Number(number) };
      return term;
    }
    case "label": {
      const label = value.toLowerCase();
      if (!(SEARCH_LABELS as readonly string[]).includes(label)) return fail(`is not a label: ${SEARCH_LABELS.join(", ")}`);
      const term: LabelTerm = { kind: "label", ...base, value: label as LabelTerm["value"] };
      return term;
    }
    case "year":
    case "date":
      return readDate(field, value, base, fail);
  }
}

function splitComparison(value: string): { comparison: SearchComparison; number: string } {
  const match = /^(<=|>=|<|>|=)?(.*)$/s.exec(value);
  const comparison = (match?.[1] ?? "=") as SearchComparison;
  return { comparison, number: (match?.[2] ?? "").trim() };
}

/** A period [start, end) of whole days, ISO dates; end null past year 9999. */
interface Period {
  start: string;
  end: string | null;
}

function readDate(
  field: "year" | "date",
  value: string,
  base: { raw: string; negated: boolean },
  fail: (what: string) => never,
): DateTerm {
  const what = field === "year" ? "is not a year" : "is not a date";
  const read = (text: string): Period => {
    const period = field === "year" ? yearPeriod(text) : datePeriod(text);
    return period ?? fail(what);
  };

  const range = value.indexOf("..");
  if (range >= 0) {
    const left = value.slice(0, range).trim();
    const right = value.slice(range + 2).trim();
    if (left === "" && right === "") fail(what);
    const from = left === "" ? null : read(left).start;
    const to = right === "" ? null : read(right).end;
    if (from !== null && to !== null && from >= to) fail("ends before it starts");
    return { kind: "date", ...base, from, to };
  }

  const { comparison, number } = splitComparison(value);
  const period = read(number);
  switch (comparison) {
    case "=":
      return { kind: "date", ...base, from: period.start, to: period.end };
    case ">=":
      return { kind: "date", ...base, from: period.start, to: null };
    case ">":
      if (period.end === null) fail("leaves no days after it");
      return { kind: "date", ...base, from: period.end, to: null };
    case "<":
      return { kind: "date", ...base, from: null, to: period.start };
    case "<=":
      return { kind: "date", ...base, from: null, to: period.end };
  }
}

function yearPeriod(text: string): Period | null {
  if (!/^\d{4}$/.test(text)) return null;
  const year = Number(text);
  if (year < 1000) return null;
  return { start: `${text}-01-01`, end: year === 9999 ? null : `${year + 1}-01-01` };
}

function datePeriod(text: string): Period | null {
  const match = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(text);
  if (!match) return null;
  const year = Number(match[1]);
  if (year < 1000) return null;
  if (match[2] === undefined) return yearPeriod(match[1]);
  const month = Number(match[2]);
  if (month < 1 || month > 12) return null;
  if (match[3] === undefined) {
    const end = month === 12 ? (year === 9999 ? null : isoDay(year + 1, 1, 1)) : isoDay(year, month + 1, 1);
    return { start: isoDay(year, month, 1), end };
  }
  const day = Number(match[3]);
  if (day < 1 || day > daysInMonth(year, month)) return null;
  const next = new Date(Date.UTC(year, month - 1, day + 1));
  const end = next.getUTCFullYear() > 9999 ? null : next.toISOString().slice(0, 10);
  return { start: isoDay(year, month, day), end };
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function isoDay(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/**
 * A term as one would type it: `camera:"eos 40d"`, `-tag:beach`, `"red door"`. Used to add a
 * facet's term or rebuild a query; parsing it again gives the same term.
 */
export function formatSearchTerm(term: SearchTerm): string {
  const dash = term.negated ? "-" : "";
  switch (term.kind) {
    case "text":
      return dash + (term.phrase ? `"${term.words.join(" ")}"` : term.words[0]);
    case "substring":
      return `${dash}*${term.value}*`;
    case "person":
    case "tag":
    case "album":
    case "camera":
    case "lens":
    case "place":
      return `${dash}${term.kind}:${quoteIfNeeded(term.value)}`;
    case "orientation":
      return `${dash}orientation:${term.value}`;
    case "iso":
    case "aperture":
      return `${dash}${term.kind === "iso" ? "iso" : "f"}:${term.comparison === "=" ? "" : term.comparison}${term.value}`;
    case "date":
      return `${dash}date:${term.from ?? ""}..${term.to === null ? "" : dayBefore(term.to)}`;
    case "rating":
      return `${dash}rating:${term.comparison === "=" ? "" : term.comparison}${term.value}`;
    case "label":
      return `${dash}label:${term.value}`;
  }
}

function quoteIfNeeded(value: string): string {
  return /[\s"]/u.test(value) || value.startsWith("-") ? `"${value.replaceAll('"', "")}"` : value;
}

function dayBefore(isoDate: string): string {
  const [year, month, day] = isoDate.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, day - 1)).toISOString().slice(0, 10);
}

/** What a chip says: the field's name and the value, for people rather than the parser. */
export function describeSearchTerm(term: SearchTerm): { field: string; value: string } {
  switch (term.kind) {
    case "text":
      return { field: term.phrase ? "Phrase" : "Words", value: term.phrase ? `“${term.words.join(" ")}”` : term.words[0] };
    case "substring":
      return { field: "Contains", value: term.value };
    case "person":
      return { field: "Person", value: term.value };
    case "tag":
      return { field: "Tag", value: term.value };
    case "album":
      return { field: "Album", value: term.value };
    case "camera":
      return { field: "Camera", value: term.value };
    case "lens":
      return { field: "Lens", value: term.value };
    case "place":
      return { field: "Place", value: term.value };
    case "orientation":
      return { field: "Orientation", value: term.value };
    case "iso":
      return { field: "ISO", value: `${comparisonText(term.comparison)}${term.value}` };
    case "aperture":
      return { field: "Aperture", value: `${comparisonText(term.comparison)}f/${term.value}` };
    case "date":
      return { field: "Taken", value: describeDates(term) };
    case "rating":
      return { field: "Rating", value: term.value === 0 && term.comparison === "=" ? "none" : `${comparisonText(term.comparison)}${term.value} ★` };
    case "label":
      return { field: "Label", value: term.value };
  }
}

function comparisonText(comparison: SearchComparison): string {
  return { "=": "", "<": "< ", "<=": "≤ ", ">": "> ", ">=": "≥ " }[comparison];
}

function describeDates(term: DateTerm): string {
  const to = term.to === null ? null : dayBefore(term.to);
  if (term.from && to) {
    const [fromYear, fromRest] = [term.from.slice(0, 4), term.from.slice(4)];
    if (fromRest === "-01-01" && to.endsWith("-12-31")) {
      const toYear = to.slice(0, 4);
      return fromYear === toYear ? fromYear : `${fromYear}–${toYear}`;
    }
    return term.from === to ? term.from : `${term.from} – ${to}`;
  }
  if (term.from) return `from ${term.from}`;
  if (to) return `until ${to}`;
  return "any day";
}

/**
 * The search text without one term: the first token equal to `raw` (at token boundaries) is cut
 * out and the white space around it closed up. Text without that token comes back trimmed.
 */
export function removeSearchTerm(text: string, raw: string): string {
  for (const token of splitTokens(text)) {
    if (token.text === raw) {
      const before = text.slice(0, token.position).trimEnd();
      const after = text.slice(token.position + raw.length).trimStart();
      return before && after ? `${before} ${after}` : before + after;
    }
  }
  return text.trim();
}

/** The search text with one more token at the end, unless the same token is already there. */
export function addSearchTerm(text: string, token: string): string {
  const trimmed = text.trim();
  if (splitTokens(trimmed).some((existing) => existing.text === token)) return trimmed;
  return trimmed === "" ? token : `${trimmed} ${token}`;
}
