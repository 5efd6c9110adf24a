import "server-only";
import { type SessionUser, signedInUser, type Viewer } from "@/src/access/viewer";
import { insertAuditEntry } from "@/src/audit/audit.repository";
import { changedFields } from "@/src/audit/changed-fields";
import type { DatabaseHandle } from "@/src/db/client";
import { decodeKeysetCursor, encodeKeysetCursor } from "@/src/db/keyset-cursor";
import { listFaceBoxes, updateFaceBox } from "./face-boxes.repository";
import { turnBetween, turnBox } from "./turned-boxes";
import type { PhotoLabel, PhotoRotation, PhotoRow, PhotoVariantRow, PlaceSource } from "@/src/db/database";
import { AppError } from "@/src/errors/app-error";
import type { ExifSummary } from "@/src/images/photo-metadata-reader";
import { countryNameOf } from "@/src/places/country-name";
import { takenAtInstant } from "@/src/places/taken-instant";
import { getSiteSettings } from "@/src/settings/site-settings.service";
import { type DownloadCopy, makeDownloadCopy } from "./download-copy";
import { coordinatesAtPrecision, placePartsAtPrecision } from "./location-precision";
import { getMetadataPolicy, type MetadataPolicy } from "./metadata-policy";
import { photoPlaceName } from "./place-name";
import { photoListAccessOf } from "./listable-photos";
import { canEditPhoto, canViewPhoto, isOwnerOrAdmin } from "./photo-access";
import { findPhotosForChange } from "./library.repository";
import { afterPhotoRenderQueued, onPhotoAccessChanged, queuePhotoRender, withdrawPublication } from "./photo-lifecycle";
import { queuePlaceLookup } from "./photo-place.job";
import { toMediaUrl } from "./photo-publication";
import { countPhotosAround, findPhotoById, listPhotos, listVariants, type PhotoListQuery, updatePhoto } from "./photos.repository";
import type { ListPhotosQuery, UpdatePhotoInput } from "./photos.schemas";
import { moveToTrash } from "./trash.service";

/** The camera, lens and exposure a photo's page and API show (when the metadata policy lets them). */
export function toExifFields(photo: PhotoRow): PhotoDetail["exif"] {
  return {
    cameraMake: photo.camera_make,
    cameraModel: photo.camera_model,
    lens: photo.lens,
    focalLength: photo.focal_length,
    aperture: photo.aperture,
    exposureTime: photo.exposure_time,
    iso: photo.iso,
  };
}

export interface PhotoVariantView {
  format: PhotoVariantRow["format"];
  width: number;
  height: number;
  url: string;
}

export interface PhotoSummary {
  id: string;
  status: PhotoRow["status"];
  visibility: PhotoRow["visibility"];
  title: string;
  altText: string;
  width: number | null;
  height: number | null;
  thumbhash: string | null;
  dominantColor: string | null;
  takenAt: string | null;
  variants: PhotoVariantView[];
  /** The uploaded file name: only in a list of the caller's own photos (?owner=me), where it tells untitled photos apart. */
  originalName?: string;
  /** A video's length and playable copy (its variants are its poster's); null for a photo. */
  video: { durationMs: number | null; playableUrl: string | null } | null;
  /** A Live Photo's or motion photo's clip as viewers play it (no sound, no metadata), served as a variant is; null otherwise. */
  motionUrl: string | null;
}

export interface PhotoDetail extends PhotoSummary {
  caption: string;
  originalName: string;
  failureReason: string | null;
  /** The EXIF summary; the date taken is `takenAt`. */
  exif: Omit<ExifSummary, "takenAt">;
  /** Only for the owner and admins, or for everyone when the owner turned location on: then rounded to the photo's precision (none at country precision). */
  location: { latitude: number; longitude: number; altitude: number | null } | null;
  /** The location in words ("Arezzo, Tuscany, Italy"), worked out offline or set by hand; null whenever `place` is. */
  placeName: string | null;
  /** Where it was taken, in words, under the same policy as `location`; null when unknown or not shown. */
  place: PhotoPlaceView | null;
  /** The date taken as an instant (UTC), read with its offset or the place's time zone; only where the place is shown. */
  takenAtInstant: string | null;
  /** Whether the owner shows the location to everyone who may see the photo. */
  showLocation: boolean;
  /** The photo's own precision for others, told only to the owner and admins; null: the site's setting (or not theirs to know). */
  locationPrecision: PhotoRow["location_precision"];
  /** The photo's own download choice; null: the site's setting decides. */
  allowDownload: boolean | null;
  /** Where this viewer downloads the photo (the original for its owner, else a download copy), or null when they may not. */
  downloadUrl: string | null;
  /** The RAW of a RAW+JPEG pair and a motion photo's clip, under the original's rule (owner and admins); null otherwise. */
  rawDownloadUrl: string | null;
  motionClipUrl: string | null;
  canEdit: boolean;
  /** The owner's turn, degrees clockwise, on top of the file's own orientation (the variants already show it). */
  rotation: PhotoRotation;
  /** The owner's stars and colour label: null for anyone but the owner and admins (metadata policy). */
  rating: number | null;
  label: PhotoLabel | null;
  /** The URL names of its camera and lens (/cameras/[slug], /lenses/[slug]); null when unknown. */
  cameraSlug: string | null;
  lensSlug: string | null;
}

export function toSummary(photo: PhotoRow, variants: PhotoVariantRow[]): PhotoSummary {
  return {
    id: photo.id,
    status: photo.status,
    visibility: photo.visibility,
    title: photo.title,
    altText: photo.alt_text,
    width: photo.width,
    height: photo.height,
    thumbhash: photo.thumbhash,
    dominantColor: photo.dominant_color,
    takenAt: photo.taken_at,
    variants: variants.map((variant) => ({
      format: variant.format,
      width: variant.width,
      height: variant.height,
      url: toMediaUrl(photo.publication_key, variant.storage_key),
    })),
    video:
      photo.media_kind === "video"
        ? { durationMs: photo.duration_ms, playableUrl: photo.playable_key ? toMediaUrl(photo.publication_key, photo.playable_key) : null }
        : null,
    motionUrl: photo.motion_playable_key ? toMediaUrl(photo.publication_key, photo.motion_playable_key) : null,
  };
}

/** Where a browser downloads a photo: a page path, so visitors who are not signed in can use it too. */
function toDownloadUrl(photoId: string): string {
  return `/p/${photoId}/download`;
}

export interface PhotoPlaceView {
  city: string | null;
  region: string | null;
  countryCode: string | null;
  country: string | null;
  timeZone: string | null;
  /** "manual": set by its owner, kept whatever processing reads; "automatic": worked out from the coordinates. */
  source: PlaceSource;
}

/** The stored place, only where the policy lets this viewer see the location. */
function toPlaceView(photo: PhotoRow, policy: MetadataPolicy): PhotoPlaceView | null {
  if (policy.locationPrecision === null || photo.place_source === null) return null;
  const country = photo.place_country_code === null ? null : countryNameOf(photo.place_country_code);
  // Below city precision the town (and at country precision the region) is not named either.
  const { city, region } = placePartsAtPrecision({ city: photo.place_city, region: photo.place_region }, policy.locationPrecision);
  if (city === null && region === null && country === null) return null;
  return {
    city,
    region,
    countryCode: photo.place_country_code,
    country,
    timeZone: photo.place_time_zone,
    source: photo.place_source,
  };
}

/** The place in words (photoPlaceName: the stored one at the policy's precision, else the country from the coordinates), where the policy shows the location. */
function toPlaceName(photo: PhotoRow, policy: MetadataPolicy): string | null {
  return policy.locationPrecision === null ? null : photoPlaceName(photo, policy.locationPrecision);
}

/** The coordinates this viewer receives: rounded here to the policy's precision, none when hidden or at country precision. */
function toLocationView(photo: PhotoRow, policy: MetadataPolicy): PhotoDetail["location"] {
  if (policy.locationPrecision === null || photo.gps_latitude === null || photo.gps_longitude === null) return null;
  const point = coordinatesAtPrecision(photo.gps_latitude, photo.gps_longitude, policy.locationPrecision);
  if (point === null) return null;
  // The altitude narrows a rounded point down again (a valley floor, a summit): exact only.
  return { ...point, altitude: policy.locationPrecision === "exact" ? photo.gps_altitude : null };
}

function toDetail(viewer: Viewer, photo: PhotoRow, variants: PhotoVariantRow[], policy: MetadataPolicy): PhotoDetail {
  const place = toPlaceView(photo, policy);
  return {
    ...toSummary(photo, variants),
    caption: photo.caption,
    originalName: photo.original_name,
    failureReason: policy.seesEverything ? photo.failure_reason : null,
    exif: toExifFields(photo),
    location: toLocationView(photo, policy),
    locationPrecision: isOwnerOrAdmin(viewer, photo) ? photo.location_precision : null,
    placeName: toPlaceName(photo, policy),
    place,
    takenAtInstant: policy.seesLocation ? takenAtInstant(photo.taken_at, photo.place_time_zone) : null,
    showLocation: photo.show_location === 1,
    allowDownload: photo.allow_download === null ? null : photo.allow_download === 1,
    downloadUrl: policy.download === "none" ? null : toDownloadUrl(photo.id),
    rawDownloadUrl: isOwnerOrAdmin(viewer, photo) && photo.raw_companion_key ? `/api/photos/${photo.id}/raw` : null,
    motionClipUrl: isOwnerOrAdmin(viewer, photo) && photo.motion_clip_key ? `/api/photos/${photo.id}/motion` : null,
    canEdit: canEditPhoto(viewer, photo),
    rotation: photo.rotation,
    rating: policy.seesOwnerNotes ? photo.rating : null,
    label: policy.seesOwnerNotes ? photo.label : null,
    cameraSlug: photo.camera_slug,
    lensSlug: photo.lens_slug,
  };
}

function encodeCursor(photo: PhotoRow): string {
  return encodeKeysetCursor(photo.sort_at, photo.id);
}

function decodeCursor(cursor: string): { sortAt: string; id: string } {
  const [sortAt, id] = decodeKeysetCursor(cursor, 2);
  return { sortAt, id };
}

/**
 * The photos the viewer may see in a list, newest first, by the one list rule
 * (src/photos/listable-photos.ts): others' finished photos of the visibilities the viewer may list
 * (public; members too when signed in; every one for admins), and the viewer's own in any state.
 */
export async function listPhotosForViewer(
  db: DatabaseHandle,
  viewer: Viewer,
  query: ListPhotosQuery,
): Promise<{ photos: PhotoSummary[]; nextCursor: string | null }> {
  const user = signedInUser(viewer);
  if (query.owner === "me" && user === null) throw new AppError("UNAUTHENTICATED", "Sign in to see your photos.");
  const rows = await listPhotos(db, {
    access: photoListAccessOf(viewer),
    filter: { onlyOwn: query.owner === "me", visibility: query.visibility },
    after: query.cursor ? decodeCursor(query.cursor) : undefined,
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const variants = await listVariants(db, page.map((row) => row.id));
  return {
    photos: page.map((row) => {
      const summary = toSummary(row, variants.filter((variant) => variant.photo_id === row.id));
      // Every row of an ?owner=me page is the caller's own, whose file names they may read.
      return query.owner === "me" ? { ...summary, originalName: row.original_name } : summary;
    }),
    nextCursor: rows.length > query.limit ? encodeCursor(page[page.length - 1]) : null,
  };
}

/**
 * Summaries of photo rows another domain listed with its own access check (a tag's page), in the
 * order given: their variants read in one query.
 */
export async function summarizePhotos(db: DatabaseHandle, rows: PhotoRow[]): Promise<PhotoSummary[]> {
  const variants = await listVariants(db, rows.map((row) => row.id));
  return rows.map((row) => toSummary(row, variants.filter((variant) => variant.photo_id === row.id)));
}

/** The photo, or 404 when it does not exist or the viewer may not see it (the two look the same). */
async function getVisiblePhoto(db: DatabaseHandle, viewer: Viewer, id: string): Promise<PhotoRow> {
  const photo = await findPhotoById(db, id);
  if (!photo || !canViewPhoto(viewer, photo)) throw new AppError("NOT_FOUND", "No photo has that id.");
  return photo;
}

/** The photo's detail as this viewer may see it, from its row (its variants and the settings read together). */
async function describePhoto(db: DatabaseHandle, viewer: Viewer, photo: PhotoRow): Promise<PhotoDetail> {
  const [settings, variants] = await Promise.all([getSiteSettings(db), listVariants(db, [photo.id])]);
  return toDetail(viewer, photo, variants, getMetadataPolicy(viewer, photo, settings));
}

export async function getPhotoForViewer(db: DatabaseHandle, viewer: Viewer, id: string): Promise<PhotoDetail> {
  return describePhoto(db, viewer, await getVisiblePhoto(db, viewer, id));
}

/** What the photo page shows: the photo, and the photos either side of it in the viewer's gallery order. */
export interface PhotoPage {
  photo: PhotoDetail;
  newerId: string | null;
  olderId: string | null;
}

/** The photo page's data, reading the photo once (its detail and both neighbours then at once). */
export async function getPhotoPageForViewer(db: DatabaseHandle, viewer: Viewer, id: string): Promise<PhotoPage> {
  const photo = await getVisiblePhoto(db, viewer, id);
  const [detail, [newer], [older]] = await Promise.all([
    describePhoto(db, viewer, photo),
    listGalleryNeighbours(db, viewer, photo, "newer", 1),
    listGalleryNeighbours(db, viewer, photo, "older", 1),
  ]);
  return { photo: detail, newerId: newer?.id ?? null, olderId: older?.id ?? null };
}

/**
 * The photos next to this one in the viewer's gallery order, nearest first: the same access rule
 * as the gallery, walked from this photo. None for an unlisted photo the viewer does not own: it is
 * reached by its link only and has no place in an order to move through.
 */
function listGalleryNeighbours(db: DatabaseHandle, viewer: Viewer, photo: PhotoRow, direction: PhotoListQuery["direction"], limit: number): Promise<PhotoRow[]> {
  if (limit === 0 || (photo.visibility === "unlisted" && !isOwnerOrAdmin(viewer, photo))) return Promise.resolve([]);
  // Only finished photos, the viewer's own too: an unfinished photo's page has nothing to show yet.
  return listPhotos(db, {
    access: photoListAccessOf(viewer, { ownPhotos: "finished" }),
    after: { sortAt: photo.sort_at, id: photo.id },
    direction,
    limit,
  });
}

/** A photo next to another in the full-screen viewer: what it shows and how it is named. */
export interface NeighbourPhoto extends PhotoSummary {
  placeName: string | null;
  /** The viewer's caption line under the photo (user text: shown as text, never as markup). */
  caption: string;
}

/** How many photos each way the viewer gets at once: enough to browse, few enough to answer at once. */
const MAX_NEIGHBOURS = 12;

/**
 * Up to `reach` photos each way from this one in the viewer's gallery order, nearest first, for the
 * full-screen viewer to swipe through: the same access-checked query as previous/next, one each
 * way, and each photo found is checked again with canViewPhoto, so this never lists a photo the
 * viewer could not open by its page.
 */
export async function listNeighbourPhotos(
  db: DatabaseHandle,
  viewer: Viewer,
  photoId: string,
  reach: number,
): Promise<{ newer: NeighbourPhoto[]; older: NeighbourPhoto[] }> {
  const photo = await getVisiblePhoto(db, viewer, photoId);
  const limit = Math.max(0, Math.min(Math.floor(reach), MAX_NEIGHBOURS));
  // Ends at the first photo the second check refuses, so the viewer never skips over a gap.
  function untilRefused(rows: PhotoRow[]): PhotoRow[] {
    const refused = rows.findIndex((row) => !canViewPhoto(viewer, row));
    return refused === -1 ? rows : rows.slice(0, refused);
  }
  const [newer, older] = (
    await Promise.all([listGalleryNeighbours(db, viewer, photo, "newer", limit), listGalleryNeighbours(db, viewer, photo, "older", limit)])
  ).map(untilRefused);
  const [variants, settings] = await Promise.all([listVariants(db, [...newer, ...older].map((row) => row.id)), getSiteSettings(db)]);
  const toNeighbour = (row: PhotoRow): NeighbourPhoto => {
    const policy = getMetadataPolicy(viewer, row, settings);
    return {
      ...toSummary(row, variants.filter((variant) => variant.photo_id === row.id)),
      placeName: toPlaceName(row, policy),
      caption: row.caption,
    };
  };
  return { newer: newer.map(toNeighbour), older: older.map(toNeighbour) };
}

/** Where a photo stands in an order the viewer walks: the 3rd (`index`, from 1) of 24 (`total`). */
export interface ViewerPosition {
  index: number;
  total: number;
}

/**
 * The photo's place in the viewer's gallery order (the order the full-screen viewer moves through),
 * counted by the same rule and ranges as the gallery. Null where the photo has no place in it: an
 * unlisted photo reached by its link, or one not finished (the order holds finished photos only).
 */
export async function findGalleryPosition(db: DatabaseHandle, viewer: Viewer, photoId: string): Promise<ViewerPosition | null> {
  const photo = await getVisiblePhoto(db, viewer, photoId);
  if (photo.status !== "ready" || (photo.visibility === "unlisted" && !isOwnerOrAdmin(viewer, photo))) return null;
  const { before, total } = await countPhotosAround(db, photoListAccessOf(viewer, { ownPhotos: "finished" }), { sortAt: photo.sort_at, id: photo.id });
  return { index: before + 1, total };
}

/**
 * What the full-screen viewer's info panel shows of a photo: the photo page's EXIF card and place,
 * from the same detail and under the same metadata policy as the page (the location only where
 * this viewer may see it), and nothing the page does not show them.
 */
export type PhotoViewerInfo = Pick<PhotoDetail, "id" | "takenAt" | "exif" | "location" | "placeName"> & {
  /**
   * The people in the photo, each a link to their page: only the gallery's own viewer action adds
   * them, as far as the people rule lets this viewer see them (src/faces/people-access.ts); share
   * links never do. Photos cannot ask for faces themselves (the arrows), so the shape is plain.
   */
  people?: ViewerPerson[];
};

/** A person in the viewer's info panel: null name for an unnamed person (their owner sees them). */
export interface ViewerPerson {
  id: string;
  name: string | null;
}

export async function getPhotoViewerInfo(db: DatabaseHandle, viewer: Viewer, photoId: string): Promise<PhotoViewerInfo> {
  const { id, takenAt, exif, location, placeName } = await getPhotoForViewer(db, viewer, photoId);
  return { id, takenAt, exif, location, placeName };
}

/** A photo's editable fields as the API names them, for the audit log's before and after. */
function auditedFields(photo: PhotoRow): Record<keyof UpdatePhotoInput, unknown> {
  return {
    title: photo.title,
    caption: photo.caption,
    altText: photo.alt_text,
    visibility: photo.visibility,
    showLocation: photo.show_location === 1,
    locationPrecision: photo.location_precision,
    allowDownload: photo.allow_download === null ? null : photo.allow_download === 1,
    takenAt: photo.taken_at,
    location: photo.gps_latitude === null || photo.gps_longitude === null ? null : { latitude: photo.gps_latitude, longitude: photo.gps_longitude },
    place: { city: photo.place_city, region: photo.place_region, countryCode: photo.place_country_code },
    rotation: photo.rotation,
    rating: photo.rating,
    label: photo.label,
  };
}

/**
 * The columns a correction of the date, place or rotation writes. A photo's place in every list
 * (sort_at) follows its date: the date taken, or its upload time while the date is unknown, as
 * processing sets it; browse, search and the albums' and tags' copies of sort_at follow from there.
 */
function correctedColumns(photo: PhotoRow, input: UpdatePhotoInput): Partial<PhotoRow> {
  return {
    ...(input.takenAt !== undefined && { taken_at: input.takenAt, taken_at_by_owner: 1, sort_at: input.takenAt ?? photo.created_at }),
    ...placeCorrection(photo, input),
    ...(input.rotation !== undefined && { rotation: input.rotation }),
  };
}

/**
 * A place corrected by hand sticks (place_source "manual"): processing the photo again never
 * replaces its coordinates or names (src/photos/photo-place.ts). New coordinates clear the names and
 * time zone of the old ones unless names come with them; the worker then works out what is missing
 * (queuePlaceLookup, when placeNeedsLookup says so). `place: null` asks for the names again.
 */
function placeCorrection(photo: PhotoRow, input: UpdatePhotoInput): Partial<PhotoRow> {
  if (input.location === undefined && input.place === undefined) return {};
  const columns: Partial<PhotoRow> = { place_source: "manual" };
  if (input.location !== undefined) {
    // A location set by hand has no altitude: the one recorded was of the place it replaces.
    Object.assign(columns, {
      gps_latitude: input.location?.latitude ?? null,
      gps_longitude: input.location?.longitude ?? null,
      gps_altitude: null,
      place_time_zone: null,
      ...(input.place === undefined && { place_city: null, place_region: null, place_country_code: null }),
    });
  }
  if (input.place === null) Object.assign(columns, { place_city: null, place_region: null, place_country_code: null });
  else if (input.place !== undefined) {
    Object.assign(columns, {
      ...(input.place.city !== undefined && { place_city: input.place.city }),
      ...(input.place.region !== undefined && { place_region: input.place.region }),
      ...(input.place.countryCode !== undefined && { place_country_code: input.place.countryCode }),
    });
  }
  return columns;
}

/** Whether the worker must work out a time zone or names for coordinates after this correction. */
function placeNeedsLookup(photo: PhotoRow, input: UpdatePhotoInput): boolean {
  if (input.location) return true;
  return input.place === null && input.location === undefined && photo.gps_latitude !== null && photo.gps_longitude !== null;
}

async function getEditablePhoto(db: DatabaseHandle, viewer: Viewer, id: string): Promise<PhotoRow> {
  const photo = await getVisiblePhoto(db, viewer, id);
  // Seen but not theirs (a members or public photo of someone else): say so plainly.
  if (!canEditPhoto(viewer, photo)) throw new AppError("FORBIDDEN", "Only the photo's owner or an admin can change it.");
  return photo;
}

/**
 * Faces' boxes (drawn by hand or detected) are fractions of the upright photo: when the owner
 * turns it, they turn with it, in the same transaction, so a box stays on its face.
 */
async function turnFaceBoxes(transaction: DatabaseHandle, photoId: string, degrees: PhotoRotation): Promise<void> {
  if (degrees === 0) return;
  for (const face of await listFaceBoxes(transaction, photoId)) await updateFaceBox(transaction, face.id, turnBox(face, degrees));
}

/** `db` opens a transaction, so it must not be a transaction itself. */
export async function updatePhotoByViewer(db: DatabaseHandle, viewer: Viewer, id: string, input: UpdatePhotoInput): Promise<PhotoDetail> {
  const photo = await getEditablePhoto(db, viewer, id);
  const isLeavingPublic = photo.visibility === "public" && input.visibility !== undefined && input.visibility !== "public";
  const isTurning = input.rotation !== undefined && input.rotation !== photo.rotation;
  const needsPlaceLookup = placeNeedsLookup(photo, input);
  // A video's poster is made upright from the file's own rotation; a turn of the video itself is not offered.
  if (isTurning && photo.media_kind === "video") throw new AppError("INVALID_INPUT", "A video cannot be turned; its own rotation is already applied.");
  const now = new Date().toISOString();
  const withdrawnUrls = await db.transaction().execute(async (transaction) => {
    await updatePhoto(transaction, id, {
      ...(input.title !== undefined && { title: input.title, title_by_owner: 1 }),
      ...(input.caption !== undefined && { caption: input.caption, caption_by_owner: 1 }),
      ...(input.altText !== undefined && { alt_text: input.altText }),
      ...(input.visibility !== undefined && { visibility: input.visibility }),
      ...(input.showLocation !== undefined && { show_location: input.showLocation ? 1 : 0 }),
      ...(input.locationPrecision !== undefined && { location_precision: input.locationPrecision }),
      ...(input.allowDownload !== undefined && { allow_download: input.allowDownload === null ? null : input.allowDownload ? 1 : 0 }),
      ...(input.rating !== undefined && { rating: input.rating, rating_by_owner: 1 }),
      ...(input.label !== undefined && { label: input.label, label_by_owner: 1 }),
      ...correctedColumns(photo, input),
      updated_at: now,
    });
    // A turn makes every variant again, through the job queue; the old ones are served until then.
    if (isTurning) {
      await queuePhotoRender(transaction, id, now);
      await turnFaceBoxes(transaction, id, turnBetween(photo.rotation as PhotoRotation, input.rotation as PhotoRotation));
    }
    if (needsPlaceLookup) await queuePlaceLookup(transaction, id, now);
    const details = changedFields(auditedFields(photo), input);
    // Saving the editor unchanged is not a change: no audit row.
    if (Object.keys(details.after).length > 0) {
      await insertAuditEntry(transaction, { actorId: signedInUser(viewer)?.id ?? null, action: "photo.update", targetId: id, details }, now);
    }
    return isLeavingPublic ? withdrawPublication(transaction, photo) : [];
  });
  // Every update, not only visibility: cheap, and nothing to get wrong when new fields matter.
  onPhotoAccessChanged([id], withdrawnUrls);
  if (isTurning || needsPlaceLookup) afterPhotoRenderQueued();
  return getPhotoForViewer(db, viewer, id);
}

/**
 * Moves the photo to the trash: hidden from everyone at once, its files kept until the trash is
 * emptied or expires (see trash.service.ts). `db` must not be a transaction.
 */
export async function deletePhotoByViewer(db: DatabaseHandle, viewer: Viewer, id: string): Promise<void> {
  const photo = await getEditablePhoto(db, viewer, id);
  const user = signedInUser(viewer) as SessionUser;
  // Read again in the transaction: trashed or changed meanwhile, it answers 404 as if just gone.
  await moveToTrash(db, user, async (transaction) => {
    const [current] = await findPhotosForChange(transaction, [photo.id]);
    if (!current) throw new AppError("NOT_FOUND", "No photo has that id.");
    return [current];
  });
}

/** The untouched original: only for the photo's owner and admins. */
export async function getOriginalForViewer(db: DatabaseHandle, viewer: Viewer, id: string): Promise<{ photo: PhotoRow }> {
  const photo = await getVisiblePhoto(db, viewer, id);
  if (!isOwnerOrAdmin(viewer, photo)) {
    throw new AppError("FORBIDDEN", "Only the photo's owner or an admin can download the original.");
  }
  return { photo };
}

/** What a download gives this viewer: the original for its owner and admins, a download copy for others where allowed. */
export type PhotoDownload = { kind: "original"; photo: PhotoRow } | ({ kind: "copy" } & DownloadCopy);

export async function getDownloadForViewer(db: DatabaseHandle, viewer: Viewer, id: string): Promise<PhotoDownload> {
  const photo = await getVisiblePhoto(db, viewer, id);
  const policy = getMetadataPolicy(viewer, photo, await getSiteSettings(db));
  if (policy.download === "none") throw new AppError("FORBIDDEN", "Downloads are not allowed for this photo.");
  if (policy.download === "original") return { kind: "original", photo };
  // A download copy's EXIF carries the exact point, so it keeps it only where the viewer sees it exactly.
  return { kind: "copy", ...(await makeDownloadCopy(photo, { keepLocation: policy.locationPrecision === "exact" })) };
}
