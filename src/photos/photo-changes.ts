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
function listeners(): Set<() => void> {
  return processSingleton("photo-change-listeners", () => new Set<() => void>());
}

/** Calls `listener` after every change to photos in this process, until the returned function is called. */
export function onPhotosChanged(listener: () => void): () => void {
  listeners().add(listener);
  return () => listeners().delete(listener);
}

/** Tells every cache of photo rows that they changed (after the change has committed, never before). */
export function announcePhotosChanged(): void {
  for (const listener of listeners()) listener();
}
