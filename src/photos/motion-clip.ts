import "server-only";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { DatabaseHandle } from "@/src/db/client";
import type { ImageType } from "@/src/images/image-type-detector";
import { locateMotionClip } from "@/src/images/motion/motion-photo-locator";
import { insertJob } from "@/src/jobs/jobs.repository";
import { notifyJobQueued } from "@/src/jobs/worker";
import { getLogger } from "@/src/log/logger";
import { getStorage } from "@/src/storage/app-storage";
import { getTemporaryDirectory, ownedTemporaryName } from "@/src/storage/temporary-files";
import { announcePhotosChanged } from "./photo-changes";
import { companionPrefix } from "./photo-files";
import { MOTION_CLIP_AGAIN_JOB, MOTION_PLAYABLE_JOB } from "./photo-job-kinds";

// After a photo's visible phase and larger sizes, before a video's transcode (20): a clip is seconds long.
const MOTION_PLAYABLE_PRIORITY = 10;

// Motion photos: Android phones (Google's format, Samsung's too) append an MP4 to the JPEG or HEIC
// still and say where in the still's XMP. On upload the clip is copied out into a file of its own,
// kept beside the photo as its motion clip (GET /api/photos/[id]/motion, the original's rule), and a
// copy without sound or metadata is made for viewers to play (motion-playable.job.ts). The
// original is stored untouched, clip included: it is the file the phone made (and what its SHA-256
// names), every decoder reads the still from it, and a download copy for anyone else is made from
// the still alone (a JPEG's rewrite stops at its end-of-image, a HEIC's copy is a variant).

/** A clip copied out of an upload, waiting for its photo. */
export interface ExtractedMotionClip {
  path: string;
  size: number;
}

/**
 * Copies the appended clip of a motion photo into a temporary file (the caller removes it), or
 * answers null for an ordinary photo and for a motion photo whose clip cannot be taken (its reason
 * logged; the photo is then a still alone).
 */
export async function extractMotionClip(sourcePath: string, type: ImageType, fileName: string): Promise<ExtractedMotionClip | null> {
  if (type !== "jpeg" && type !== "heic") return null;
  const answer = await locateMotionClip(sourcePath);
  if (answer.kind === "none") return null;
  if (answer.kind === "unusable") {
    getLogger().warn({ fileName, reason: answer.reason }, "motion photo kept as a still alone: its clip cannot be taken");
    return null;
  }
  const directory = getTemporaryDirectory();
  await fs.mkdir(directory, { recursive: true });
  const clipPath = path.join(directory, ownedTemporaryName("motion-clip"));
  const { start, length } = answer.clip;
  try {
    await pipeline(createReadStream(sourcePath, { start, end: start + length - 1 }), createWriteStream(clipPath));
  } catch (error) {
    await fs.rm(clipPath, { force: true });
    throw error;
  }
  return { path: clipPath, size: length };
}

/**
 * Records a stored clip as the photo's motion clip, and queues the job that makes the copy viewers
 * play (motion-playable.job.ts), in the caller's transaction, so there is never a clip without its
 * job. Only where the photo has no clip yet and is not in the trash: of two clips racing for one
 * photo, the first wins. Answers whether it was recorded; the caller wakes the worker after commit
 * (queueMotionPlayable) or deletes the stored clip.
 */
export async function recordMotionClip(db: DatabaseHandle, photoId: string, key: string, size: number): Promise<boolean> {
  const result = await db
    .updateTable("photos")
    .set({ motion_clip_key: key, motion_clip_size: size, updated_at: new Date().toISOString() })
    .where("id", "=", photoId)
    .where("motion_clip_key", "is", null)
    .where("trashed_at", "is", null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return false;
  await queueMotionPlayableJob(db, photoId);
  return true;
}

/**
 * Queues the job that makes a photo's motion clip the copy viewers play, in the caller's
 * transaction: for a clip just recorded, or a clip's copy made anew (`contact-sheet reprocess`;
 * the job replaces the old copy and deletes its file). The caller wakes the worker after commit.
 */
export async function queueMotionPlayableJob(db: DatabaseHandle, photoId: string): Promise<void> {
  await insertJob(db, { kind: MOTION_PLAYABLE_JOB, photoId, priority: MOTION_PLAYABLE_PRIORITY }, new Date().toISOString());
}

/**
 * For `contact-sheet reprocess`, in the caller's transaction: the clip's playable copy made anew,
 * or first, for a motion photo, the clip cut out of its original again (motion-clip-again.job.ts,
 * which then queues the copy). The caller wakes the worker after commit (queueMotionPlayable).
 */
export async function queueMotionClipJob(db: DatabaseHandle, photoId: string, work: "cut again" | "playable copy"): Promise<void> {
  if (work === "playable copy") return queueMotionPlayableJob(db, photoId);
  await insertJob(db, { kind: MOTION_CLIP_AGAIN_JOB, photoId, priority: MOTION_PLAYABLE_PRIORITY }, new Date().toISOString());
}

/** After the transaction that recorded a clip has committed: the worker makes its playable copy. */
export function queueMotionPlayable(): void {
  notifyJobQueued();
}

/** Where a clip cut out of a motion photo is stored: a new name each time, so a replaced one is never overwritten in place. */
function newMotionClipKey(photoId: string): string {
  return `${companionPrefix(photoId)}motion-${crypto.randomUUID()}.mp4`;
}

/**
 * Stores an extracted clip as the photo's motion clip, unless it has one (the same bytes uploaded
 * twice at once): then the stored copy is deleted again. The caller removes the temporary file.
 */
export async function keepMotionClip(db: DatabaseHandle, photoId: string, clip: ExtractedMotionClip): Promise<void> {
  const key = newMotionClipKey(photoId);
  const storage = getStorage();
  await storage.putFile(key, clip.path, { contentType: "video/mp4" });
  try {
    const recorded = await db.transaction().execute((transaction) => recordMotionClip(transaction, photoId, key, clip.size));
    if (!recorded) await storage.delete(key);
  } catch (error) {
    await storage.delete(key).catch((deleteError: unknown) => getLogger().error({ err: deleteError, key }, "orphan motion clip left"));
    throw error;
  }
  queueMotionPlayable();
  announcePhotosChanged([photoId]);
}

/**
 * Puts a clip cut out of the original anew (`contact-sheet reprocess`, after the locator learnt
 * better) in place of the photo's clip `previousKey`, with the job that makes its playable copy
 * anew (which deletes the old copy's file), in one transaction; then deletes the previous clip's
 * file, so no file is left that no row names. Only while the photo still has that clip and is not
 * in the trash: otherwise the new file is deleted again and false answered. The caller removes the
 * temporary file.
 */
export async function replaceMotionClip(db: DatabaseHandle, photoId: string, previousKey: string, clip: ExtractedMotionClip): Promise<boolean> {
  const key = newMotionClipKey(photoId);
  const storage = getStorage();
  await storage.putFile(key, clip.path, { contentType: "video/mp4" });
  let replaced: boolean;
  try {
    replaced = await db.transaction().execute(async (transaction) => {
      const result = await transaction
        .updateTable("photos")
        .set({ motion_clip_key: key, motion_clip_size: clip.size, updated_at: new Date().toISOString() })
        .where("id", "=", photoId)
        .where("motion_clip_key", "=", previousKey)
        .where("trashed_at", "is", null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await queueMotionPlayableJob(transaction, photoId);
      return true;
    });
  } catch (error) {
    await storage.delete(key).catch((deleteError: unknown) => getLogger().error({ err: deleteError, key }, "orphan motion clip left"));
    throw error;
  }
  if (!replaced) {
    await storage.delete(key);
    return false;
  }
  // After commit: a failed delete leaves a file no row names, which the orphan check reports.
  await storage.delete(previousKey).catch((error: unknown) => getLogger().error({ err: error, key: previousKey }, "replaced motion clip left behind"));
  queueMotionPlayable();
  announcePhotosChanged();
  return true;
}
