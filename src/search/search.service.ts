import "server-only";
import type { Viewer } from "@/src/access/viewer";
import type { DatabaseHandle } from "@/src/db/client";
import { decodeKeysetCursor, encodeKeysetCursor } from "@/src/db/keyset-cursor";
import type { PhotoRow } from "@/src/db/database";
import { AppError } from "@/src/errors/app-error";
import { earlierCameraSlug, slugify } from "@/src/photos/camera-slug";
import { describeCamera } from "@/src/photos/describe-camera";
import { albumListAccessOf } from "@/src/albums/album-access";
import { mayList, type PhotoListAccess, photoListAccessOf } from "@/src/photos/listable-photos";
import { cacheUntilPhotosChange } from "@/src/photos/cache-until-photos-change";
import { listedPlacesOf, ownerNotesScopeOf } from "@/src/photos/metadata-policy";
import { effectivePrecision, placePartsAtPrecision } from "@/src/photos/location-precision";
import { siteLocationPrecision } from "@/src/photos/site-location-precision";
import { signedInUser } from "@/src/access/viewer";
import { countryNameOf } from "@/src/places/country-name";
import { type PhotoSummary, summarizePhotos } from "@/src/photos/photos.service";
import { tagKey, tagNameProblem } from "@/src/tags/tag-name";
import { type PeopleAccess, peopleAccessOf } from "@/src/faces/people-access";
import { resolvePersonTerms, suggestPeople } from "./person-search";
import { foldSearchText } from "./fold-search-text";
import { placeNamesStartingWith, resolvePlaceNames } from "./place-terms";
import type { PlaceNames, PlaceScope, ResolvedSearch } from "./search-query-builder";
import { searchTokensOf } from "./search-query-builder";
import { parseSearchQuery } from "./search-query-parser";
import type { SearchQuery, SearchTerm } from "./search-query.types";
import {
  countFoundPerCamera,
  countFoundPerPerson,
  countFoundPerLens,
  countFoundPerPlace,
  countFoundPerTag,
  countFoundPerYear,
  type FacetCountRow,
  findListableAlbumIds,
  listMatchingDocuments,
  listPlaceGroups,
  type PlaceGroupRow,
  listSlugGroups,
  searchPhotos,
  type SlugGroupRow,
  suggestAlbumsByPrefix,
  suggestTagsByPrefix,
} from "./search.repository";

// Search (issue 15): the photos, facet counts and suggestions for what the viewer types, always cut
// by the viewer's list access (src/photos/listable-photos.ts). The query language is parsed by
// search-query-parser.ts and turned into SQL by search-query-builder.ts.

export interface SearchPage {
  photos: PhotoSummary[];
  nextCursor: string | null;
  query: SearchQuery;
}

export interface SearchFacet {
  label: string;
  count: number;
  /** The term to add, e.g. camera:canon-eos-40d, year:2019, tag:beach, lens:… */
  token: string;
}

/** Each at most 12, biggest first. */
export interface SearchFacets {
  /** Named people the viewer may see (people-access.ts); none for visitors. */
  people: SearchFacet[];
  cameras: SearchFacet[];
  lenses: SearchFacet[];
  years: SearchFacet[];
  tags: SearchFacet[];
  /** Towns, only of photos whose place the viewer may learn. */
  places: SearchFacet[];
}

export interface SearchSuggestion {
  kind: "person" | "tag" | "album" | "camera" | "lens" | "place" | "word";
  label: string;
  /** Replaces the word being typed. */
  token: string;
}

/** The most photos one page answers. */
export const MAX_SEARCH_PAGE = 100;
/** The most suggestions one request answers. */
export const MAX_SEARCH_SUGGESTIONS = 20;

/** The query, or 400 naming the token that could not be read. */
function parseOrThrow(q: string): SearchQuery {
  const parsed = parseSearchQuery(q);
  if (!parsed.ok) throw new AppError("BAD_REQUEST", parsed.error.message);
  return parsed.query;
}

// Cameras and lenses: a small set (one row per slug, visibility, owner and state), remembered until
// photos change in this process (announcePhotosChanged) and for at most REMEMBER_MS, so another
// process's change shows soon. `camera:`/`lens:` values resolve against it (a camera's earlier URL
// name too), and suggestions pick
// from it the ones this viewer may list.
const REMEMBER_MS = 5_000;
const rememberedSlugs = cacheUntilPhotosChange<NamedSlugGroup[]>({ lifetimeMs: REMEMBER_MS, maxEntries: 1 });
// Facets of the whole gallery (empty query) count every listable photo: remembered per access.
const MAX_REMEMBERED_FACETS = 200;
const rememberedFacets = cacheUntilPhotosChange<SearchFacets>({ lifetimeMs: REMEMBER_MS, maxEntries: MAX_REMEMBERED_FACETS });

/** A slug group and, for a camera whose URL name changed, the name it had before (old links and saved searches). */
type NamedSlugGroup = SlugGroupRow & { earlierSlug: string | null };

function slugGroups(db: DatabaseHandle): Promise<NamedSlugGroup[]> {
  return rememberedSlugs.get(db, "slugs", async () =>
    (await listSlugGroups(db)).map((row) => {
      const earlier = row.kind === "camera" ? earlierCameraSlug(row.make, row.label) : null;
      return { ...row, earlierSlug: earlier !== row.slug ? earlier : null };
    }),
  );
}

// Places: the same kind of small set (one row per place, visibility, owner, state and location
// switch), remembered alike. place: values resolve against every stored place (the query then
// keeps only photos whose place the viewer may learn); suggestions offer only places the viewer may learn.
const rememberedPlaces = cacheUntilPhotosChange<PlaceGroupRow[]>({ lifetimeMs: REMEMBER_MS, maxEntries: 1 });

function placeGroups(db: DatabaseHandle): Promise<PlaceGroupRow[]> {
  return rememberedPlaces.get(db, "places", () => listPlaceGroups(db));
}

/**
 * Whose places the viewer may learn, from the metadata policy's one rule for lists (listedPlacesOf),
 * and how precisely: others' photos at their own precision, else the site's default.
 */
async function placeScopeOf(db: DatabaseHandle, viewer: Viewer): Promise<PlaceScope> {
  if (listedPlacesOf(viewer) === "all") return { kind: "all" };
  return { kind: "shown-or-own", viewerId: signedInUser(viewer)?.id ?? null, siteDefault: await siteLocationPrecision(db) };
}

/**
 * The part of a place group this viewer may learn, or null: none for a photo they may not list or
 * whose location is hidden; the town only from city precision up, the region from region precision
 * up (listedPrecisionOf's rule: the viewer's own photos exactly).
 */
function learnablePlace(access: PhotoListAccess, scope: PlaceScope, row: PlaceGroupRow): PlaceGroupRow | null {
  if (!mayList(access, { ...row, trashed_at: null })) return null;
  if (scope.kind === "all" || row.owner_id === scope.viewerId) return row;
  if (row.show_location !== 1) return null;
  return placePartsAtPrecision(row, effectivePrecision(row.location_precision, scope.siteDefault));
}

/** "canon" names every Canon, "eos-40d" the 40D: the value's slug equals a slug or a run of its whole words. */
export function slugMatches(slug: string, value: string): boolean {
  return value.length > 0 && `-${slug}-`.includes(`-${value}-`);
}

/** The slugs and album ids the query's camera:, lens: and album: terms name, and the stored places its place: terms name. */
async function resolveQuery(db: DatabaseHandle, query: SearchQuery, viewer: Viewer): Promise<ResolvedSearch> {
  const places = new Map<SearchTerm, PlaceNames>();
  const placeTerms = query.terms.filter((term) => term.kind === "place");
  if (placeTerms.length > 0) {
    const groups = await placeGroups(db);
    for (const term of placeTerms) places.set(term, resolvePlaceNames(term.value, groups));
  }
  const slugs = new Map<SearchTerm, string[]>();
  const named = query.terms.filter((term) => term.kind === "camera" || term.kind === "lens" || term.kind === "album");
  if (named.some((term) => term.kind !== "album")) {
    const groups = await slugGroups(db);
    for (const term of named) {
      if (term.kind !== "camera" && term.kind !== "lens") continue;
      const value = slugify(term.value);
      const names = (row: NamedSlugGroup) => slugMatches(row.slug, value) || (row.earlierSlug !== null && slugMatches(row.earlierSlug, value));
      slugs.set(term, [...new Set(groups.filter((row) => row.kind === term.kind && names(row)).map((row) => row.slug))].sort());
    }
  }
  for (const term of named) {
    if (term.kind !== "album") continue;
    const names = [...new Set([term.value.trim().toLowerCase(), slugify(term.value)])].filter((name) => name.length > 0);
    slugs.set(term, await findListableAlbumIds(db, names, albumListAccessOf(viewer)));
  }
  await resolvePersonTerms(db, viewer, query.terms, slugs);
  return { terms: query.terms, slugs, ownerNotes: ownerNotesScopeOf(viewer), places, placeScope: await placeScopeOf(db, viewer) };
}

function decodeCursor(cursor: string): { sortAt: string; id: string } {
  const [sortAt, id] = decodeKeysetCursor(cursor, 2);
  return { sortAt, id };
}

/**
 * A page of the photos the query finds that this viewer may list, in gallery order (sort_at desc,
 * id desc), by keyset. An empty query answers the viewer's whole gallery. 400 for a query that
 * cannot be read, naming the token.
 */
export async function searchPhotosForViewer(db: DatabaseHandle, viewer: Viewer, input: { q: string; cursor?: string; limit: number }): Promise<SearchPage> {
  const query = parseOrThrow(input.q);
  const access = photoListAccessOf(viewer);
  const limit = Math.max(1, Math.min(Math.floor(input.limit), MAX_SEARCH_PAGE));
  const after = input.cursor ? decodeCursor(input.cursor) : undefined;
  const resolved = await resolveQuery(db, query, viewer);
  const rows: PhotoRow[] = await searchPhotos(db, { resolved, access, after, limit: limit + 1 });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    photos: await summarizePhotos(db, page),
    nextCursor: rows.length > limit && last ? encodeKeysetCursor(last.sort_at, last.id) : null,
    query,
  };
}

/** A value as a term's value: bare when it is one plain word, quoted otherwise. */
function termValue(value: string): string {
  return /^[^\s"():-][^\s"():]*$/u.test(value) ? value : `"${value.replace(/"/g, "")}"`;
}

function toFacets(rows: FacetCountRow[], token: (row: FacetCountRow) => string, label: (row: FacetCountRow) => string): SearchFacet[] {
  return rows.map((row) => ({ label: label(row), count: row.count, token: token(row) }));
}

async function countFacets(db: DatabaseHandle, resolved: ResolvedSearch, access: PhotoListAccess, people: PeopleAccess): Promise<SearchFacets> {
  const query = { resolved, access };
  const [peopleRows, cameras, lenses, years, tags, places] = await Promise.all([
    countFoundPerPerson(db, { ...query, people }),
    countFoundPerCamera(db, query),
    countFoundPerLens(db, query),
    countFoundPerYear(db, query),
    countFoundPerTag(db, query),
    countFoundPerPlace(db, { ...query, placeScope: resolved.placeScope }),
  ]);
  return {
    people: toFacets(peopleRows, (row) => `person:${termValue(row.value)}`, (row) => row.label ?? row.value),
    cameras: toFacets(cameras, (row) => `camera:${row.value}`, (row) => describeCamera(row.make, row.label) ?? row.value),
    lenses: toFacets(lenses, (row) => `lens:${row.value}`, (row) => row.label ?? row.value),
    years: toFacets(years, (row) => `year:${row.value}`, (row) => row.value),
    tags: toFacets(tags, (row) => `tag:${termValue(row.value)}`, (row) => row.label ?? row.value),
    places: toFacets(places, (row) => `place:${termValue(row.value)}`, (row) => placeLabel(row.value, row.make)),
  };
}

/** "Rome, Italy": a town and its country (countFoundPerPlace hands the country code as `make`). */
function placeLabel(city: string, countryCode: string | null): string {
  const country = countryCode === null ? null : countryNameOf(countryCode);
  return country === null ? city : `${city}, ${country}`;
}

/**
 * How many of the photos the query finds (for this viewer) each camera, lens, year, tag and town has, at
 * most 12 each, biggest first. The whole gallery's (empty query) are remembered per access until
 * photos change.
 */
export async function facetSearchForViewer(db: DatabaseHandle, viewer: Viewer, input: { q: string }): Promise<SearchFacets> {
  const query = parseOrThrow(input.q);
  const access = photoListAccessOf(viewer);
  const people = await peopleAccessOf(db, viewer);
  if (query.terms.length > 0) return countFacets(db, await resolveQuery(db, query, viewer), access, people);
  const placeScope = await placeScopeOf(db, viewer);
  const key = `${[...access.visibilities].sort().join(",")}|${access.viewerId ?? ""}|${placeScope.kind === "all" ? "all" : placeScope.siteDefault}|${people.kind}`;
  return rememberedFacets.get(db, key, () => countFacets(db, { terms: [], slugs: new Map(), ownerNotes: { kind: "nobody" }, places: new Map(), placeScope }, access, people));
}

/** How many photos' text a word suggestion reads at most. */
const SUGGESTION_DOCUMENTS = 50;

/** Words of the documents starting with `prefix`, most frequent first. */
function wordsStartingWith(documents: string[], prefix: string): string[] {
  const counts = new Map<string, number>();
  for (const document of documents) {
    for (const word of new Set(searchTokensOf(document))) {
      if (word.startsWith(prefix)) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  return [...counts].sort((left, right) => right[1] - left[1] || (left[0] < right[0] ? -1 : 1)).map(([word]) => word);
}

/**
 * Suggestions for the last word of `q` (what is being typed): tags, albums, cameras and lenses the
 * viewer may list, and words of photos the viewer may list, each by prefix (accents and case
 * ignored), at most `limit`; after `place:`, towns, regions and countries of photos the viewer may
 * list and whose place they may learn. `tag:be` suggests only tags, `camera:ca` only cameras, and
 * so on; a leading `-` is kept on each token. Nothing when the text ends with a space, or for a
 * substring (`*ton`).
 */
export async function suggestSearchForViewer(db: DatabaseHandle, viewer: Viewer, input: { q: string; limit: number }): Promise<SearchSuggestion[]> {
  const limit = Math.max(1, Math.min(Math.floor(input.limit), MAX_SEARCH_SUGGESTIONS));
  if (input.q.length === 0 || /\s$/u.test(input.q)) return [];
  const last = input.q.split(/\s+/u).pop() ?? "";
  const negation = last.startsWith("-") ? "-" : "";
  const word = last.slice(negation.length).replace(/^"/, "");
  const field = /^(person|tag|album|camera|lens|place):(.*)$/iu.exec(word);
  const kind = field ? (field[1].toLowerCase() as "person" | "tag" | "album" | "camera" | "lens" | "place") : null;
  const prefix = (field ? field[2] : word).replace(/^"/, "");
  // A substring being typed (*ton) is not the start of a word: offering words by prefix would replace it.
  if (!field && prefix.startsWith("*")) return [];
  if (foldSearchText(prefix).trim().length === 0) return [];
  const access = photoListAccessOf(viewer);
  const suggestions: SearchSuggestion[] = [];
  const wants = (each: SearchSuggestion["kind"]) => (kind === null || kind === each) && suggestions.length < limit;

  if (wants("person")) suggestions.push(...(await suggestPeople(db, viewer, prefix, negation, limit)));

  if (wants("tag") && tagNameProblem(prefix) === null) {
    for (const tag of await suggestTagsByPrefix(db, tagKey(prefix), access, limit)) {
      suggestions.push({ kind: "tag", label: tag.name, token: `${negation}tag:${termValue(tag.key)}` });
    }
  }
  const slugPrefix = slugify(prefix);
  if (wants("album") && slugPrefix.length > 0) {
    for (const album of await suggestAlbumsByPrefix(db, slugPrefix, albumListAccessOf(viewer), limit)) {
      suggestions.push({ kind: "album", label: album.title, token: `${negation}album:${album.slug}` });
    }
  }
  if ((wants("camera") || wants("lens")) && slugPrefix.length > 0) {
    const seen = new Set<string>();
    for (const row of await slugGroups(db)) {
      const key = `${row.kind}:${row.slug}`;
      if (!wants(row.kind) || seen.has(key) || !mayList(access, { ...row, trashed_at: null })) continue;
      if (!row.slug.split("-").some((part, index, parts) => parts.slice(index).join("-").startsWith(slugPrefix))) continue;
      seen.add(key);
      const label = row.kind === "camera" ? (describeCamera(row.make, row.label) ?? row.slug) : (row.label ?? row.slug);
      suggestions.push({ kind: row.kind, label, token: `${negation}${row.kind}:${row.slug}` });
    }
  }
  // Places only after place: (a bare word offers the words of photos): the remembered set of places
  // is read by every place: search anyway, and `rom` suggesting "Rome" as a word would be a guess.
  if (kind === "place" && wants("place")) {
    const scope = await placeScopeOf(db, viewer);
    const learnable = (await placeGroups(db)).flatMap((row) => learnablePlace(access, scope, row) ?? []);
    for (const name of placeNamesStartingWith(prefix, learnable, limit)) {
      suggestions.push({ kind: "place", label: name, token: `${negation}place:${termValue(name)}` });
    }
  }
  const tokens = searchTokensOf(prefix);
  if (wants("word") && tokens.length === 1) {
    for (const each of wordsStartingWith(await listMatchingDocuments(db, tokens[0], access, SUGGESTION_DOCUMENTS), tokens[0])) {
      suggestions.push({ kind: "word", label: each, token: `${negation}${each}` });
    }
  }
  return suggestions.slice(0, limit);
}
