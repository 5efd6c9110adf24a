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
 * Which photos changed, when the caller knows: a cache that can re-read only those (the map's
 * cluster indexes) does; null is "any photo may have changed", and every cache starts again.
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
 * Name the photos only when nothing else changed with them (no album, tag or user row).
 */
export function announcePhotosChanged(photoIds: ChangedPhotoIds = null): void {
  for (const listener of listeners()) listener(photoIds);
}
