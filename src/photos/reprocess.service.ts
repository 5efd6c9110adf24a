import "server-only";
import type { SessionUser } from "@/src/access/viewer";
import type { DatabaseHandle } from "@/src/db/client";
import type { PhotoRow } from "@/src/db/database";
import { AppError } from "@/src/errors/app-error";
import { queueMotionClipJob, queueMotionPlayable } from "./motion-clip";
import { afterPhotoRenderQueued, queuePhotoRender } from "./photo-lifecycle";
import { retryPhotoProcessing } from "./processing-queue.service";
import { listLatestJobs } from "./processing-queue.repository";
import { listPhotoIdsWithStatus, listPhotoStatuses } from "./reprocess.repository";

// Processing photos again from their stored originals, for `contact-sheet reprocess` (after a
// decoder got better, or to finish what failed): a failed photo is retried as the queue page
// retries it (processed from scratch); a ready one has its variants made again and swapped in, as a
// turn does. Either way a photo with a motion clip (a Live Photo's MOV, a motion photo's MP4) has
// the copy viewers play made anew from it too (motion-playable.job.ts, which deletes the old copy's
// file), or made at last where it never was (ffmpeg missing then, or a clip it could not decode);
// a motion photo's clip is first cut out of its original again (motion-clip-again.job.ts, which
// deletes the old clip's file).
// A photo still processing is left alone. Admins only: it touches everyone's photos.

export type ReprocessSelection = { kind: "failed" } | { kind: "all" } | { kind: "ids"; ids: string[] };

export interface ReprocessQueued {
  /** The photos queued, to follow with reprocessProgress. */
  photoIds: string[];
  retried: number;
  rendered: number;
  /** Of those, the photos whose motion clip's playable copy is made anew too. */
  motionClips: number;
  /** Of those, the motion photos whose clip is cut out of the original again first. */
  motionClipsCutAgain: number;
  skipped: Array<{ id: string; reason: string }>;
}

export interface ReprocessProgress {
  /** Queued or being worked on. */
  waiting: number;
  done: number;
  failed: number;
}

/** How many ids one query names. */
const IDS_PER_QUERY = 500;

function inBatches<T>(items: readonly T[]): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += IDS_PER_QUERY) batches.push(items.slice(start, start + IDS_PER_QUERY));
  return batches;
}

async function statusesOf(db: DatabaseHandle, ids: readonly string[]) {
  return (await Promise.all(inBatches(ids).map((batch) => listPhotoStatuses(db, batch)))).flat();
}

type MotionFacts = Pick<PhotoRow, "id" | "motion_clip_key" | "original_type" | "live_content_id">;

/** A still whose clip was cut out of it (Android's and Samsung's motion photos), not a Live Photo's MOV kept beside it. */
function isMotionPhoto(photo: MotionFacts): boolean {
  return (photo.original_type === "jpeg" || photo.original_type === "heic") && photo.live_content_id === null;
}

export async function queueReprocessing(db: DatabaseHandle, actor: SessionUser, selection: ReprocessSelection): Promise<ReprocessQueued> {
  if (actor.role !== "admin") throw new AppError("FORBIDDEN", "Only admins can process photos again.");
  const ids =
    selection.kind === "ids"
      ? [...new Set(selection.ids)]
      : (await listPhotoIdsWithStatus(db, selection.kind === "failed" ? ["failed"] : ["failed", "ready"])).map((row) => row.id);
  const queued: ReprocessQueued = { photoIds: [], retried: 0, rendered: 0, motionClips: 0, motionClipsCutAgain: 0, skipped: [] };
  const queueMotion = async (transaction: DatabaseHandle, photo: MotionFacts) => {
    if (!photo.motion_clip_key) return;
    const cutAgain = isMotionPhoto(photo);
    await queueMotionClipJob(transaction, photo.id, cutAgain ? "cut again" : "playable copy");
    queued.motionClips += 1;
    if (cutAgain) queued.motionClipsCutAgain += 1;
  };
  const viewer = { kind: "user" as const, user: actor };
  const current = new Map((await statusesOf(db, ids)).map((row) => [row.id, row]));
  for (const id of ids) {
    const photo = current.get(id);
    if (!photo) {
      queued.skipped.push({ id, reason: "no such photo" });
    } else if (photo.trashed_at !== null) {
      queued.skipped.push({ id, reason: "in the trash" });
    } else if (photo.status === "processing") {
      queued.skipped.push({ id, reason: "already processing" });
    } else if (photo.status === "failed") {
      await retryPhotoProcessing(db, viewer, id);
      await queueMotion(db, photo);
      queued.retried += 1;
      queued.photoIds.push(id);
    } else {
      const now = new Date().toISOString();
      await db.transaction().execute(async (transaction) => {
        await queuePhotoRender(transaction, id, now);
        await queueMotion(transaction, photo);
      });
      queued.rendered += 1;
      queued.photoIds.push(id);
    }
  }
  if (queued.rendered > 0) afterPhotoRenderQueued();
  if (queued.motionClips > 0) queueMotionPlayable();
  return queued;
}

/**
 * Where the queued photos are: waiting while the photo is processing or its latest job is queued
 * or running; then done (ready) or failed. Reads only the database, so it sees a worker in any
 * process.
 */
export async function reprocessProgress(db: DatabaseHandle, photoIds: readonly string[]): Promise<ReprocessProgress> {
  const progress: ReprocessProgress = { waiting: 0, done: 0, failed: 0 };
  for (const batch of inBatches(photoIds)) {
    const [photos, jobs] = await Promise.all([listPhotoStatuses(db, batch), listLatestJobs(db, batch)]);
    // listLatestJobs answers every job of these photos: one still queued or running (its variants,
    // its motion clip's copy) keeps the photo waiting; earlier ones ended long ago.
    const withJobUnderWay = new Set(jobs.filter((job) => job.status === "queued" || job.status === "running").map((job) => job.photo_id));
    for (const photo of photos) {
      if (photo.status === "processing" || withJobUnderWay.has(photo.id)) progress.waiting += 1;
      else if (photo.status === "failed") progress.failed += 1;
      else progress.done += 1;
    }
  }
  return progress;
}
