import { rm } from "node:fs/promises";
import { getDb } from "@/src/db/client";
import type { JobRow } from "@/src/db/database";
import type { ImageType } from "@/src/images/image-type-detector";
import { registerJobHandler } from "@/src/jobs/worker";
import { getLogger } from "@/src/log/logger";
import { extractMotionClip, queueMotionPlayable, queueMotionPlayableJob, replaceMotionClip } from "./motion-clip";
import { MOTION_CLIP_AGAIN_JOB } from "./photo-job-kinds";
import { withOriginalOnDisk } from "./photo-processing.job";
import { findPhotoByIdEvenTrashed } from "./photos.repository";

// photo.motion-clip: `contact-sheet reprocess` of a motion photo (an Android or Samsung still with
// an MP4 appended) cuts its clip out of the stored original again, as the upload did, since the
// locator may have learnt better since (Samsung's trailer after the clip, say), and puts it in
// place of the clip kept (whose file goes); the clip's playable copy is then made anew from it
// (motion-playable.job.ts). An original in which the locator finds no clip now keeps the clip it
// has: only its copy is made anew, as for a Live Photo, whose clip is a file of its own.

async function cutMotionClipAgain(job: JobRow): Promise<void> {
  const db = getDb();
  const photo = job.photo_id ? await findPhotoByIdEvenTrashed(db, job.photo_id) : undefined;
  const previousKey = photo?.motion_clip_key;
  if (!photo || !previousKey || photo.trashed_at !== null) return;
  const clip = await withOriginalOnDisk(photo, (originalPath) => extractMotionClip(originalPath, photo.original_type as ImageType, photo.original_name));
  if (!clip) {
    await db.transaction().execute((transaction) => queueMotionPlayableJob(transaction, photo.id));
    queueMotionPlayable();
    return;
  }
  try {
    const replaced = await replaceMotionClip(db, photo.id, previousKey, clip);
    getLogger().info({ photoId: photo.id, size: clip.size, replaced }, replaced ? "motion clip cut out of its original again" : "motion clip changed meanwhile: left as it is");
  } finally {
    await rm(clip.path, { force: true });
  }
}

/** Registered beside the motion clip's playable copy job (registerMotionPlayableJob). */
export function registerMotionClipAgainJob(): void {
  registerJobHandler(MOTION_CLIP_AGAIN_JOB, {
    run: cutMotionClipAgain,
    // The photo and its clip are as they were: never marked failed for this.
    onFinalFailure: async (job, reason) => {
      getLogger().warn({ photoId: job.photo_id, reason }, "motion clip not cut out again: the clip kept stays");
    },
  });
}
