import "server-only";
import type { DatabaseHandle } from "@/src/db/client";
import type { PhotoRow, PhotoVariantRow, ShareRow } from "@/src/db/database";
import { decodeKeysetCursor, encodeKeysetCursor } from "@/src/db/keyset-cursor";
import { AppError } from "@/src/errors/app-error";
import { coordinatesAtPrecision, effectivePrecision, type LocationPrecision } from "@/src/photos/location-precision";
import { photoAccessibleName } from "@/src/photos/photo-accessible-name";
import { photoPlaceName } from "@/src/photos/place-name";
import { siteLocationPrecision } from "@/src/photos/site-location-precision";
import { listVariants } from "@/src/photos/photos.repository";
import { type PhotoDetail, toExifFields } from "@/src/photos/photos.service";
import { sharePath } from "./share-key";
import { toShareMediaUrl } from "./share-media";
import { getShareMetadataPolicy, type ShareMetadataPolicy } from "./share-metadata-policy";
import { countSharedPhotos, findSharedNeighbours, findSharedPhoto, listSharedPhotos } from "./share-photos.repository";

/**
 * What a share link's visitor sees of its photos, for the pages and the visitor API alike: the
 * share's own order, variant URLs under the link's path, and metadata under the link's policy
 * (PRODUCT.md): camera, lens, exposure and date only when the link shows EXIF, the location only
 * when it shows location; never the original file name, the owner, serial numbers or anything else.
 */

export interface ShareVariantView {
  format: PhotoVariantRow["format"];
  width: number;
  height: number;
  url: string;
}

export interface SharePhotoView {
  id: string;
  /**
   * What a screen reader says for it: its alt text or title, else "Photo 3, taken on …" with its
   * number in the link (never the file name, which a visitor may not learn).
   */
  name: string;
  title: string;
  caption: string;
  altText: string;
  width: number | null;
  height: number | null;
  thumbhash: string | null;
  dominantColor: string | null;
  variants: ShareVariantView[];
  /** Null unless the link shows EXIF. */
  takenAt: string | null;
  /** Null unless the link shows EXIF. */
  exif: PhotoDetail["exif"] | null;
  /** Null unless the link shows location (and the photo has one). */
  location: { latitude: number; longitude: number } | null;
  placeName: string | null;
  /** The photo page inside the share. */
  pageUrl: string;
  /** Where the visitor downloads it under the link's right; null when the link allows no downloads. */
  downloadUrl: string | null;
  /**
   * A video's length and its playable copy (metadata stripped), under the link's path; null for a
   * photo. playableUrl is null until the copy is made. Never the original's bytes.
   */
  video: { durationMs: number | null; playableUrl: string | null } | null;
  /** A Live Photo's or motion photo's clip (no sound, no metadata) under the link's path; null otherwise. */
  motionUrl: string | null;
}

export interface SharePhotoPage {
  photos: SharePhotoView[];
  nextCursor: string | null;
}

export interface ShareSummary {
  title: string;
  message: string;
  photoCount: number;
  policy: ShareMetadataPolicy;
  /** The whole-share ZIP, when the link offers it. */
  zipUrl: string | null;
  allowsPicks: boolean;
  pickLimit: number | null;
  selectionLocked: boolean;
}

export const SHARE_PAGE_SIZE = 60;
export const SHARE_PAGE_SIZE_MAX = 200;

/**
 * `number`: the photo's place among those the link opens now, from 1. Not its stored position,
 * which keeps a gap where a photo left the link: the visitor hears "Photo 2" after "Photo 1".
 */
/**
 * `siteDefault`: the site's location precision. A link that shows location shows it as precisely as
 * the photo's owner lets anyone else see it, never more (rounded here, src/photos/location-precision.ts).
 */
function toView(share: ShareRow, photo: PhotoRow, number: number, variants: PhotoVariantRow[], policy: ShareMetadataPolicy, siteDefault: LocationPrecision): SharePhotoView {
  const hasLocation = policy.showsLocation && photo.gps_latitude !== null && photo.gps_longitude !== null;
  const base = sharePath(share.key);
  const takenAt = policy.showsExif ? photo.taken_at : null;
  // The stored place (the town, set by hand or named by processing) at the photo's precision; only when the link shows location.
  const precision = effectivePrecision(photo.location_precision, siteDefault);
  const placeName = policy.showsLocation ? photoPlaceName(photo, precision) : null;
  return {
    id: photo.id,
    name: photoAccessibleName({ altText: photo.alt_text, title: photo.title, takenAt, placeName }, { audience: "visitor", number }),
    title: photo.title,
    caption: photo.caption,
    altText: photo.alt_text,
    width: photo.width,
    height: photo.height,
    thumbhash: photo.thumbhash,
    dominantColor: photo.dominant_color,
    variants: variants
      .filter((variant) => variant.photo_id === photo.id)
      .sort((left, right) => left.width - right.width)
      .map((variant) => ({ format: variant.format, width: variant.width, height: variant.height, url: toShareMediaUrl(share.key, variant.storage_key) })),
    takenAt,
    exif: policy.showsExif ? toExifFields(photo) : null,
    location: hasLocation
      ? coordinatesAtPrecision(photo.gps_latitude as number, photo.gps_longitude as number, precision)
      : null,
    placeName,
    pageUrl: `${base}/p/${photo.id}`,
    downloadUrl: policy.download === "none" ? null : `${base}/p/${photo.id}/download`,
    // Under the link's own media path (the grant cookie goes with it), never the owner's /media:
    // findShareServableVariant serves exactly these two keys of a photo the link opens.
    video:
      photo.media_kind === "video"
        ? { durationMs: photo.duration_ms, playableUrl: photo.playable_key ? toShareMediaUrl(share.key, photo.playable_key) : null }
        : null,
    motionUrl: photo.motion_playable_key ? toShareMediaUrl(share.key, photo.motion_playable_key) : null,
  };
}

function decodeCursor(cursor: string): number {
  const [position] = decodeKeysetCursor(cursor, 1);
  const value = Number(position);
  if (!Number.isInteger(value)) throw new AppError("BAD_REQUEST", "The cursor is not valid.");
  return value;
}

/** The link's heading: its words, how many photos it opens, and what its policy offers. */
export async function getShareSummary(db: DatabaseHandle, share: ShareRow): Promise<ShareSummary> {
  const policy = getShareMetadataPolicy(share);
  return {
    title: share.title,
    message: share.message,
    photoCount: await countSharedPhotos(db, share.id),
    policy,
    zipUrl: policy.offersZip ? `${sharePath(share.key)}/download.zip` : null,
    allowsPicks: share.allow_picks === 1,
    pickLimit: share.pick_limit,
    selectionLocked: share.selection_locked_at !== null,
  };
}

/** A page of the share's photos in its order (keyset on the share's positions). */
export async function listSharePhotos(db: DatabaseHandle, share: ShareRow, page: { cursor?: string; limit?: number }): Promise<SharePhotoPage> {
  const limit = Math.min(Math.max(page.limit ?? SHARE_PAGE_SIZE, 1), SHARE_PAGE_SIZE_MAX);
  const rows = await listSharedPhotos(db, share.id, { afterPosition: page.cursor ? decodeCursor(page.cursor) : undefined, limit: limit + 1 });
  const shown = rows.slice(0, limit);
  const [variants, siteDefault] = await Promise.all([listVariants(db, shown.map((row) => row.id)), siteLocationPrecision(db)]);
  const policy = getShareMetadataPolicy(share);
  const before = shown.length > 0 ? await countSharedPhotos(db, share.id, shown[0].position) : 0;
  return {
    photos: shown.map((row, index) => toView(share, row, before + index + 1, variants, policy, siteDefault)),
    nextCursor: rows.length > limit ? encodeKeysetCursor(String(shown[shown.length - 1].position)) : null,
  };
}

/**
 * One photo of the share with its neighbours in the share's order and its place among the photos
 * the link opens now (the viewer's "3 / 24"); 404 when the share does not open it.
 */
export async function getSharePhoto(
  db: DatabaseHandle,
  share: ShareRow,
  photoId: string,
): Promise<{ photo: SharePhotoView; previousId: string | null; nextId: string | null; position: { index: number; total: number } }> {
  const row = await findSharedPhoto(db, share.id, photoId);
  if (!row) throw new AppError("NOT_FOUND", "This link has no photo with that id.");
  const [variants, neighbours, before, total, siteDefault] = await Promise.all([
    listVariants(db, [row.id]),
    findSharedNeighbours(db, share.id, row.position),
    countSharedPhotos(db, share.id, row.position),
    countSharedPhotos(db, share.id),
    siteLocationPrecision(db),
  ]);
  return {
    photo: toView(share, row, before + 1, variants, getShareMetadataPolicy(share), siteDefault),
    ...neighbours,
    position: { index: before + 1, total },
  };
}
