import { processSingleton } from "@/src/config/process-singleton";

/**
 * "People changed in this process": a face was found, drawn, moved or removed, or a person was
 * named, hidden, merged or split, or detection was turned off or a user withdrew their consent.
 * What is remembered from people's rows (the named centroids "is this X?" compares against,
 * named-centroids-cache.ts) listens and drops itself at once. Another process's change (a worker of
 * its own storing faces) reaches those caches through their short lifetimes.
 *
 * A photo's removal is announced by photos (announcePhotosChanged): its faces go by cascade, and the
 * caches that read faces listen to both.
 *
 * The listeners live on `globalThis` (processSingleton): Next.js may bundle this module more than once.
 */
type PeopleChangedListener = () => void;

function listeners(): Set<PeopleChangedListener> {
  return processSingleton("people-change-listeners", () => new Set<PeopleChangedListener>());
}

/** Calls `listener` after every change to faces or people in this process, until the returned function is called. */
export function onPeopleChanged(listener: PeopleChangedListener): () => void {
  listeners().add(listener);
  return () => listeners().delete(listener);
}

/** Tells every cache of people's rows that they changed (after the change has committed, never before). */
export function announcePeopleChanged(): void {
  for (const listener of listeners()) listener();
}
