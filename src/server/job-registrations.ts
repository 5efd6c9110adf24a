import { processSingleton } from "@/src/config/process-singleton";
import { registerFaceJobs } from "@/src/faces/face-detection.job";
import { registerPhotoJobs } from "@/src/photos/photo-processing.job";
import { registerVideoJobs } from "@/src/photos/video-processing.job";
import { registerFileKeywordTags } from "@/src/tags/file-keyword-tags";

/**
 * Every job handler and change listener a process that may run jobs needs, in one list that both
 * the server (boot.ts) and `npm run worker` (scripts/worker.ts) register: a worker missing one
 * would leave that kind of job queued forever, or a photo's keywords never made tags, and only on
 * sites that run separate workers. A new kind or listener is a line here.
 * (Recurring work has its own list, RECURRING_JOBS in recurring-work.ts, which both start.)
 */
export const JOB_REGISTRATIONS: ReadonlyArray<{ name: string; register: () => void }> = [
  // photo.process, photo.finish, photo.render and the place lookup.
  { name: "photos", register: registerPhotoJobs },
  // video.process, video.playable and a motion photo's clip.
  { name: "videos", register: registerVideoJobs },
  // photo.faces, faces.backfill, and the listener that queues detection when a photo is finished.
  { name: "faces", register: registerFaceJobs },
  // The listener that makes the keywords read from a photo's file its tags.
  { name: "file keywords", register: registerFileKeywordTags },
];

/** Registers the list once per process: a listener registered twice would run twice. */
export function registerJobsAndListeners(): void {
  processSingleton("job-registrations", () => {
    for (const registration of JOB_REGISTRATIONS) registration.register();
    return true;
  });
}
