import { processSingleton } from "@/src/config/process-singleton";

/**
 * "Photos changed in this process": one was created, processed, edited, made private or removed.
 * What is cached from photo rows (the anonymous gallery's HTML, the dashboard's counts) listens and
 * drops itself at once. Changes made by another process reach those caches through their short
 * lifetimes, and anything that stops being public also through the media access version, which
 * every instance reads before it answers from memory.
 *
 * The listeners live on `globalThis`: Next.js may bundle this module more than once, and server.mjs
 * reaches the page cache without a bundle; one symbol names one list for all of them.
 */
/**
 * Which photos' own rows changed, when the caller knows: a cache of photos' rows alone (the map's
 * cluster indexes) re-reads only those; an empty list says no photo's row changed (a tag or an
 * album's contents did), and such a cache keeps what it has. null is "any photo may have changed".
 * A cache that holds more than photos' own rows (tags, albums, counts, pages) starts again on every
 * announcement, whatever it names.
 */
export type ChangedPhotoIds = readonly string[] | null;

type PhotosChangedListener = (photoIds: ChangedPhotoIds) => void;

function listeners(): Set<PhotosChangedListener> {
  return processSingleton("photo-change-listeners", () => new Set<PhotosChangedListener>());
}

/** Calls `listener` after every change to photos in this process, until the returned function is called. */
export function onPhotosChanged(listener: PhotosChangedListener): () => void {
  listeners().add(listener);
  return () => listeners().delete(listener);
}

/**
 * Tells every cache of photo rows that they changed (after the change has committed, never before).
 * Name the photos whose rows changed when every one of them is known (uploads, processing, jobs,
 * edits): then the map patches itself instead of reading every photo again. Leave it null when
 * photos changed that the caller did not list (a user's removal, a bulk change by a condition).
 */
export function announcePhotosChanged(photoIds: ChangedPhotoIds = null): void {
  for (const listener of listeners()) listener(photoIds);
}
