import { processSingleton } from "@/src/config/process-singleton";
import type { VideoProbe } from "@/src/video/video-probe";

/**
 * Hands a video's probe on to its next step in this process: the upload's probe to the poster job,
 * the poster job's to the playable copy's. Each ffprobe run costs 80-90 ms on this machine (a
 * process start and the container's headers), as much as the rest of the poster job's bookkeeping;
 * the original is stored once, named by its id, and never changes, so a probe of it stays true.
 * Only a shortcut: a job whose probe is not here (another process claimed it, the server
 * restarted, it expired) probes the original again, as before.
 *
 * Bounded in count (a probe is a few hundred bytes), oldest out first, and entries expire.
 */
const MAX_PROBES = 1000;
const MAX_AGE_MS = 10 * 60 * 1000;

interface HandedProbe {
  probe: VideoProbe;
  keptAt: number;
}

// On globalThis: the upload routes and the worker (started from instrumentation) are separate
// bundles, each with its own copy of this module.
function getProbes(): Map<string, HandedProbe> {
  return processSingleton("video-probes", () => new Map<string, HandedProbe>());
}

/** Keeps `probe` for the photo's next video job. */
export function handOverVideoProbe(photoId: string, probe: VideoProbe, now = Date.now()): void {
  const probes = getProbes();
  // Deleted first, so that a probe handed over again counts as the newest.
  probes.delete(photoId);
  probes.set(photoId, { probe, keptAt: now });
  // A Map iterates in insertion order: the oldest come first.
  for (const [id, entry] of probes) {
    if (probes.size <= MAX_PROBES && now - entry.keptAt <= MAX_AGE_MS) break;
    probes.delete(id);
  }
}

/** The probe handed over for this photo, if it is still here; it is removed either way. */
export function takeVideoProbe(photoId: string, now = Date.now()): VideoProbe | undefined {
  const probes = getProbes();
  const entry = probes.get(photoId);
  probes.delete(photoId);
  return entry && now - entry.keptAt <= MAX_AGE_MS ? entry.probe : undefined;
}
