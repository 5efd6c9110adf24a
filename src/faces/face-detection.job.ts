import { buffer } from "node:stream/consumers";
import sharp from "sharp";
import { getDb } from "@/src/db/client";
import type { JobRow, PhotoVariantRow } from "@/src/db/database";
import { inTransaction } from "@/src/db/transaction";
import { insertJob } from "@/src/jobs/jobs.repository";
import { notifyJobQueued, registerJobHandler } from "@/src/jobs/worker";
import { getLogger } from "@/src/log/logger";
import { onPhotoFinished } from "@/src/photos/photo-finished";
import { findPhotoByIdEvenTrashed, listVariants } from "@/src/photos/photos.repository";
import { getStorage } from "@/src/storage/app-storage";
import { hasOwnerAgreed, hasPhotoOwnerAgreed } from "./face-consent.repository";
import { detectFaces, type DetectedFace } from "./face-detector";
import { BACKFILL_PRIORITY, DETECT_FACES_JOB, DETECT_PRIORITY, FACES_BACKFILL_JOB } from "./face-job-kinds";
import { capFaces, MAX_FACES_PER_PHOTO } from "./face-limits";
import { storeDetectedFaces } from "./face-storing";
import { consentTextVersion, isStillEnabled, readFaceSettings } from "./face-settings";
import { findUnscannedPhotoIds } from "./faces.repository";

// Face jobs are later phases (priority > 0): while uploads arrive the worker runs them only when a
// core is spare (cpu-headroom.ts), like a photo's larger sizes.
const BACKFILL_BATCH = 100;

/** Detection looks at this many pixels on the long side: face-api's measured sweet spot (0.6-1.2 s a photo). */
export const DETECTION_SIZE = 1024;
/** Below this on the short side no face can be found: the photo is recorded as looked at, with none. */
const MIN_DETECTION_SIDE = 32;

/**
 * The variant detection reads: the narrowest JPEG at least DETECTION_SIZE wide, else the widest
 * (a small photo). Never the original: it may be 100 MP, and variants are already upright.
 */
export function pickDetectionVariant(variants: readonly PhotoVariantRow[]): PhotoVariantRow | undefined {
  const jpegs = variants.filter((variant) => variant.format === "jpeg").sort((a, b) => a.width - b.width);
  return jpegs.find((variant) => Math.max(variant.width, variant.height) >= DETECTION_SIZE) ?? jpegs.at(-1);
}

/** Queues detection for a finished photo, when the site has people turned on and its owner agreed (face-consent.service.ts). */
async function queueFaceDetection(photoId: string): Promise<void> {
  const settings = await readFaceSettings(getDb());
  if (!settings.enabled) return;
  if (!(await hasPhotoOwnerAgreed(getDb(), photoId, consentTextVersion(settings.consentText)))) return;
  await insertJob(getDb(), { kind: DETECT_FACES_JOB, photoId, priority: DETECT_PRIORITY }, new Date().toISOString());
  notifyJobQueued();
}

interface Pixels {
  data: Buffer;
  width: number;
  height: number;
}

async function readDetectionPixels(variant: PhotoVariantRow): Promise<Pixels> {
  const object = await getStorage().read(variant.storage_key);
  const bytes = await buffer(object.body);
  const { data, info } = await sharp(bytes)
    .resize(DETECTION_SIZE, DETECTION_SIZE, { fit: "inside", withoutEnlargement: true })
    .removeAlpha()
    .toColourspace("srgb")
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}


async function detectPhotoFaces(job: JobRow): Promise<void> {
  const db = getDb();
  const settings = await readFaceSettings(db);
  if (!job.photo_id || !settings.enabled) return;
  const photo = await findPhotoByIdEvenTrashed(db, job.photo_id);
  if (!photo || photo.status !== "ready" || photo.trashed_at) return;
  // Queued before its owner said no (or before the words they agreed to changed): the model never
  // runs (storing checks again, in its transaction).
  if (!(await hasOwnerAgreed(db, photo.owner_id, consentTextVersion(settings.consentText)))) return;
  const variant = pickDetectionVariant(await listVariants(db, [photo.id]));
  if (!variant) return;
  const pixels = await readDetectionPixels(variant);
  let found: DetectedFace[] = [];
  if (Math.min(pixels.width, pixels.height) >= MIN_DETECTION_SIDE) {
    // One more than the cap, to know whether the cap cut anything off.
    found = (await detectFaces(pixels.data, pixels.width, pixels.height, MAX_FACES_PER_PHOTO + 1)).faces;
  }
  const { faces, isCapped } = capFaces(found);
  const stored = await storeDetectedFaces(db, { photoId: photo.id, ownerId: photo.owner_id, size: { width: pixels.width, height: pixels.height }, faces, isCapped });
  getLogger().debug({ photoId: photo.id, faces: faces.length, isCapped, stored }, "faces detected");
}

/** Queues the next batch of photos not looked at yet, and itself after them while any remain. */
async function backfillFaces(): Promise<void> {
  const db = getDb();
  const settings = await readFaceSettings(db);
  if (!settings.enabled) return;
  const photoIds = await findUnscannedPhotoIds(db, DETECT_FACES_JOB, BACKFILL_BATCH, consentTextVersion(settings.consentText));
  if (photoIds.length === 0) return;
  const now = new Date().toISOString();
  await inTransaction(db, async (transaction) => {
    // Turned off since the check above: queue nothing (the "off" deleted what was queued before).
    if (!(await isStillEnabled(transaction))) return;
    for (const photoId of photoIds) await insertJob(transaction, { kind: DETECT_FACES_JOB, photoId, priority: DETECT_PRIORITY }, now);
    await insertJob(transaction, { kind: FACES_BACKFILL_JOB, photoId: null, priority: BACKFILL_PRIORITY }, now);
  });
  notifyJobQueued();
}

/** Face detection's jobs, for every process that runs a worker, and the hook that queues them. */
export function registerFaceJobs(): void {
  registerJobHandler(DETECT_FACES_JOB, { run: detectPhotoFaces });
  registerJobHandler(FACES_BACKFILL_JOB, { run: backfillFaces });
  onPhotoFinished(queueFaceDetection);
}
