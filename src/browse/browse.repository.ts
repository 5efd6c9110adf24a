import { type ExpressionBuilder, sql } from "kysely";
import type { DatabaseHandle } from "@/src/db/client";
import type { Database, PhotoRow, Visibility } from "@/src/db/database";
import { type PhotoListAccess, whereListablePhotos } from "@/src/photos/listable-photos";
import { mergePhotoRanges } from "@/src/photos/merge-photo-ranges";

// SQL for browsing by camera, lens and year, one statement per function, the handle first. No
// rules: which photos a viewer may list is the access handed in (src/photos/listable-photos.ts),
// decided by src/browse/browse.service.ts.

/** What a browse page lists: one camera's or lens's photos (by slug), or one year's (by sort_at). */
export type BrowseFilter = { kind: "camera"; slug: string } | { kind: "lens"; slug: string } | { kind: "year"; year: number };

const EVERY_VISIBILITY: Visibility[] = ["public", "unlisted", "members", "private"];

/** The first sort_at of a year and of the next: sort_at is ISO 8601 text ("2019-05-03T…"), so a year is a string range. */
function yearBounds(year: number): [string, string] {
  return [String(year).padStart(4, "0"), String(year + 1).padStart(4, "0")];
}

function whereFilter<TB extends "photos">(eb: ExpressionBuilder<Database, TB>, filter: BrowseFilter) {
  const photos = eb as unknown as ExpressionBuilder<Database, "photos">;
  if (filter.kind === "camera") return photos("photos.camera_slug", "=", filter.slug);
  if (filter.kind === "lens") return photos("photos.lens_slug", "=", filter.slug);
  const [from, to] = yearBounds(filter.year);
  return photos.and([photos("photos.sort_at", ">=", from), photos("photos.sort_at", "<", to)]);
}

/**
 * The visibilities whose index range can hold a photo the access lets through: those it lists, and
 * every other one when someone is signed in who has photos of their own there (`ownPhotos`).
 */
function rangeVisibilities(access: PhotoListAccess, ownPhotos: boolean): Visibility[] {
  return access.viewerId !== null && ownPhotos ? EVERY_VISIBILITY : EVERY_VISIBILITY.filter((each) => access.visibilities.includes(each));
}

function selectRange(db: DatabaseHandle, visibility: Visibility, query: BrowsePhotosQuery) {
  const after = query.after;
  return db
    .selectFrom("photos")
    .selectAll()
    // Equality on the index's first columns ((camera_slug|lens_slug, visibility) or visibility),
    // then (sort_at, id) in order: a page stops after `limit` rows whatever the library's size.
    .where((eb) => whereFilter(eb, query.filter))
    .where("visibility", "=", visibility)
    .where((eb) => whereListablePhotos(eb, query.access))
    .$if(after !== undefined, (select) => select.where((eb) => eb(eb.refTuple("sort_at", "id"), "<", eb.tuple(after!.sortAt, after!.id))))
    .orderBy("sort_at", "desc")
    .orderBy("id", "desc")
    .limit(query.limit);
}

export interface BrowsePhotosQuery {
  filter: BrowseFilter;
  access: PhotoListAccess;
  /**
   * Whether the viewer may have photos of their own here beyond the listed visibilities (unlisted,
   * private or unfinished): only then are the other visibilities' ranges read too, since those
   * walk everyone's rows of that visibility to find the viewer's. True when unsure.
   */
  ownPhotos: boolean;
  /** The row to start after, in gallery order. */
  after?: { sortAt: string; id: string };
  limit: number;
}

/**
 * A page of the camera's, lens's or year's photos the access lets through, in gallery order (newest
 * first). One index range per visibility, each cut to `limit` rows, merged: the accessRanges idea of
 * src/photos/photos.repository.ts, so the thousandth page costs what the first does.
 */
export async function listBrowsePhotos(db: DatabaseHandle, query: BrowsePhotosQuery): Promise<PhotoRow[]> {
  const ranges = rangeVisibilities(query.access, query.ownPhotos).map((visibility) => selectRange(db, visibility, query));
  return mergePhotoRanges(db, ranges, query.limit);
}

/**
 * Which photos a count covers. `shared`: the finished photos of these visibilities outside the trash
 * (what everyone of one kind of viewer may list). `own`: the owner's photos outside the trash that
 * `shared` with `sharedVisibilities` leaves out (another visibility, or not finished yet). The two
 * never overlap, and together they are exactly whereListablePhotos.
 */
export type BrowseCountScope = { kind: "shared"; visibilities: Visibility[] } | { kind: "own"; ownerId: string; sharedVisibilities: Visibility[] };

/** One group of a count: a camera (its slug and the EXIF words of that make and model), a lens, or a year. */
export interface BrowseCountRow {
  key: string;
  /** The EXIF words behind the key: make and model for cameras, the lens text for lenses; null for years. */
  make: string | null;
  model: string | null;
  lens: string | null;
  count: number;
  /** The newest photo's sort_at in the group: which group holds the newest photo. */
  newest: string;
}

export type BrowseCountKind = "camera" | "lens" | "year";

function whereScope(eb: ExpressionBuilder<Database, "photos">, scope: BrowseCountScope) {
  if (scope.kind === "shared") {
    return eb.and([eb("photos.trashed_at", "is", null), eb("photos.status", "=", "ready"), eb("photos.visibility", "in", scope.visibilities)]);
  }
  const shared = scope.sharedVisibilities.length > 0 ? eb.and([eb("photos.status", "=", "ready"), eb("photos.visibility", "in", scope.sharedVisibilities)]) : eb.lit(false);
  return eb.and([eb("photos.trashed_at", "is", null), eb("photos.owner_id", "=", scope.ownerId), eb.not(shared)]);
}

/**
 * How many photos of the scope each camera, lens or year has (read once per scope and remembered by
 * the service: this reads every photo of the scope). Cameras and lenses come back once per spelling
 * of their EXIF words, so the service can name each slug by its commonest spelling.
 */
export async function countBrowsePhotos(db: DatabaseHandle, kind: BrowseCountKind, scope: BrowseCountScope): Promise<BrowseCountRow[]> {
  if (scope.kind === "shared" && scope.visibilities.length === 0) return [];
  const base = db.selectFrom("photos").where((eb) => whereScope(eb, scope));
  const newest = sql<string>`max(${sql.ref("photos.sort_at")})`.as("newest");
  const count = sql<string | number>`count(*)`.as("count");
  if (kind === "year") {
    const year = sql<string>`substr(${sql.ref("photos.sort_at")}, 1, 4)`;
    const rows = await base.select([year.as("key"), count, newest]).groupBy(year).execute();
    return rows.map((row) => ({ key: row.key, make: null, model: null, lens: null, count: Number(row.count), newest: row.newest }));
  }
  if (kind === "camera") {
    const rows = await base
      .select(["photos.camera_slug as key", "photos.camera_make as make", "photos.camera_model as model", count, newest])
      .where("photos.camera_slug", "is not", null)
      .groupBy(["photos.camera_slug", "photos.camera_make", "photos.camera_model"])
      .execute();
    return rows.map((row) => ({ key: row.key as string, make: row.make, model: row.model, lens: null, count: Number(row.count), newest: row.newest }));
  }
  const rows = await base
    .select(["photos.lens_slug as key", "photos.lens as lens", count, newest])
    .where("photos.lens_slug", "is not", null)
    .groupBy(["photos.lens_slug", "photos.lens"])
    .execute();
  return rows.map((row) => ({ key: row.key as string, make: null, model: null, lens: row.lens, count: Number(row.count), newest: row.newest }));
}
