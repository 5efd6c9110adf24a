import "server-only";
import type { SessionUser } from "@/src/access/viewer";
import type { DatabaseHandle } from "@/src/db/client";
import { AppError } from "@/src/errors/app-error";
import { afterPhotoRenderQueued, queuePhotoRender } from "./photo-lifecycle";
import { retryPhotoProcessing } from "./processing-queue.service";
import { listLatestJobs } from "./processing-queue.repository";
import { listPhotoIdsWithStatus, listPhotoStatuses } from "./reprocess.repository";

// Processing photos again from their stored originals, for `contact-sheet reprocess` (after a
// decoder got better, or to finish what failed): a failed photo is retried as the queue page
// retries it (processed from scratch); a ready one has its variants made again and swapped in, as a
// turn does. A photo still processing is left alone. Admins only: it touches everyone's photos.

export type ReprocessSelection = { kind: "failed" } | { kind: "all" } | { kind: "ids"; ids: string[] };

export interface ReprocessQueued {
  /** The photos queued, to follow with reprocessProgress. */
  photoIds: string[];
  retried: number;
  rendered: number;
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

export async function queueReprocessing(db: DatabaseHandle, actor: SessionUser, selection: ReprocessSelection): Promise<ReprocessQueued> {
  if (actor.role !== "admin") throw new AppError("FORBIDDEN", "Only admins can process photos again.");
  const ids =
    selection.kind === "ids"
      ? [...new Set(selection.ids)]
      : (await listPhotoIdsWithStatus(db, selection.kind === "failed" ? ["failed"] : ["failed", "ready"])).map((row) => row.id);
  const queued: ReprocessQueued = { photoIds: [], retried: 0, rendered: 0, skipped: [] };
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
      queued.retried += 1;
      queued.photoIds.push(id);
    } else {
      const now = new Date().toISOString();
      await db.transaction().execute((transaction) => queuePhotoRender(transaction, id, now));
      queued.rendered += 1;
      queued.photoIds.push(id);
    }
  }
  if (queued.rendered > 0) afterPhotoRenderQueued();
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
    // listLatestJobs answers every job of these photos, oldest first: the last one per photo counts.
    const latestJob = new Map(jobs.map((job) => [job.photo_id, job.status]));
    for (const photo of photos) {
      const job = latestJob.get(photo.id);
      if (photo.status === "processing" || job === "queued" || job === "running") progress.waiting += 1;
      else if (photo.status === "failed") progress.failed += 1;
      else progress.done += 1;
    }
  }
  return progress;
}
