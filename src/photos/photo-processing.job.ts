import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { getEnv } from "@/src/config/env";
import { getDb } from "@/src/db/client";
import { type JobRow, PHOTO_LABELS, type PhotoRotation, type PhotoRow, type PhotoVariantRow } from "@/src/db/database";
import type { ImageType } from "@/src/images/image-type-detector";
import { type DecodeOptions, decodePhoto, type DecodedPhoto } from "@/src/images/photo-decoder";
import type { PhotoMetadata } from "@/src/images/photo-metadata-reader";
import { makePlaceholder } from "@/src/images/placeholder-maker";
import type { ProcessingLimits } from "@/src/images/processing-limits";
import { type EncodedVariant, encodeVariants, type VariantPhase } from "@/src/images/variant-encoder";
import { VISIBLE_DECODE_WIDTH } from "@/src/images/variant-plan";
import { insertJob } from "@/src/jobs/jobs.repository";
import { notifyJobQueued, registerJobHandler } from "@/src/jobs/worker";
import { getLogger } from "@/src/log/logger";
import { getStorage } from "@/src/storage/app-storage";
import { getTemporaryDirectory, ownedTemporaryName } from "@/src/storage/temporary-files";
import { cameraSlug, lensSlug } from "./camera-slug";
import { deletePhotoFiles, variantPrefix } from "./photo-files";
import { announcePhotosChanged } from "./photo-changes";
import { announceFileKeywords } from "./file-keywords";
import { placeColumnsFromFile } from "./photo-place";
import { registerPlaceLookupJob } from "./photo-place.job";
import { updatePlaceUnlessManual } from "./photo-places.repository";
import { announcePhotoFinished } from "./photo-finished";
import { PROCESS_PHOTO_JOB, RENDER_PHOTO_JOB } from "./photo-job-kinds";
import { replacePhotoVariants } from "./photo-lifecycle";
import {
  findPhotoByIdEvenTrashed,
  insertVariants,
  markFileKeywordsRead,
  updateCaptionUnlessOwners,
  updateLabelUnlessOwners,
  updatePhoto,
  updateRatingUnlessOwners,
  updateTakenAtUnlessOwners,
  updateTitleUnlessOwners,
} from "./photos.repository";
import { takeVisibleDecode } from "./visible-decode-handoff";

export { PROCESS_PHOTO_JOB };
const FINISH_PHOTO_JOB = "photo.finish";
// Lower runs first: every waiting photo is made visible before any photo's larger sizes.
const FINISH_PRIORITY = 5;
const FILE_EXTENSIONS = { jpeg: "jpg", webp: "webp", avif: "avif" } as const;

/** The pixel limit and time budget from the environment, for the upload checks and every phase alike. */
export function getProcessingLimits(): ProcessingLimits {
  const env = getEnv();
  return { maxPixels: env.MAX_IMAGE_PIXELS, timeoutSeconds: env.PROCESSING_TIMEOUT_SECONDS, dcrawEmuPath: env.DCRAW_EMU_PATH };
}

/**
 * Hands the original to `work` as a file (decoders want a path): the stored file itself on local
 * disk, else a temporary copy, removed after.
 */
export async function withOriginalOnDisk<T>(photo: PhotoRow, work: (filePath: string) => Promise<T>): Promise<T> {
  const storage = getStorage();
  const storedPath = await storage.localPathOf(photo.original_key);
  if (storedPath) return work(storedPath);
  const directory = getTemporaryDirectory();
  await fs.mkdir(directory, { recursive: true });
  const filePath = path.join(directory, ownedTemporaryName("original"));
  try {
    const object = await storage.read(photo.original_key);
    await pipeline(object.body, createWriteStream(filePath));
    return await work(filePath);
  } finally {
    await fs.rm(filePath, { force: true });
  }
}

/** Stores variants under keys named by their content, so a public URL can be cached forever. */
async function storeVariants(photoId: string, variants: EncodedVariant[]): Promise<PhotoVariantRow[]> {
  const storage = getStorage();
  return Promise.all(
    variants.map(async (variant) => {
      const digest = createHash("sha256").update(variant.bytes).digest("hex").slice(0, 20);
      const key = `${variantPrefix(photoId)}${variant.format}-${variant.width}-${digest}.${FILE_EXTENSIONS[variant.format]}`;
      await storage.putBytes(key, variant.bytes, { contentType: `image/${variant.format}` });
      return { photo_id: photoId, format: variant.format, width: variant.width, height: variant.height, storage_key: key, byte_size: variant.bytes.length };
    }),
  );
}

/** Thrown when the photo was deleted while its job ran: the job ends quietly. */
export class PhotoDeletedError extends Error {}

export async function encodeAndStore(photo: PhotoRow, decoded: DecodedPhoto, phase: VariantPhase): Promise<EncodedVariant[]> {
  const variants = await encodeVariants(decoded, phase, getProcessingLimits());
  const rows = await storeVariants(photo.id, variants);
  try {
    await insertVariants(getDb(), rows);
  } catch (error) {
    if (await findPhotoByIdEvenTrashed(getDb(), photo.id)) throw error;
    // Deleted meanwhile: its files went with it, and these must not stay behind either.
    await deletePhotoFiles(photo);
    throw new PhotoDeletedError();
  }
  return variants;
}

/**
 * Runs one phase of a photo's processing, on a fresh decode of its original (or on the decode the
 * upload handed over), unless the photo was deleted meanwhile (then the job ends quietly, its files
 * removed).
 */
async function runPhase(
  job: JobRow,
  decodeOptions: DecodeOptions,
  work: (photo: PhotoRow, decoded: DecodedPhoto) => Promise<void>,
  handedDecode?: DecodedPhoto,
): Promise<void> {
  const photo = job.photo_id ? await findPhotoByIdEvenTrashed(getDb(), job.photo_id) : undefined;
  if (!photo) return;
  try {
    if (handedDecode) {
      getLogger().debug({ photoId: photo.id }, "visible phase from the upload check's decode");
      return await work(photo, handedDecode);
    }
    // Turned as the owner last turned it: a retried or re-rendered photo keeps its rotation.
    await withOriginalOnDisk(photo, async (filePath) =>
      work(photo, await decodePhoto(filePath, photo.original_type as ImageType, getProcessingLimits(), { ...decodeOptions, rotation: photo.rotation })),
    );
  } catch (error) {
    if (!(error instanceof PhotoDeletedError)) throw error;
  }
}

/**
 * What the photographer wrote into the file (src/images/embedded-notes-reader.ts): its rating,
 * label, title and caption where the owner has set none (a sidecar the importer applied counts as
 * theirs), and its keywords as tags on its first processing only, so a tag the owner took off is
 * never added back by a retry or a reprocess.
 */
async function applyEmbeddedNotes(photo: PhotoRow, notes: PhotoMetadata["notes"]): Promise<void> {
  const db = getDb();
  if (notes?.rating) await updateRatingUnlessOwners(db, photo.id, notes.rating);
  const label = PHOTO_LABELS.find((known) => known === notes?.label);
  if (label) await updateLabelUnlessOwners(db, photo.id, label);
  if (notes?.title) await updateTitleUnlessOwners(db, photo.id, notes.title);
  if (notes?.caption) await updateCaptionUnlessOwners(db, photo.id, notes.caption);
  if (Number(photo.file_keywords_read) === 0) {
    // Told before marked: a failing listener fails this step, and its retry tells them again. The
    // listener claims the turn in its own transaction, so tags the owner set since `photo` was read win.
    if (notes && notes.keywords.length > 0) await announceFileKeywords(photo.id, notes.keywords);
    await markFileKeywordsRead(db, photo.id);
  }
}

async function queueNextPhase(kind: string, photoId: string, priority: number): Promise<void> {
  await insertJob(getDb(), { kind, photoId, priority }, new Date().toISOString());
  notifyJobQueued();
}

/** First what makes the photo visible: the smallest variants, the placeholder and the EXIF summary. */
async function makeVisible(photo: PhotoRow, decoded: DecodedPhoto): Promise<void> {
  const visible = await encodeAndStore(photo, decoded, "visible");
  const smallest = [...visible].sort((a, b) => a.width - b.width)[0];
  const placeholder = await makePlaceholder(smallest.bytes);
  const { exif, gps } = decoded.metadata;
  // The date and the place on their own, before the photo turns ready: what the owner set by hand
  // (or cleared) outlives processing again; the file's is only a default.
  await updateTakenAtUnlessOwners(getDb(), photo.id, exif.takenAt, photo.created_at);
  await updatePlaceUnlessManual(getDb(), photo.id, placeColumnsFromFile(photo, gps));
  await applyEmbeddedNotes(photo, decoded.metadata.notes);
  await updatePhoto(getDb(), photo.id, {
    status: "ready",
    failure_reason: null,
    width: decoded.originalWidth,
    height: decoded.originalHeight,
    camera_make: exif.cameraMake,
    camera_model: exif.cameraModel,
    lens: exif.lens,
    camera_slug: cameraSlug(exif.cameraMake, exif.cameraModel),
    lens_slug: lensSlug(exif.lens),
    focal_length: exif.focalLength,
    aperture: exif.aperture,
    exposure_time: exif.exposureTime,
    iso: exif.iso,
    thumbhash: placeholder.thumbhash,
    dominant_color: placeholder.dominantColor,
    updated_at: new Date().toISOString(),
  });
  announcePhotosChanged([photo.id]);
  await queueNextPhase(FINISH_PHOTO_JOB, photo.id, FINISH_PRIORITY);
}

/**
 * Then, from one full decode, the larger JPEG and WebP widths and the AVIF variants (which reuse
 * the resized pixels). A job of its own, so every waiting photo becomes visible first.
 */
async function finishPhoto(photo: PhotoRow, decoded: DecodedPhoto): Promise<void> {
  await encodeAndStore(photo, decoded, "full");
  try {
    await encodeAndStore(photo, decoded, "avif");
  } catch (error) {
    if (error instanceof PhotoDeletedError) throw error;
    // JPEG and WebP already serve every width; browsers that ask for AVIF fall back to them.
    getLogger().warn({ err: error, photoId: photo.id }, "AVIF variants could not be made");
  }
  // Lists offer the new sizes (the gallery's tiles prefer AVIF).
  announcePhotosChanged([photo.id]);
  await announcePhotoFinished(photo.id);
}

/**
 * After the owner turned the photo: every variant again from one full decode of the original,
 * turned, then put in place of the old ones together with the photo's new size and placeholder
 * (replacePhotoVariants, in the lifecycle). The EXIF summary, the date and the place are left as
 * they are: they may have been corrected by hand.
 */
async function renderAgain(photo: PhotoRow, decoded: DecodedPhoto): Promise<void> {
  const limits = getProcessingLimits();
  const encoded = [...(await encodeVariants(decoded, "visible", limits)), ...(await encodeVariants(decoded, "full", limits))];
  try {
    encoded.push(...(await encodeVariants(decoded, "avif", limits)));
  } catch (error) {
    getLogger().warn({ err: error, photoId: photo.id }, "AVIF variants could not be made");
  }
  const smallest = [...encoded].sort((a, b) => a.width - b.width)[0];
  const placeholder = await makePlaceholder(smallest.bytes);
  const variants = await storeVariants(photo.id, encoded);
  await replacePhotoVariants(getDb(), photo.id, {
    rotation: photo.rotation as PhotoRotation,
    variants,
    width: decoded.originalWidth,
    height: decoded.originalHeight,
    thumbhash: placeholder.thumbhash,
    dominantColor: placeholder.dominantColor,
  });
  // Turned: what was found in the old variants (face boxes) is found again in the new ones.
  await announcePhotoFinished(photo.id);
}

export async function markFailed(job: JobRow, reason: string): Promise<void> {
  if (!job.photo_id) return;
  await updatePhoto(getDb(), job.photo_id, { status: "failed", failure_reason: reason.slice(0, 500), updated_at: new Date().toISOString() });
  announcePhotosChanged([job.photo_id]);
}

/** The jobs of a photo's processing, for every process that runs a worker. */
export function registerPhotoJobs(): void {
  registerJobHandler(PROCESS_PHOTO_JOB, {
    // Taken first, so a deleted photo's decode does not linger.
    run: (job) => runPhase(job, { maxWidth: VISIBLE_DECODE_WIDTH }, makeVisible, job.photo_id ? takeVisibleDecode(job.photo_id) : undefined),
    onFinalFailure: markFailed,
  });
  // A photo without its larger sizes is not finished: it shows as failed, with a retry.
  registerJobHandler(FINISH_PHOTO_JOB, { run: (job) => runPhase(job, {}, finishPhoto), onFinalFailure: markFailed });
  // A turn that cannot be rendered leaves the photo as it was (its old variants), not failed.
  registerJobHandler(RENDER_PHOTO_JOB, { run: (job) => runPhase(job, {}, renderAgain) });
  registerPlaceLookupJob();
}
