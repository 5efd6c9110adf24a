import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import { getDb } from "@/src/db/client";
import type { JobRow } from "@/src/db/database";
import { AppError } from "@/src/errors/app-error";
import { registerJobHandler } from "@/src/jobs/worker";
import { getLogger } from "@/src/log/logger";
import { getStorage } from "@/src/storage/app-storage";
import { withTemporaryFile } from "@/src/storage/temporary-files";
import { getVideoLimits, getVideoTools, getVideoToolsStatus } from "@/src/video/configured-video-tools";
import { makePlayableCopy } from "@/src/video/playable-copy";
import { probeVideo, UnreadableVideoError } from "@/src/video/video-probe";
import { detectVideoType } from "@/src/video/video-type-detector";
import { announcePhotosChanged } from "./photo-changes";
import { variantPrefix } from "./photo-files";
import { registerMotionClipAgainJob } from "./motion-clip-again.job";
import { MOTION_PLAYABLE_JOB } from "./photo-job-kinds";
import { withOriginalOnDisk } from "./photo-processing.job";
import { findPhotoByIdEvenTrashed } from "./photos.repository";

// photo.motion: the copy of a motion photo's or Live Photo's clip that viewers play on hover or
// press. The clip as the phone wrote it carries the place it was filmed and the phone's make and
// model; the copy carries nothing but the picture: always transcoded to H.264 (an iPhone's clip is
// HEVC, which most browsers do not play; a clip is a few seconds, and decoding every frame is also
// what proves it plays), no sound (it plays muted), every metadata field dropped (-map_metadata -1).
// Stored under the photo's variant prefix and named by motion_playable_key, it is served by /media
// and share links exactly as a video's playable copy is: to whoever may see the photo, with Range.
// A clip that cannot be decoded leaves the photo a still: no copy, the reason logged, nothing failed.

async function readHead(filePath: string): Promise<Uint8Array> {
  const file = await fs.open(filePath, "r");
  try {
    const head = Buffer.alloc(64);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

async function hashFile(filePath: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(filePath)) hash.update(chunk as Buffer);
  return hash.digest("hex").slice(0, 20);
}

async function makeMotionPlayable(job: JobRow): Promise<void> {
  const photo = job.photo_id ? await findPhotoByIdEvenTrashed(getDb(), job.photo_id) : undefined;
  const clipKey = photo?.motion_clip_key;
  if (!photo || !clipKey) return;
  const tools = await getVideoToolsStatus();
  // Without ffmpeg the photo stays a still; the clip is kept, and `contact-sheet reprocess` can come back for it.
  if (!tools.available) throw new AppError("UNSUPPORTED_MEDIA_TYPE", `The motion clip cannot be played here: ${tools.message}`);
  const storage = getStorage();
  await withOriginalOnDisk({ ...photo, original_key: clipKey }, async (clipPath) => {
    const type = detectVideoType(await readHead(clipPath));
    if (!type) throw new AppError("INVALID_INPUT", "The motion clip is not a video we can read.");
    await withTemporaryFile("motion.mp4", async (copyPath) => {
      try {
        const probe = await probeVideo(getVideoTools(), clipPath, type, getVideoLimits());
        await makePlayableCopy(getVideoTools(), clipPath, type, probe, "transcode", copyPath, "drop");
      } catch (error) {
        if (error instanceof UnreadableVideoError) throw new AppError("INVALID_INPUT", `The motion clip cannot be played: ${error.message}`);
        throw error;
      }
      const { size } = await fs.stat(copyPath);
      const key = `${variantPrefix(photo.id)}motion-${await hashFile(copyPath)}.mp4`;
      await storage.putFile(key, copyPath, { contentType: "video/mp4", mayMoveSource: true });
      // Named only while the photo still has this clip; otherwise the copy belongs to nobody.
      const result = await getDb()
        .updateTable("photos")
        .set({ motion_playable_key: key, motion_playable_size: size, updated_at: new Date().toISOString() })
        .where("id", "=", photo.id)
        .where("motion_clip_key", "=", clipKey)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) {
        await storage.delete(key);
        return;
      }
      // An earlier copy (the job run again) is replaced, not kept.
      if (photo.motion_playable_key && photo.motion_playable_key !== key) await storage.delete(photo.motion_playable_key).catch(() => undefined);
      getLogger().info({ photoId: photo.id, size }, "motion clip made playable");
    });
  });
  announcePhotosChanged([photo.id]);
}

/** The motion clip jobs, for every process that runs a worker (registered with the video jobs). */
export function registerMotionPlayableJob(): void {
  registerMotionClipAgainJob();
  registerJobHandler(MOTION_PLAYABLE_JOB, {
    run: makeMotionPlayable,
    // The photo is a still that shows as it did: never marked failed for its clip.
    onFinalFailure: async (job, reason) => {
      getLogger().warn({ photoId: job.photo_id, reason }, "motion clip left unplayed: the photo stays a still");
    },
  });
}
