import { processSingleton } from "@/src/config/process-singleton";

/**
 * "People changed in this process": a face was found, drawn, moved or removed, or a person was
 * named, hidden, merged or split, or detection was turned off or a user withdrew their consent.
 * What is remembered from people's rows (the named centroids "is this X?" compares against,
 * named-centroids-cache.ts) listens. A change that names its owner and people (every write of one
 * owner's people: the service knows whom it touched) lets a cache re-read only those people; one
 * that names nothing (the site's off switch, a user's "no", which reach everyone's or all of one
 * owner's) drops everything. Another process's change (a worker of its own storing faces) reaches
 * those caches through their short lifetimes.
 *
 * A photo's removal is announced by photos (announcePhotosChanged): its faces go by cascade, and the
 * caches that read faces listen to both.
 *
 * The listeners live on `globalThis` (processSingleton): Next.js may bundle this module more than once.
 */

/** One owner's people whose row or faces changed (named, hidden, merged away, a centroid moved). */
export interface PeopleChange {
  ownerId: string;
  personIds: readonly string[];
}

/** Called with the change, or null when anything of anyone's may have changed. */
type PeopleChangedListener = (change: PeopleChange | null) => void;

function listeners(): Set<PeopleChangedListener> {
  return processSingleton("people-change-listeners", () => new Set<PeopleChangedListener>());
}

/** Calls `listener` after every change to faces or people in this process, until the returned function is called. */
export function onPeopleChanged(listener: PeopleChangedListener): () => void {
  listeners().add(listener);
  return () => listeners().delete(listener);
}

/**
 * Tells every cache of people's rows that they changed (after the change has committed, never
 * before): `change` names whose; without it, anything may have changed. A change that names people
 * must name every person whose name, hiding, existence or centroid it touched.
 */
export function announcePeopleChanged(change?: PeopleChange): void {
  for (const listener of listeners()) listener(change ?? null);
}
