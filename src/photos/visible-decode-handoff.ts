import type { DecodedPhoto } from "@/src/images/photo-decoder";
import { processSingleton } from "@/src/config/process-singleton";

/**
 * Hands the upload check's small decode to the phase that makes the photo visible, when the worker
 * runs in the same process: that phase then starts from pixels instead of decoding the original
 * again (measured: about 0.2 CPU-s for a noisy 24 MP JPEG, as much as the check itself). Only a
 * shortcut: a photo whose decode is not here (another process claimed the job, the server
 * restarted, it was evicted) is decoded from its original as before.
 *
 * Bounded in bytes, oldest out first, and entries expire, so a backlog of uploads cannot hold memory.
 */
const MAX_BYTES = 64 * 1024 * 1024;
const MAX_AGE_MS = 10 * 60 * 1000;

interface HandedDecode {
  decoded: DecodedPhoto;
  keptAt: number;
}

// On globalThis: the upload routes and the worker (started from instrumentation) are separate
// bundles, each with its own copy of this module.
function getDecodes(): Map<string, HandedDecode> {
  return processSingleton("visible-decodes", () => new Map<string, HandedDecode>());
}

/** Keeps `decoded` for the photo's visible phase. */
export function handOverVisibleDecode(photoId: string, decoded: DecodedPhoto, now = Date.now()): void {
  const decodes = getDecodes();
  decodes.set(photoId, { decoded, keptAt: now });
  let bytes = 0;
  for (const entry of decodes.values()) bytes += entry.decoded.pixels.byteLength;
  // A Map iterates in insertion order: the oldest come first.
  for (const [id, entry] of decodes) {
    if (bytes <= MAX_BYTES && now - entry.keptAt <= MAX_AGE_MS) break;
    decodes.delete(id);
    bytes -= entry.decoded.pixels.byteLength;
  }
}

/** The decode handed over for this photo, if it is still here; it is removed either way. */
export function takeVisibleDecode(photoId: string, now = Date.now()): DecodedPhoto | undefined {
  const decodes = getDecodes();
  const entry = decodes.get(photoId);
  decodes.delete(photoId);
  return entry && now - entry.keptAt <= MAX_AGE_MS ? entry.decoded : undefined;
}
