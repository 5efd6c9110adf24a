import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import { getEnv } from "@/src/config/env";
import { getDb } from "@/src/db/client";
import type { JobRow, PhotoRow } from "@/src/db/database";
import { AppError } from "@/src/errors/app-error";
import { decodePhoto } from "@/src/images/photo-decoder";
import { makePlaceholder } from "@/src/images/placeholder-maker";
import { insertJob } from "@/src/jobs/jobs.repository";
import { notifyJobQueued, registerJobHandler } from "@/src/jobs/worker";
import { getLogger } from "@/src/log/logger";
import { getStorage } from "@/src/storage/app-storage";
import { withTemporaryFile } from "@/src/storage/temporary-files";
import { getVideoLimits, getVideoTools } from "@/src/video/configured-video-tools";
import { decidePlayableCopy, makePlayableCopy } from "@/src/video/playable-copy";
import { extractPosterFrame } from "@/src/video/poster-frame";
import { probeVideo, UnreadableVideoError, type VideoProbe } from "@/src/video/video-probe";
import type { VideoType } from "@/src/video/video-type-detector";
import { cameraSlug } from "./camera-slug";
import { registerMotionPlayableJob } from "./motion-playable.job";
import { announcePhotosChanged } from "./photo-changes";
import { variantPrefix } from "./photo-files";
import { PLAYABLE_VIDEO_JOB, PROCESS_VIDEO_JOB } from "./photo-job-kinds";
import { encodeAndStore, getProcessingLimits, markFailed, PhotoDeletedError, withOriginalOnDisk } from "./photo-processing.job";
import { placeColumnsFromFile } from "./photo-place";
import { updatePlaceUnlessManual } from "./photo-places.repository";
import { findPhotoByIdEvenTrashed, updatePhoto, updateTakenAtUnlessOwners } from "./photos.repository";
import { handOverVideoProbe, takeVideoProbe } from "./video-probe-handoff";

// After every photo's visible phase (0), turn (1) and larger sizes (5): a transcode takes minutes.
const PLAYABLE_PRIORITY = 20;

/** A video's file as ffmpeg reads it: a failure ffmpeg explains is the file's fault, for good (422). */
function asPermanent(error: unknown): unknown {
  return error instanceof UnreadableVideoError ? new AppError("INVALID_INPUT", `The video could not be processed: ${error.message}`) : error;
}

/**
 * video.process: takes the upload's probe when this process received it, else probes the original
 * again (the worker may be another process than the upload's); takes its poster frame and makes of
 * it every variant a photo has (the same sizes, formats and placeholder, so every list shows a
 * video as it shows a photo), records what the probe found and turns the video ready. Then queues
 * its playable copy, handing it the probe.
 */
async function processVideo(job: JobRow): Promise<void> {
  const photo = job.photo_id ? await findPhotoByIdEvenTrashed(getDb(), job.photo_id) : undefined;
  if (!photo) return;
  const type = photo.original_type as VideoType;
  let probe: VideoProbe;
  try {
    probe = await withOriginalOnDisk(photo, async (originalPath) => {
      const probed = takeVideoProbe(photo.id) ?? (await probeVideo(getVideoTools(), originalPath, type, getVideoLimits()));
      await withTemporaryFile("poster.png", async (posterPath) => {
        await extractPosterFrame(getVideoTools(), originalPath, type, probed, posterPath);
        const decoded = await decodePhoto(posterPath, "png", getProcessingLimits(), {});
        const visible = await encodeAndStore(photo, decoded, "visible");
        await encodeAndStore(photo, decoded, "full");
        await encodeAndStore(photo, decoded, "avif").catch((error: unknown) => {
          if (error instanceof PhotoDeletedError) throw error;
          getLogger().warn({ err: error, photoId: photo.id }, "AVIF variants of a poster could not be made");
        });
        const smallest = [...visible].sort((a, b) => a.width - b.width)[0];
        const placeholder = await makePlaceholder(smallest.bytes);
        await recordProbe(photo, probed, { width: decoded.originalWidth, height: decoded.originalHeight, ...placeholder });
      });
      return probed;
    });
  } catch (error) {
    if (error instanceof PhotoDeletedError) return;
    throw asPermanent(error);
  }
  announcePhotosChanged([photo.id]);
  // The playable copy's job, when this process's worker takes it, starts without probing again.
  handOverVideoProbe(photo.id, probe);
  await insertJob(getDb(), { kind: PLAYABLE_VIDEO_JOB, photoId: photo.id, priority: PLAYABLE_PRIORITY }, new Date().toISOString());
  notifyJobQueued();
}

async function recordProbe(photo: PhotoRow, probe: VideoProbe, poster: { width: number; height: number; thumbhash: string; dominantColor: string }): Promise<void> {
  // As for a photo: a date or place the owner set by hand outlives processing again.
  await updateTakenAtUnlessOwners(getDb(), photo.id, probe.takenAt, photo.created_at);
  await updatePlaceUnlessManual(getDb(), photo.id, placeColumnsFromFile(photo, probe.gps));
  await updatePhoto(getDb(), photo.id, {
    status: "ready",
    failure_reason: null,
    // The poster's size: upright, as the video is shown.
    width: poster.width,
    height: poster.height,
    duration_ms: probe.durationMs,
    video_codec: probe.audioCodec ? `${probe.videoCodec}/${probe.audioCodec}` : probe.videoCodec,
    camera_make: probe.cameraMake,
    camera_model: probe.cameraModel,
    camera_slug: cameraSlug(probe.cameraMake, probe.cameraModel),
    thumbhash: poster.thumbhash,
    dominant_color: poster.dominantColor,
    updated_at: new Date().toISOString(),
  });
}

/**
 * One playable copy at a time in this process: a transcode keeps both of a small server's cores
 * busy, and photos arriving meanwhile must still be made visible by the other slot. A second copy
 * waits here for the first (holding its slot, which is the price of not touching the queue's order).
 */
let playableQueue: Promise<void> = Promise.resolve();
function oneAtATime(work: () => Promise<void>): Promise<void> {
  const run = playableQueue.then(work, work);
  playableQueue = run.catch(() => undefined);
  return run;
}

/**
 * video.playable: the copy every browser plays and everyone but the owner gets (makePlayableCopy:
 * H.264/AAC MP4, metadata stripped; remuxed when the original already is that, transcoded
 * otherwise), stored under the photo's variant prefix with a name from its content, then named on
 * the row. A video deleted meanwhile leaves no file behind.
 */
async function makePlayable(job: JobRow): Promise<void> {
  const photo = job.photo_id ? await findPhotoByIdEvenTrashed(getDb(), job.photo_id) : undefined;
  if (!photo || photo.media_kind !== "video") return;
  const type = photo.original_type as VideoType;
  const storage = getStorage();
  try {
    await withOriginalOnDisk(photo, async (originalPath) => {
      const tools = getVideoTools();
      const probe = takeVideoProbe(photo.id) ?? (await probeVideo(tools, originalPath, type, getVideoLimits()));
      const plan = decidePlayableCopy(type, probe, getEnv().VIDEO_PLAYABLE_MAX_BITRATE);
      await withTemporaryFile("playable.mp4", async (copyPath) => {
        const started = performance.now();
        await makePlayableCopy(tools, originalPath, type, probe, plan, copyPath);
        const { size } = await fs.stat(copyPath);
        const digest = await hashFile(copyPath);
        const key = `${variantPrefix(photo.id)}playable-${digest}.mp4`;
        await storage.putFile(key, copyPath, { contentType: "video/mp4", mayMoveSource: true });
        getLogger().info({ photoId: photo.id, plan, size, seconds: Math.round(performance.now() - started) / 1000 }, "playable copy made");
        const current = await findPhotoByIdEvenTrashed(getDb(), photo.id);
        if (!current) {
          await storage.delete(key);
          return;
        }
        await updatePhoto(getDb(), photo.id, { playable_key: key, playable_size: size, updated_at: new Date().toISOString() });
        // An earlier copy (a retried job) is replaced, not kept.
        if (current.playable_key && current.playable_key !== key) await storage.delete(current.playable_key).catch(() => undefined);
      });
    });
  } catch (error) {
    throw asPermanent(error);
  }
  announcePhotosChanged([photo.id]);
}

async function hashFile(filePath: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(filePath)) hash.update(chunk as Buffer);
  return hash.digest("hex").slice(0, 20);
}

/** The video jobs, for every process that runs a worker (the server's boot and npm run worker). */
export function registerVideoJobs(): void {
  registerJobHandler(PROCESS_VIDEO_JOB, { run: processVideo, onFinalFailure: markFailed });
  // Without a playable copy the video cannot be watched: shown as failed, with the reason and a retry.
  registerJobHandler(PLAYABLE_VIDEO_JOB, { run: (job) => oneAtATime(() => makePlayable(job)), onFinalFailure: markFailed });
  registerMotionPlayableJob();
}
