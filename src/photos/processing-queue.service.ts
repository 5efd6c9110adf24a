import "server-only";
import { hasRole } from "@/src/access/roles";
import type { DatabaseHandle } from "@/src/db/client";
import type { PhotoRow } from "@/src/db/database";
import { AppError } from "@/src/errors/app-error";
import { insertJob } from "@/src/jobs/jobs.repository";
import { notifyJobQueued } from "@/src/jobs/worker";
import type { SessionUser, Viewer } from "@/src/access/viewer";
import { canEditPhoto, canViewPhoto } from "./photo-access";
import { processingJobOf } from "./photo-job-kinds";
import { findPhotoById } from "./photos.repository";
import { announcePhotosChanged } from "./photo-changes";
import { countPhotosByStatusRemembered } from "./photo-counts";
import { listLatestJobs, listUnfinishedPhotos } from "./processing-queue.repository";

const QUEUE_LENGTH = 100;

export interface QueuedPhoto {
  id: string;
  name: string;
  ownerName: string;
  status: PhotoRow["status"];
  /** "waiting" until a worker claims it, "running" while one works on it; null once failed. */
  stage: "waiting" | "running" | null;
  attempts: number;
  failureReason: string | null;
  uploadedAt: string;
}

export interface ProcessingQueue {
  counts: Record<PhotoRow["status"], number>;
  photos: QueuedPhoto[];
}

/**
 * What /admin shows: photos still processing and photos that failed, with why. Editors see their
 * own photos; admins see everyone's.
 */
export async function getProcessingQueue(db: DatabaseHandle, viewer: SessionUser): Promise<ProcessingQueue> {
  if (!hasRole(viewer.role, "editor")) throw new AppError("FORBIDDEN", "Only editors and admins see the processing queue.");
  const ownerId = viewer.role === "admin" ? null : viewer.id;
  const [counts, rows] = await Promise.all([countPhotosByStatusRemembered(db, ownerId), listUnfinishedPhotos(db, { ownerId, limit: QUEUE_LENGTH })]);
  const latestJobByPhoto = new Map((await listLatestJobs(db, rows.map((row) => row.id))).map((job) => [job.photo_id, job]));
  return {
    counts,
    photos: rows.map((row) => {
      const job = latestJobByPhoto.get(row.id);
      return {
        id: row.id,
        name: row.original_name,
        ownerName: row.owner_name,
        status: row.status,
        stage: row.status === "processing" ? (job?.status === "running" ? "running" : "waiting") : null,
        attempts: job?.attempts ?? 0,
        failureReason: row.failure_reason,
        uploadedAt: row.created_at,
      };
    }),
  };
}

/**
 * Runs a failed photo's processing again from its stored original. Only someone who may edit the
 * photo may retry it; anyone who may not even see it gets the same 404 as for a missing photo.
 * `db` opens a transaction, so it must not be a transaction itself.
 */
export async function retryPhotoProcessing(db: DatabaseHandle, viewer: Viewer, id: string): Promise<void> {
  const photo = await findPhotoById(db, id);
  if (!photo || !canViewPhoto(viewer, photo)) throw new AppError("NOT_FOUND", "No such photo.");
  if (!canEditPhoto(viewer, photo)) throw new AppError("FORBIDDEN", "You may not change this photo.");
  if (photo.status !== "failed") throw new AppError("CONFLICT", "Only a photo whose processing failed can be retried.");
  const now = new Date().toISOString();
  await db
    .transaction()
    .execute(async (transaction) => {
      // The status guard makes two retries at once queue one job, not two.
      const result = await transaction
        .updateTable("photos")
        .set({ status: "processing", failure_reason: null, updated_at: now })
        .where("id", "=", id)
        .where("status", "=", "failed")
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw new AppError("CONFLICT", "This photo is already being processed again.");
      await insertJob(transaction, { kind: processingJobOf(photo.media_kind), photoId: id, priority: 0 }, now);
    });
  announcePhotosChanged([id]);
  notifyJobQueued();
}
