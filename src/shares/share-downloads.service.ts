import "server-only";
import { effectivePrecision, type LocationPrecision } from "@/src/photos/location-precision";
import { siteLocationPrecision } from "@/src/photos/site-location-precision";
import type { DatabaseHandle } from "@/src/db/client";
import type { PhotoRow, ShareRow } from "@/src/db/database";
import { AppError } from "@/src/errors/app-error";
import { makeDownloadCopy, type DownloadCopy, type DownloadCopyPolicy } from "@/src/photos/download-copy";
import { planDownloadCopies, streamDownloadCopy } from "@/src/photos/download-copy-plan";
import { recordShareAccess } from "./share-access-log.repository";
import { getShareMetadataPolicy, type ShareMetadataPolicy } from "./share-metadata-policy";
import { findSharedPhoto, listSharedPhotos } from "./share-photos.repository";
import { shareState } from "./share-state";
import { makeZipStream, type ZipStream } from "./share-zip";
import { countSharedPhotosBefore } from "./share-zip.repository";
import { sharedPhotoFileName, shareZipFileName, UniqueFileNames } from "./share-zip-names";
import { countShareDownload, findShareByKey } from "./shares.repository";

/**
 * What a share link's visitors download (the link's `download` right, under its metadata policy):
 *
 * - "copy": the download copy (src/photos/download-copy.ts) with camera details only when the link
 *   shows EXIF and the location only when it shows the location;
 * - "original": the original with its metadata filtered by the same policy. For a JPEG that is the
 *   lossless rewrite, which is the download copy: the original's compressed pixels byte for byte.
 *   HEIC/HEIF, PNG, WebP, AVIF and TIFF cannot be filtered in place with what the codebase has (a
 *   HEIF's item offsets, a TIFF's IFD0 that is both image and metadata), so they get the copy too:
 *   `isFilteredOriginal` says which one it was. The untouched original never goes to a visitor.
 *
 * Files are named by the photo's title or "<share title> 007.jpg" (src/shares/share-zip-names.ts).
 */

/**
 * A copy's EXIF carries the exact point, so it keeps the location only where the link shows it and
 * the photo's owner lets others see it exactly (its precision, else the site's: `siteDefault`).
 */
function copyPolicy(policy: ShareMetadataPolicy, photo: Pick<PhotoRow, "location_precision">, siteDefault: LocationPrecision): DownloadCopyPolicy {
  const exactly = effectivePrecision(photo.location_precision, siteDefault) === "exact";
  return { keepLocation: policy.showsLocation && exactly, keepCameraDetails: policy.showsExif };
}

function requireDownloads(share: ShareRow): ShareMetadataPolicy {
  const policy = getShareMetadataPolicy(share);
  if (policy.download === "none") throw new AppError("FORBIDDEN", "This link does not offer downloads.");
  return policy;
}

export interface SharedPhotoDownload extends DownloadCopy {
  /** True when the link offers originals and this is the original's own pixels (a JPEG), filtered losslessly. */
  isFilteredOriginal: boolean;
}

/** One photo of a share, as the link allows; logs "download" and counts it. */
export async function downloadSharedPhoto(db: DatabaseHandle, share: ShareRow, photoId: string, now: Date, options: { count: boolean }): Promise<SharedPhotoDownload> {
  const policy = requireDownloads(share);
  const photo = await findSharedPhoto(db, share.id, photoId);
  if (!photo) throw new AppError("NOT_FOUND", "There is no such photo in this share.");
  const copy = await makeDownloadCopy(photo, copyPolicy(policy, photo, await siteLocationPrecision(db)));
  const { before, total } = await countSharedPhotosBefore(db, share.id, photo.position);
  if (options.count) {
    await recordShareAccess(db, { shareId: share.id, event: "download", photoId: photo.id }, now);
    await countShareDownload(db, share.id, now.toISOString());
  }
  return {
    bytes: copy.bytes,
    fileName: sharedPhotoFileName(photo, share.title, before + 1, total),
    isFilteredOriginal: policy.download === "original" && photo.original_type === "jpeg",
  };
}

async function listAllSharedPhotos(db: DatabaseHandle, shareId: string): Promise<PhotoRow[]> {
  const photos: Array<PhotoRow & { position: number }> = [];
  for (;;) {
    const page = await listSharedPhotos(db, shareId, { afterPosition: photos.at(-1)?.position, limit: 500 });
    photos.push(...page);
    if (page.length < 500) return photos;
  }
}

export interface ShareZip extends ZipStream {
  fileName: string;
}

/**
 * The whole share as a stored ZIP, every photo in the share's order, each as the single download
 * would give it. Before the first byte only each source's head is read (src/photos/download-copy-plan.ts),
 * so the exact length is known at once; then one entry at a time is streamed. Between entries the
 * link is read again: revoking it, expiring it or changing its password cuts a ZIP in progress.
 */
export async function prepareShareZip(db: DatabaseHandle, share: ShareRow, now: Date, options: { count: boolean }): Promise<ShareZip> {
  const policy = requireDownloads(share);
  if (!policy.offersZip) throw new AppError("FORBIDDEN", "This link does not offer a ZIP of all its photos.");
  const photos = await listAllSharedPhotos(db, share.id);
  // Photos shown exactly and the rest are planned apart (their copies keep or drop the location), then put back in order.
  const siteDefault = await siteLocationPrecision(db);
  const isExact = (photo: PhotoRow) => copyPolicy(policy, photo, siteDefault).keepLocation === policy.showsLocation;
  const exact = photos.filter(isExact);
  const rounded = photos.filter((photo) => !isExact(photo));
  const planned = [
    ...(exact.length > 0 ? await planDownloadCopies(db, exact, copyPolicy(policy, { location_precision: "exact" }, siteDefault)) : []),
    ...(rounded.length > 0 ? await planDownloadCopies(db, rounded, { keepLocation: false, keepCameraDetails: policy.showsExif }) : []),
  ];
  const order = new Map(photos.map((photo, index) => [photo.id, index]));
  const plans = planned.sort((left, right) => (order.get(left.photoId) ?? 0) - (order.get(right.photoId) ?? 0));
  const photosById = new Map(photos.map((photo) => [photo.id, photo]));
  const names = new UniqueFileNames();
  const entries = plans.map((plan, index) => ({
    name: names.take(sharedPhotoFileName(photosById.get(plan.photoId) as PhotoRow, share.title, index + 1, plans.length)),
    size: plan.size,
    open: (signal: AbortSignal) => streamDownloadCopy(plan, signal),
  }));
  const beforeEntry = async () => {
    const current = await findShareByKey(db, share.key);
    const state = current && shareState(current, new Date());
    if (!current || current.id !== share.id || current.grant_version !== share.grant_version || state === "revoked" || state === "expired") {
      throw new AppError("UNAUTHENTICATED", "This share link is no longer open.");
    }
  };
  const zip = makeZipStream(entries, { lastModified: new Date(share.created_at), beforeEntry });
  if (options.count) {
    await recordShareAccess(db, { shareId: share.id, event: "download_zip" }, now);
    await countShareDownload(db, share.id, now.toISOString());
  }
  return { ...zip, fileName: shareZipFileName(share.title) };
}
