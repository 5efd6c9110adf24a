import { processSingleton } from "@/src/config/process-singleton";

/**
 * "The site's settings changed in this process". What is cached from them (the settings read
 * itself, the anonymous gallery's HTML, which shows the site title) listens and drops itself at
 * once; other instances see the change when their short-lived copies expire (see
 * site-settings.service.ts and src/server/anonymous-pages.ts).
 *
 * On globalThis for the same reason as src/photos/photo-changes.ts: Next.js may bundle this module
 * more than once, and server.mjs reaches the page cache without a bundle.
 */
function listeners(): Set<() => void> {
  return processSingleton("settings-change-listeners", () => new Set<() => void>());
}

/** Calls `listener` after every change to the settings in this process, until the returned function is called. */
export function onSettingsChanged(listener: () => void): () => void {
  listeners().add(listener);
  return () => listeners().delete(listener);
}

/** Tells every cache of settings that they changed (after the change has committed). */
export function announceSettingsChanged(): void {
  for (const listener of listeners()) listener();
}
