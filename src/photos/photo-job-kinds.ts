// The names of the photo jobs in the queue, in a module of their own so the lifecycle can queue
// them and the jobs can call the lifecycle without the two importing each other.

/** A new photo's processing: its first variants, the EXIF summary, then its larger sizes. */
export const PROCESS_PHOTO_JOB = "photo.process";

/** Every variant made again after the owner turned the photo (its EXIF summary is left as it is). */
export const RENDER_PHOTO_JOB = "photo.render";

/** The place in words worked out again from coordinates the owner set by hand (the gazetteer lives in the worker). */
export const PLACE_LOOKUP_JOB = "photo.place";

/** A new video's processing: probe, poster frame and its variants; the video turns ready (src/photos/video-processing.job.ts). */
export const PROCESS_VIDEO_JOB = "video.process";

/** Then the copy browsers play, at low priority and one at a time per worker process. */
export const PLAYABLE_VIDEO_JOB = "video.playable";

/** The copy of a motion photo's or Live Photo's clip that viewers play (src/photos/motion-playable.job.ts). */
export const MOTION_PLAYABLE_JOB = "photo.motion";

/** A motion photo's clip cut out of its original again (`contact-sheet reprocess`), then made playable anew (src/photos/motion-clip-again.job.ts). */
export const MOTION_CLIP_AGAIN_JOB = "photo.motion-clip";

/** The job that processes a new (or retried) photo or video from its original. */
export function processingJobOf(mediaKind: "photo" | "video"): string {
  return mediaKind === "video" ? PROCESS_VIDEO_JOB : PROCESS_PHOTO_JOB;
}

/** Names the places of photos processed before places were stored (recurring, src/photos/place-backfill.job.ts). */
export const PLACE_BACKFILL_JOB = "photo.place-backfill";
