import type { ExpressionBuilder } from "kysely";
import { type SessionUser, signedInUser, type Viewer } from "@/src/access/viewer";
import { type Database, type PhotoRow, type PhotoStatus, VISIBILITIES, type Visibility } from "@/src/db/database";
import { listableVisibilities } from "@/src/photos/photo-access";

// The one rule for "which photos may this list show", in three forms that must agree (checked
// case by case on both databases by tests/photo-list-access.test.ts):
//
// - `mayList`: plain TypeScript, for code that holds rows already;
// - `whereListablePhotos`: the same rule as a Kysely condition on `photos`;
// - `listablePhotoRanges` + `whereInRange`: the rule split into index ranges that do not overlap,
//   each walking an index in gallery order, for keyset pages (see mergePhotoRanges).
//
// The rule: never a photo in the trash (not even to its owner); others' photos only when finished
// and of a visibility the viewer may list (public for visitors; public and members for signed-in
// users; every visibility for admins); the viewer's own photos whatever their visibility, in any
// state or only finished ones as the caller says. Every page of the gallery (the gallery itself,
// albums, tags, browse, search) asks it with the same viewer and gets the same answer; admins see
// others' unfinished photos in the library only, never on these pages.

/** Which photos of a kind a list shows: in any state, or only finished ones. */
export type PhotoStates = "any-state" | "finished";

export interface PhotoListAccess {
  /** Others' photos of these visibilities are listed. */
  visibilities: readonly Visibility[];
  /** Whose photos are listed whatever their visibility (null: nobody's). */
  viewerId: string | null;
  /** Which of `viewerId`'s photos: in any state (the gallery, pages, search), or only finished (previous/next on a photo's page). */
  ownPhotos: PhotoStates;
  /**
   * Which of others' photos: only finished (every list a viewer reads), or in any state (only what
   * an admin may change: the photos of an album they share). Unset: finished.
   */
  othersPhotos?: PhotoStates;
}

const EVERY_VISIBILITY: readonly Visibility[] = VISIBILITIES;
const UNFINISHED: readonly PhotoStatus[] = ["processing", "failed"];

/** What this viewer may list. `ownPhotos` defaults to "any-state": the viewer sees their own photos as soon as they are uploaded. */
export function photoListAccessOf(viewer: Viewer, options: { ownPhotos?: PhotoStates } = {}): PhotoListAccess {
  return { visibilities: listableVisibilities(viewer), viewerId: signedInUser(viewer)?.id ?? null, ownPhotos: options.ownPhotos ?? "any-state" };
}

/**
 * The photos a user may change, as a list: an editor's own in any state; every photo in any state
 * for an admin (a share made from an album holds what its maker may share, finished or not yet).
 */
export function editablePhotosAccessOf(user: SessionUser): PhotoListAccess {
  if (user.role === "admin") return { visibilities: EVERY_VISIBILITY, viewerId: user.id, ownPhotos: "any-state", othersPhotos: "any-state" };
  return { visibilities: [], viewerId: user.id, ownPhotos: "any-state" };
}

/** What the anonymous visitor may list: feeds, the sitemap, OG images and oEmbed use only this. */
export const PUBLIC_LIST_ACCESS: PhotoListAccess = Object.freeze({ visibilities: Object.freeze(["public"]), viewerId: null, ownPhotos: "finished" }) as PhotoListAccess;

/**
 * What a share link's visitor may list among the photos the link holds: the link is the grant, so
 * every visibility, but only finished photos outside the trash.
 */
export const SHARE_LINK_ACCESS: PhotoListAccess = Object.freeze({ visibilities: EVERY_VISIBILITY, viewerId: null, ownPhotos: "finished" }) as PhotoListAccess;

function listsEveryVisibility(access: PhotoListAccess): boolean {
  return EVERY_VISIBILITY.every((each) => access.visibilities.includes(each));
}

/** The photo's fields the rule reads. */
export type ListablePhotoFields = Pick<PhotoRow, "owner_id" | "visibility" | "status" | "trashed_at">;

/** The rule in plain TypeScript: whether a list for this access may show the photo. */
export function mayList(access: PhotoListAccess, photo: ListablePhotoFields): boolean {
  if (photo.trashed_at !== null) return false;
  if (photo.owner_id === access.viewerId) return access.ownPhotos === "any-state" || photo.status === "ready";
  return (photo.status === "ready" || access.othersPhotos === "any-state") && access.visibilities.includes(photo.visibility);
}

type PhotosScope = ExpressionBuilder<Database, "photos">;

/** Others' part of the rule, trash aside: of the listed visibilities, finished unless said otherwise. */
function othersListed(photos: PhotosScope, access: PhotoListAccess) {
  if (access.visibilities.length === 0) return photos.lit(false);
  const conditions = [];
  if (!listsEveryVisibility(access)) conditions.push(photos("photos.visibility", "in", [...access.visibilities]));
  if (access.othersPhotos !== "any-state") conditions.push(photos("photos.status", "=", "ready"));
  return conditions.length === 0 ? photos.lit(true) : photos.and(conditions);
}

/** The viewer's own part of the rule, trash aside. */
function ownListed(photos: PhotosScope, access: PhotoListAccess) {
  if (access.viewerId === null) return photos.lit(false);
  const owned = photos("photos.owner_id", "=", access.viewerId);
  return access.ownPhotos === "finished" ? photos.and([owned, photos("photos.status", "=", "ready")]) : owned;
}

/** The rule as a condition on `photos` (fully qualified, so joins may add other tables), for any query that lists or counts photos. */
export function whereListablePhotos<DB extends Database, TB extends keyof DB & "photos">(eb: ExpressionBuilder<DB, TB>, access: PhotoListAccess) {
  const photos = eb as unknown as PhotosScope;
  const mine = access.viewerId === null ? [] : [ownListed(photos, access)];
  return photos.and([photos("photos.trashed_at", "is", null), photos.or([othersListed(photos, access), ...mine])]);
}

/**
 * The rule cut in two that never overlap, for counts remembered per kind of viewer: `shared` is what
 * everyone with these visibilities lists (the same for every member, say), `own` what only the
 * viewer lists on top (their photos `shared` leaves out). Together they are whereListablePhotos.
 */
export function whereListablePart<DB extends Database, TB extends keyof DB & "photos">(eb: ExpressionBuilder<DB, TB>, access: PhotoListAccess, part: "shared" | "own") {
  const photos = eb as unknown as PhotosScope;
  const notTrashed = photos("photos.trashed_at", "is", null);
  if (part === "shared") return photos.and([notTrashed, othersListed(photos, access)]);
  return photos.and([notTrashed, ownListed(photos, access), photos.not(othersListed(photos, access))]);
}

/**
 * One index range of the listable photos: equalities (and exclusions) on an index's leading
 * columns, then (sort_at, id) in order. Which index depends on the query's other conditions: the
 * gallery walks (visibility|owner_id|status, sort_at, id), a camera (camera_slug, visibility, sort_at, id).
 */
export interface PhotoRange {
  visibility?: Visibility;
  visibilities?: Visibility[];
  exceptVisibilities?: Visibility[];
  ownerId?: string;
  status?: PhotoStatus;
}

/** Narrowing filters a list adds on top of the rule: one visibility, or the viewer's own photos. */
export interface PhotoRangeFilter {
  visibility?: Visibility;
  /** Only the viewer's own photos (`access.viewerId`). */
  onlyOwn?: boolean;
}

/**
 * The rule split into ranges that do not overlap, each walking an index in gallery order and cut to
 * the page, then merged (mergePhotoRanges). Written as one `visibility IN (…) OR owner_id = ?`, both
 * databases read and sort every matching row before the first 30 (259 ms at 100,000 photos in
 * SQLite); range by range, each stops after a page.
 *
 * - one per listed visibility: its finished photos (whoever owns them; all of them when others' are listed in any state);
 * - the viewer's own photos of the other visibilities (their owner index);
 * - the viewer's own unfinished photos of the listed visibilities (few rows), unless only finished ones are listed.
 *
 * Each range is also cut by the rule itself (`whereInRange`), so a wrong split could only drop
 * photos, never show one the rule does not allow.
 */
export function listablePhotoRanges(access: PhotoListAccess, filter: PhotoRangeFilter = {}): PhotoRange[] {
  const { visibility } = filter;
  if (filter.onlyOwn) {
    if (access.viewerId === null) return [];
    return [{ ownerId: access.viewerId, visibility, status: access.ownPhotos === "finished" ? "ready" : undefined }];
  }
  const listed = access.visibilities.filter((each) => visibility === undefined || each === visibility);
  const othersFinished = access.othersPhotos !== "any-state";
  const ranges: PhotoRange[] = listed.map((each) => ({ visibility: each, status: othersFinished ? "ready" : undefined }));
  if (access.viewerId === null) return ranges;
  const ownStatus = access.ownPhotos === "finished" ? "ready" : undefined;
  const others = EVERY_VISIBILITY.filter((each) => !access.visibilities.includes(each) && (visibility === undefined || each === visibility));
  if (others.length > 0) {
    ranges.push({ ownerId: access.viewerId, status: ownStatus, ...(visibility ? { visibility } : { exceptVisibilities: [...access.visibilities] }) });
  }
  if (access.ownPhotos === "any-state" && othersFinished && listed.length > 0) {
    for (const status of UNFINISHED) ranges.push({ ownerId: access.viewerId, status, ...(visibility ? { visibility } : { visibilities: listed }) });
  }
  return ranges;
}

/** One range's conditions, and the rule itself, on `photos`. */
export function whereInRange<DB extends Database, TB extends keyof DB & "photos">(eb: ExpressionBuilder<DB, TB>, access: PhotoListAccess, range: PhotoRange) {
  const photos = eb as unknown as PhotosScope;
  const conditions = [whereListablePhotos(photos, access)];
  if (range.visibility !== undefined) conditions.push(photos("photos.visibility", "=", range.visibility));
  if (range.visibilities !== undefined) conditions.push(photos("photos.visibility", "in", range.visibilities));
  if (range.exceptVisibilities !== undefined && range.exceptVisibilities.length > 0) conditions.push(photos("photos.visibility", "not in", range.exceptVisibilities));
  if (range.ownerId !== undefined) conditions.push(photos("photos.owner_id", "=", range.ownerId));
  if (range.status !== undefined) conditions.push(photos("photos.status", "=", range.status));
  return photos.and(conditions);
}
