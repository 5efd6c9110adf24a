import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { getEnv } from "@/src/config/env";
import { getDb } from "@/src/db/client";
import type { JobRow, PhotoRow, PhotoVariantRow } from "@/src/db/database";
import type { ImageType } from "@/src/images/image-type-detector";
import { decodePhoto, type DecodedPhoto } from "@/src/images/photo-decoder";
import { makePlaceholder } from "@/src/images/placeholder-maker";
import { type EncodedVariant, encodeVariants, type VariantPhase } from "@/src/images/variant-encoder";
import { insertJob } from "@/src/jobs/jobs.repository";
import { type JobHandler, notifyJobQueued } from "@/src/jobs/worker";
import { getStorage } from "@/src/storage/app-storage";
import { deletePhotoFiles, variantPrefix } from "./photo-files";
import { findPhotoById, insertVariants, updatePhoto } from "./photos.repository";

export const PROCESS_PHOTO_JOB = "photo.process";
export const ENCODE_AVIF_JOB = "photo.avif";
/** AVIF is slow to encode: it waits behind every photo still waiting to become visible. */
const AVIF_PRIORITY = 10;

const FILE_EXTENSIONS = { jpeg: "jpg", webp: "webp", avif: "avif" } as const;

function getLimits() {
  const env = getEnv();
  return { maxPixels: env.MAX_IMAGE_PIXELS, timeoutSeconds: env.PROCESSING_TIMEOUT_SECONDS };
}

/** Copies the original from storage to a temporary file (decoders want a path), and removes it after. */
async function withOriginalOnDisk<T>(photo: PhotoRow, work: (filePath: string) => Promise<T>): Promise<T> {
  const directory = path.join(getEnv().dataDirectory, "tmp");
  await fs.mkdir(directory, { recursive: true });
  const filePath = path.join(directory, `${photo.id}.${crypto.randomUUID()}.original`);
  try {
    const object = await getStorage().read(photo.original_key);
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
class PhotoDeletedError extends Error {}

async function encodeAndStore(photo: PhotoRow, decoded: DecodedPhoto, phase: VariantPhase): Promise<EncodedVariant[]> {
  const variants = await encodeVariants(decoded, phase, getLimits());
  const rows = await storeVariants(photo.id, variants);
  try {
    await insertVariants(getDb(), rows);
  } catch (error) {
    if (await findPhotoById(getDb(), photo.id)) throw error;
    // Deleted meanwhile: its files went with it, and these must not stay behind either.
    await deletePhotoFiles(photo);
    throw new PhotoDeletedError();
  }
  return variants;
}

async function processPhoto(job: JobRow): Promise<void> {
  const photo = job.photo_id ? await findPhotoById(getDb(), job.photo_id) : undefined;
  if (!photo) return; // Deleted while it waited.
  await withOriginalOnDisk(photo, async (filePath) => {
    const decoded = await decodePhoto(filePath, photo.original_type as ImageType, getLimits());

    // First what makes the photo visible: the smallest variants and the placeholder.
    const visible = await encodeAndStore(photo, decoded, "visible");
    const smallest = [...visible].sort((a, b) => a.width - b.width)[0];
    const placeholder = await makePlaceholder(smallest.bytes);
    const { exif, gps } = decoded.metadata;
    await updatePhoto(getDb(), photo.id, {
      status: "ready",
      failure_reason: null,
      width: decoded.width,
      height: decoded.height,
      taken_at: exif.takenAt,
      camera_make: exif.cameraMake,
      camera_model: exif.cameraModel,
      lens: exif.lens,
      focal_length: exif.focalLength,
      aperture: exif.aperture,
      exposure_time: exif.exposureTime,
      iso: exif.iso,
      gps_latitude: gps?.latitude ?? null,
      gps_longitude: gps?.longitude ?? null,
      gps_altitude: gps?.altitude ?? null,
      thumbhash: placeholder.thumbhash,
      dominant_color: placeholder.dominantColor,
      sort_at: exif.takenAt ?? photo.created_at,
      updated_at: new Date().toISOString(),
    });

    // Then the larger widths, and AVIF later still, behind other photos' first phase.
    await encodeAndStore(photo, decoded, "full");
  });
  await insertJob(getDb(), { kind: ENCODE_AVIF_JOB, photoId: photo.id, priority: AVIF_PRIORITY }, new Date().toISOString());
  notifyJobQueued();
}

async function encodeAvif(job: JobRow): Promise<void> {
  const photo = job.photo_id ? await findPhotoById(getDb(), job.photo_id) : undefined;
  if (!photo || photo.status !== "ready") return;
  await withOriginalOnDisk(photo, async (filePath) => {
    const decoded = await decodePhoto(filePath, photo.original_type as ImageType, getLimits());
    await encodeAndStore(photo, decoded, "avif");
  });
}

async function markFailed(job: JobRow, reason: string): Promise<void> {
  if (!job.photo_id) return;
  await updatePhoto(getDb(), job.photo_id, { status: "failed", failure_reason: reason.slice(0, 500), updated_at: new Date().toISOString() });
}

export const processPhotoJobHandler: JobHandler = { run: processPhoto, onFinalFailure: markFailed };
// A failed AVIF phase leaves the photo as it is: JPEG and WebP already serve it.
export const encodeAvifJobHandler: JobHandler = { run: encodeAvif };
