// The names of face detection's jobs, in a module of their own so the settings service can queue
// and cancel them without importing the job (and through it sharp and the detector's launcher).

/** One photo's face detection. */
export const DETECT_FACES_JOB = "photo.faces";
/** Queues the next batch of existing photos for detection, then itself again until none is left. */
export const FACES_BACKFILL_JOB = "faces.backfill";
/** After every photo's visible (0) and finishing (5) phases: detection never delays "ready". */
export const DETECT_PRIORITY = 20;
/** The backfill runs after the photos it queued. */
export const BACKFILL_PRIORITY = 30;
