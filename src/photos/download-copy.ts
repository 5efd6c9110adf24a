import "server-only";
import { getDb } from "@/src/db/client";
import type { PhotoRow } from "@/src/db/database";
import { AppError } from "@/src/errors/app-error";
import { readExifBlock } from "@/src/images/exif-block-reader";
import { filterExif } from "@/src/images/exif-filter";
import type { ImageType } from "@/src/images/image-type-detector";
import { MalformedJpegError, rewriteJpegMetadata } from "@/src/images/jpeg-metadata-rewriter";
import { getLogger } from "@/src/log/logger";
import { getStorage } from "@/src/storage/app-storage";
import { readStoredBytes } from "@/src/storage/read-stored-bytes";
import { listVariants } from "./photos.repository";

/** What someone other than the owner downloads: a JPEG carrying only what the metadata policy allows. */
export interface DownloadCopy {
  bytes: Buffer;
  fileName: string;
}

/** What a download copy may carry besides the pixels: the location, and camera, lens, exposure and dates (kept unless said otherwise). */
export interface DownloadCopyPolicy {
  keepLocation: boolean;
  keepCameraDetails?: boolean;
}

function exifPolicy(options: DownloadCopyPolicy): { keepLocation: boolean; keepCameraDetails: boolean } {
  return { keepLocation: options.keepLocation, keepCameraDetails: options.keepCameraDetails ?? true };
}

function withJpegExtension(fileName: string): string {
  const stem = fileName.replace(/\.[^.]*$/, "");
  return `${stem || "photo"}.jpg`;
}

/**
 * Makes the download copy of a photo (see docs/image-processing.md, "Download copies"):
 * - a JPEG original gets a lossless metadata rewrite: its compressed pixels byte for byte, full size,
 *   with the allowed EXIF (orientation included, as the pixels are not turned) and its colour profile;
 * - any other format (HEIC, PNG, TIFF…), and a JPEG whose structure cannot be rewritten, is served as
 *   its largest JPEG variant (up to 3200 px wide, already upright, with its colour profile) carrying
 *   the same allowed EXIF. Rewriting those containers in place would mean editing box offsets and
 *   thumbnail items; re-encoding a full-size JPEG would cost seconds of CPU per download.
 */
export async function makeDownloadCopy(photo: PhotoRow, options: DownloadCopyPolicy): Promise<DownloadCopy> {
  // A video's original is never read whole into memory: it has no EXIF block, and its copy is its poster's JPEG below.
  const original = photo.media_kind === "video" ? null : await readStoredBytes(getStorage(), photo.original_key);
  const exif = original && readExifBlock(original, photo.original_type as ImageType);
  if (original && photo.original_type === "jpeg") {
    try {
      const allowed = exif && filterExif(exif, { ...exifPolicy(options), keepOrientation: true, keepPixelDimensions: true });
      return { bytes: rewriteJpegMetadata(original, allowed), fileName: photo.original_name };
    } catch (error) {
      if (!(error instanceof MalformedJpegError)) throw error;
      getLogger().warn({ err: error, photoId: photo.id }, "original JPEG could not be rewritten; the download copy is its largest variant");
    }
  }
  const largest = (await listVariants(getDb(), [photo.id])).filter((variant) => variant.format === "jpeg").at(-1);
  if (!largest) throw new AppError("CONFLICT", "This photo is still being processed; try the download again in a moment.");
  const allowed = exif && filterExif(exif, { ...exifPolicy(options), keepOrientation: false, keepPixelDimensions: false });
  const variant = await readStoredBytes(getStorage(), largest.storage_key);
  return { bytes: rewriteJpegMetadata(variant, allowed), fileName: withJpegExtension(photo.original_name) };
}
