import "server-only";
import type { Viewer } from "@/src/access/viewer";
import type { DatabaseHandle } from "@/src/db/client";
import type { PhotoRow } from "@/src/db/database";
import { decodeKeysetCursor, encodeKeysetCursor } from "@/src/db/keyset-cursor";
import { AppError } from "@/src/errors/app-error";
import { earlierCameraSlug, slugify } from "@/src/photos/camera-slug";
import { describeCamera, usualMakerName } from "@/src/photos/describe-camera";
import { type PhotoListAccess, photoListAccessOf } from "@/src/photos/listable-photos";
import { cacheUntilPhotosChange } from "@/src/photos/cache-until-photos-change";
import { type PhotoSummary, summarizePhotos } from "@/src/photos/photos.service";
import { type BrowseCountKind, type BrowseCountRow, type BrowseFilter, countBrowsePhotos, listBrowsePhotos } from "./browse.repository";
import { type BrowseKind, browsePath, parseBrowseYear, UNKNOWN_YEAR_KEY, UNKNOWN_YEAR_NAME } from "./browse-paths";

// Browsing by camera, lens and year: the rules. Every list and count goes through the one list
// access (src/photos/listable-photos.ts) of the viewer asking, so a camera, lens or year whose only
// photos the viewer may not list does not exist for them (404, and no entry on the index pages).

/** One entry of /cameras, /lenses or /years: what it is called, how many photos, and its newest photo. */
export interface BrowseEntry {
  kind: BrowseKind;
  /** The slug, or the year as four digits. */
  key: string;
  /** The EXIF words (the commonest spelling behind the slug), or the year. */
  name: string;
  /** Cameras: the maker, as a heading to group by ("Canon", "Nikon"); null for lenses and years. */
  group: string | null;
  /** Where its page is. */
  path: string;
  count: number;
  /** The newest photo the viewer may list, for the card. */
  cover: PhotoSummary | null;
}

/** A page of one camera's, lens's or year's photos. */
export interface BrowsePage {
  kind: BrowseKind;
  key: string;
  name: string;
  path: string;
  /** How many photos the viewer may list there (from the remembered counts). */
  count: number;
  photos: PhotoSummary[];
  nextCursor: string | null;
}

export const BROWSE_PAGE_SIZE = 30;
const MAXIMUM_PAGE_SIZE = 100;

// Counts read every photo of a scope, so they are remembered (as /tags remembers its counts): one
// entry per kind of viewer for the photos they all share (visitors: public; members: public and
// members; admins: all), one per signed-in user for their own photos outside that; and each
// viewer's covers. Dropped at once when photos change in this process; another process's change
// shows within REMEMBER_MS.
const REMEMBER_MS = 5_000;
const MAXIMUM_REMEMBERED = 1_000;
// Counts and covers share one cache; each key holds one kind of value, so the cast below is sound.
const remembered = cacheUntilPhotosChange<unknown>({ lifetimeMs: REMEMBER_MS, maxEntries: MAXIMUM_REMEMBERED });

function remember<T>(db: DatabaseHandle, key: string, load: () => Promise<T>): Promise<T> {
  return remembered.get(db, key, load) as Promise<T>;
}

function accessKey(access: PhotoListAccess): string {
  return `${[...access.visibilities].sort().join(",")}:${access.viewerId ?? ""}:${access.ownPhotos}`;
}

/**
 * The counts a viewer of this access may see, per key: the shared part's and, when signed in, their
 * own photos' on top (`own`: the keys where they have photos outside the shared part).
 */
async function countsFor(db: DatabaseHandle, kind: BrowseCountKind, access: PhotoListAccess): Promise<{ rows: BrowseCountRow[]; own: Set<string> }> {
  const sharedKey = `count:${kind}:shared:${[...access.visibilities].sort().join(",")}`;
  const [sharedRows, ownRows] = await Promise.all([
    remember(db, sharedKey, () => countBrowsePhotos(db, kind, { part: "shared", access })),
    access.viewerId !== null ? remember(db, `count:${kind}:own:${accessKey(access)}`, () => countBrowsePhotos(db, kind, { part: "own", access })) : Promise.resolve([]),
  ]);
  return { rows: [...sharedRows, ...ownRows], own: new Set(ownRows.map((row) => row.key)) };
}

/** "Nikon" for NIKON CORPORATION, "Canon" for Canon Inc.; short all-capital makers (DJI, LG) stay as they are. */
export function makerOf(make: string | null): string {
  return make?.trim() ? usualMakerName(make) : "Other";
}

interface MergedGroup {
  key: string;
  count: number;
  newest: string;
  /** Each spelling's count, to name the slug by the commonest. */
  spellings: Map<string, { count: number; make: string | null; name: string }>;
}

function nameOf(kind: BrowseCountKind, row: BrowseCountRow): string {
  if (kind === "camera") return describeCamera(row.make, row.model) ?? row.key;
  if (kind === "lens") return row.lens?.trim() || row.key;
  return row.key === UNKNOWN_YEAR_KEY ? UNKNOWN_YEAR_NAME : row.key;
}

function mergeCounts(kind: BrowseCountKind, rows: BrowseCountRow[]): MergedGroup[] {
  const groups = new Map<string, MergedGroup>();
  for (const row of rows) {
    const group = groups.get(row.key) ?? { key: row.key, count: 0, newest: row.newest, spellings: new Map() };
    group.count += row.count;
    if (row.newest > group.newest) group.newest = row.newest;
    const name = nameOf(kind, row);
    const spelling = group.spellings.get(name) ?? { count: 0, make: row.make, name };
    spelling.count += row.count;
    group.spellings.set(name, spelling);
    groups.set(row.key, group);
  }
  return [...groups.values()];
}

function commonestSpelling(group: MergedGroup): { make: string | null; name: string } {
  return [...group.spellings.values()].sort((left, right) => right.count - left.count || (left.name < right.name ? -1 : 1))[0];
}

function filterOf(kind: BrowseKind, key: string): BrowseFilter {
  if (kind === "year") return { kind, year: key === UNKNOWN_YEAR_KEY ? null : Number(key) };
  return { kind, slug: key };
}

function byText(left: string, right: string): number {
  return left.localeCompare(right, "en", { sensitivity: "base", numeric: true });
}

/**
 * Every camera, lens or year with at least one photo this viewer may list, with how many and its
 * newest photo: cameras by maker then name, lenses by name, years newest first.
 */
export async function listBrowseEntries(db: DatabaseHandle, viewer: Viewer, kind: BrowseKind): Promise<BrowseEntry[]> {
  const access = photoListAccessOf(viewer);
  const counts = await countsFor(db, kind, access);
  // A year a camera's clock got wrong beyond what /years/[year] shows (0000, 1601) has no page to link to.
  const groups = mergeCounts(kind, counts.rows).filter((group) => kind !== "year" || group.key === UNKNOWN_YEAR_KEY || parseBrowseYear(group.key) !== null);
  const covers = await remember(db, `covers:${kind}:${accessKey(access)}`, async () => {
    const rows = new Map<string, PhotoRow>();
    for (const group of groups) {
      const [cover] = await listBrowsePhotos(db, { filter: filterOf(kind, group.key), access, ownPhotos: counts.own.has(group.key), limit: 1 });
      if (cover) rows.set(group.key, cover);
    }
    return rows;
  });
  const summaries = new Map((await summarizePhotos(db, [...covers.values()])).map((summary) => [summary.id, summary]));
  const entries = groups.map((group): BrowseEntry => {
    const spelling = commonestSpelling(group);
    const cover = covers.get(group.key);
    return {
      kind,
      key: group.key,
      name: spelling.name,
      group: kind === "camera" ? makerOf(spelling.make) : null,
      path: browsePath(kind, group.key),
      count: group.count,
      cover: cover ? (summaries.get(cover.id) ?? null) : null,
    };
  });
  // Years newest first, and the photos of no known date after them all.
  if (kind === "year") return entries.sort((left, right) => Number(left.key === UNKNOWN_YEAR_KEY) - Number(right.key === UNKNOWN_YEAR_KEY) || (left.key < right.key ? 1 : -1));
  return entries.sort((left, right) => byText(left.group ?? "", right.group ?? "") || byText(left.name, right.name));
}

function decodeCursor(cursor: string): { sortAt: string; id: string } {
  const [sortAt, id] = decodeKeysetCursor(cursor, 2);
  return { sortAt, id };
}

/** The key a page's address names, as the database holds it; null when it can name nothing. */
export function canonicalBrowseKey(kind: BrowseKind, segment: string): string | null {
  if (kind === "year") {
    if (segment === UNKNOWN_YEAR_KEY) return UNKNOWN_YEAR_KEY;
    const year = parseBrowseYear(segment);
    return year === null ? null : String(year);
  }
  return slugify(segment) || null;
}

/**
 * The camera's URL name now, when `key` is the one it had before company words were dropped
 * (earlierCameraSlug) and this viewer may list one of its photos; null otherwise. From the
 * viewer's remembered counts, so an old link costs no table scan.
 */
export async function findRenamedCamera(db: DatabaseHandle, viewer: Viewer, key: string): Promise<string | null> {
  const { rows } = await countsFor(db, "camera", photoListAccessOf(viewer));
  const renamed = rows.find((row) => row.key !== key && earlierCameraSlug(row.make, row.model) === key);
  return renamed?.key ?? null;
}

/**
 * A page of the camera's, lens's or year's photos this viewer may list, in gallery order, with its
 * name and count. 404 when the key names nothing (not a slug, a year out of range), or nothing
 * this viewer may list: a camera nobody may show them looks like no camera.
 */
export async function getBrowsePage(db: DatabaseHandle, viewer: Viewer, kind: BrowseKind, key: string, options: { cursor?: string; limit?: number } = {}): Promise<BrowsePage> {
  const canonical = canonicalBrowseKey(kind, key);
  const notFound = new AppError("NOT_FOUND", kind === "year" ? (key === UNKNOWN_YEAR_KEY ? "No photos without a date." : "No photos from that year.") : `No ${kind} has that name.`);
  if (canonical === null || canonical !== key) throw notFound;
  const access = photoListAccessOf(viewer);
  const counts = await countsFor(db, kind, access);
  const group = mergeCounts(kind, counts.rows).find((each) => each.key === canonical);
  const limit = Math.max(1, Math.min(Math.floor(options.limit ?? BROWSE_PAGE_SIZE), MAXIMUM_PAGE_SIZE));
  const rows = await listBrowsePhotos(db, {
    filter: filterOf(kind, canonical),
    access,
    // Counts remembered in this process are dropped when photos change here; another process's new
    // photo of the viewer's own shows within REMEMBER_MS, as its count does.
    ownPhotos: counts.own.has(canonical),
    after: options.cursor ? decodeCursor(options.cursor) : undefined,
    limit: limit + 1,
  });
  if (rows.length === 0 && !options.cursor) throw notFound;
  const page = rows.slice(0, limit);
  return {
    kind,
    key: canonical,
    name: group ? commonestSpelling(group).name : canonical === UNKNOWN_YEAR_KEY ? UNKNOWN_YEAR_NAME : canonical,
    path: browsePath(kind, canonical),
    // Remembered counts may lag another process's change by a few seconds; never below what is shown.
    count: Math.max(group?.count ?? 0, page.length),
    photos: await summarizePhotos(db, page),
    nextCursor: rows.length > limit ? encodeKeysetCursor(page[page.length - 1].sort_at, page[page.length - 1].id) : null,
  };
}
