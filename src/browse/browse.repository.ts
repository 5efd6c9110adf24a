import { type ExpressionBuilder, sql } from "kysely";
import type { DatabaseHandle } from "@/src/db/client";
import type { Database, PhotoRow } from "@/src/db/database";
import { listablePhotoRanges, type PhotoListAccess, type PhotoRange, whereInRange, whereListablePart } from "@/src/photos/listable-photos";
import { mergePhotoRanges } from "@/src/photos/merge-photo-ranges";
import { UNKNOWN_YEAR_KEY } from "./browse-paths";

// SQL for browsing by camera, lens and year, one statement per function, the handle first. No
// rules: which photos a viewer may list is the access handed in (src/photos/listable-photos.ts),
// decided by src/browse/browse.service.ts.

/**
 * What a browse page lists: one camera's or lens's photos (by slug), or one year's (by sort_at,
 * which is the date taken when it is known), or (`year: null`) those whose date taken is unknown.
 */
export type BrowseFilter = { kind: "camera"; slug: string } | { kind: "lens"; slug: string } | { kind: "year"; year: number | null };

/** The first sort_at of a year and of the next: sort_at is ISO 8601 text ("2019-05-03T…"), so a year is a string range. */
function yearBounds(year: number): [string, string] {
  return [String(year).padStart(4, "0"), String(year + 1).padStart(4, "0")];
}

function whereFilter<TB extends "photos">(eb: ExpressionBuilder<Database, TB>, filter: BrowseFilter) {
  const photos = eb as unknown as ExpressionBuilder<Database, "photos">;
  if (filter.kind === "camera") return photos("photos.camera_slug", "=", filter.slug);
  if (filter.kind === "lens") return photos("photos.lens_slug", "=", filter.slug);
  // Without a date taken, sort_at is the upload time: such a photo is of no year.
  if (filter.year === null) return photos("photos.taken_at", "is", null);
  const [from, to] = yearBounds(filter.year);
  return photos.and([photos("photos.sort_at", ">=", from), photos("photos.sort_at", "<", to), photos("photos.taken_at", "is not", null)]);
}

function selectRange(db: DatabaseHandle, access: PhotoListAccess, range: PhotoRange, query: BrowsePhotosQuery) {
  const after = query.after;
  return db
    .selectFrom("photos")
    .selectAll()
    // Equality on the index's first columns ((camera_slug|lens_slug, visibility) or visibility, or
    // the owner's), then (sort_at, id) in order: a page stops after `limit` rows whatever the library's size.
    .where((eb) => whereFilter(eb, query.filter))
    .where((eb) => whereInRange(eb, access, range))
    .$if(after !== undefined, (select) => select.where((eb) => eb(eb.refTuple("sort_at", "id"), "<", eb.tuple(after!.sortAt, after!.id))))
    .orderBy("sort_at", "desc")
    .orderBy("id", "desc")
    .limit(query.limit);
}

export interface BrowsePhotosQuery {
  filter: BrowseFilter;
  access: PhotoListAccess;
  /**
   * Whether the viewer may have photos of their own here beyond what everyone of their kind lists
   * (unlisted, private or unfinished: the "own" part of the counts): only then are their own ranges
   * read. True when unsure.
   */
  ownPhotos: boolean;
  /** The row to start after, in gallery order. */
  after?: { sortAt: string; id: string };
  limit: number;
}

/**
 * A page of the camera's, lens's or year's photos the access lets through, in gallery order (newest
 * first). The list rule's index ranges (src/photos/listable-photos.ts), each cut to `limit` rows,
 * merged, so the thousandth page costs what the first does.
 */
export async function listBrowsePhotos(db: DatabaseHandle, query: BrowsePhotosQuery): Promise<PhotoRow[]> {
  // Without photos of their own beyond the shared part here, the viewer lists exactly what everyone
  // of their kind does: their own ranges would only walk rows to find nothing.
  const access = query.ownPhotos ? query.access : { ...query.access, viewerId: null };
  const ranges = listablePhotoRanges(access).map((range) => selectRange(db, access, range, query));
  return mergePhotoRanges(db, ranges, query.limit);
}

/**
 * Which photos a count covers: the part of the list rule everyone with these visibilities shares
 * (`shared`), or what only the viewer lists on top (`own`); the two never overlap, and together
 * they are exactly whereListablePhotos (whereListablePart, src/photos/listable-photos.ts).
 */
export interface BrowseCountScope {
  part: "shared" | "own";
  access: PhotoListAccess;
}

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

/**
 * How many photos of the scope each camera, lens or year has (read once per scope and remembered by
 * the service: this reads every photo of the scope). Cameras and lenses come back once per spelling
 * of their EXIF words, so the service can name each slug by its commonest spelling.
 */
export async function countBrowsePhotos(db: DatabaseHandle, kind: BrowseCountKind, scope: BrowseCountScope): Promise<BrowseCountRow[]> {
  const base = db.selectFrom("photos").where((eb) => whereListablePart(eb, scope.access, scope.part));
  const newest = sql<string>`max(${sql.ref("photos.sort_at")})`.as("newest");
  const count = sql<string | number>`count(*)`.as("count");
  if (kind === "year") {
    // The key the service reads: the year of the date taken, or UNKNOWN_YEAR_KEY without one.
    const year = sql<string>`case when ${sql.ref("photos.taken_at")} is null then ${sql.lit(UNKNOWN_YEAR_KEY)} else substr(${sql.ref("photos.sort_at")}, 1, 4) end`;
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
