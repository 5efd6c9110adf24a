import type { IncomingMessage, ServerResponse } from "node:http";
import { openAccessVersionGate } from "./database-access-version-gate";
import { answerFromMemory, answerFromStorage, type StoredMediaReader } from "./hot-media-answers";
import { HotMediaCache, type HotMediaEntry } from "./hot-media-cache";
import { processSingleton, processSlotKey } from "@/src/config/process-singleton";
import { getAppMetrics } from "@/src/metrics/metrics-registry";
import { getStorage } from "@/src/storage/app-storage";

/**
 * The process-wide hot media cache, shared by the Next.js bundle (which fills and invalidates it)
 * and server.mjs (which answers from it).
 *
 * Why a `globalThis` symbol: server.mjs is plain JavaScript that runs without a build, and Next.js
 * bundles this module (possibly into more than one chunk), so a module-level variable would exist
 * once per copy. Everything runs in one Node process, so `Symbol.for` names one slot all copies
 * share. The code that answers requests travels with the object (`respond`), so server.mjs needs
 * no copy of the rules and cannot disagree with the route: it only calls
 * `globalThis[Symbol.for("contact-sheet.hot-media")]?.respond(request, response, fallback)`, which
 * is absent until the first /media request has loaded this module, and answers false whenever it
 * does not take the request.
 */
export const HOT_MEDIA_SYMBOL = processSlotKey("hot-media");

/**
 * Entries up to this size are held in memory: every grid size and most photo-page sizes. Larger
 * ones (a video's playable copy) are remembered by where they are stored and streamed from there.
 */
export const MAX_HOT_MEDIA_ENTRY_BYTES = 1024 * 1024;
const MAX_TOTAL_BYTES = 64 * 1024 * 1024;
/**
 * How long an entry is kept without the route looking at its photo again. Not what keeps the cache
 * fresh across instances (the access version does that on every request); it bounds how long
 * bytes nobody asks for through the route stay in memory.
 */
const TTL_MS = 10_000;

export interface HotMedia {
  cache: HotMediaCache;
  /**
   * Takes a GET or HEAD of a cached public variant and returns true: once the access version is
   * confirmed it answers from memory or streams from storage, or, if the cache was dropped
   * meanwhile, the database could not be read or the stored file is gone, hands the request to
   * `fallback` (Next.js). Otherwise touches nothing and returns false.
   */
  respond(request: IncomingMessage, response: ServerResponse, fallback: () => void): boolean;
  /**
   * Brings the cache up to date with the access version (dropping it if the version moved). The
   * route calls it before it decides what to offer, so an entry it offers is not dropped again by
   * the next request for a change that happened before it.
   */
  confirmFreshness(): Promise<void>;
}

/** What the fast path checks before it answers from memory (an AccessVersionGate). */
export interface FreshnessCheck {
  /** True once confirmed synchronously; false when only `confirm()` can. Throws when the read fails. */
  confirmNow(): boolean;
  confirm(): Promise<void>;
}

export function getHotMedia(): HotMedia {
  return processSingleton("hot-media", () => {
    const cache = new HotMediaCache({ maxTotalBytes: MAX_TOTAL_BYTES, maxEntryBytes: MAX_HOT_MEDIA_ENTRY_BYTES, ttlMs: TTL_MS });
    return createHotMedia(cache, openAccessVersionGate(() => cache.clear()), getStorage());
  });
}

/** What answering from the cache needs, made once. */
interface FastPathParts {
  cache: HotMediaCache;
  freshness: FreshnessCheck;
  storage: StoredMediaReader;
  counts: { hit(): void; miss(): void };
}

export function createHotMedia(cache: HotMediaCache, freshness: FreshnessCheck, storage: StoredMediaReader): HotMedia {
  const { hotMediaCache } = getAppMetrics();
  // The counter's children, found once: looking a label set up costs a sort and a hash per request.
  const hits = hotMediaCache.labels({ result: "hit" });
  const misses = hotMediaCache.labels({ result: "miss" });
  const parts: FastPathParts = { cache, freshness, storage, counts: { hit: () => hits.inc(), miss: () => misses.inc() } };
  return {
    cache,
    respond: (request, response, fallback) => respondFromCache(parts, request, response, fallback),
    confirmFreshness: () => freshness.confirm(),
  };
}

const MEDIA_PREFIX = "/media/";

/**
 * Whether the fast path answers this request from this entry. A variant held in memory: any GET or
 * HEAD. One remembered by where it is stored: always when it is too large to hold; when it is small
 * enough (a short clip's playable copy, first asked for with a Range), only Range requests, so a
 * whole GET still reaches the route, which then offers its bytes to hold.
 */
function takesRequest(entry: HotMediaEntry, request: IncomingMessage): boolean {
  return entry.bytes !== null || request.headers.range !== undefined || entry.size > MAX_HOT_MEDIA_ENTRY_BYTES;
}

/**
 * Answers a cached public variant as the route would (both decide with decideMediaAnswer). Anything
 * unusual (another method, a query string, a key not cached) goes to Next.js, so the route stays
 * the authority.
 */
function respondFromCache(
  parts: FastPathParts,
  request: IncomingMessage,
  response: ServerResponse,
  fallback: () => void,
): boolean {
  const { cache, freshness, counts } = parts;
  const method = request.method;
  if (method !== "GET" && method !== "HEAD") return false;
  const url = request.url ?? "";
  if (!url.startsWith(MEDIA_PREFIX) || url.includes("?")) return false;
  const key = url.slice(MEDIA_PREFIX.length);
  const found = cache.find(key);
  if (!found || !takesRequest(found, request)) {
    counts.miss();
    return false;
  }
  const epochBeforeConfirming = cache.epoch;
  let isConfirmedNow: boolean;
  try {
    isConfirmedNow = freshness.confirmNow();
  } catch {
    // The database could not be read: the route answers (and reports the outage) instead.
    counts.miss();
    return false;
  }
  if (isConfirmedNow) {
    // Confirming drops the whole cache when a photo stopped being public somewhere, which moves
    // the epoch: only then is the entry looked up again.
    const entry = cache.epoch === epochBeforeConfirming ? found : cache.find(key);
    if (!entry || !takesRequest(entry, request)) {
      counts.miss();
      return false;
    }
    counts.hit();
    answerFromEntry(parts, entry, request, response, fallback);
    return true;
  }
  freshness.confirm().then(
    () => {
      // Looked up again: confirming may have dropped it (a photo stopped being public somewhere).
      const entry = cache.find(key);
      if (!entry || !takesRequest(entry, request)) {
        counts.miss();
        fallback();
        return;
      }
      counts.hit();
      answerFromEntry(parts, entry, request, response, fallback);
    },
    // The database could not be read: the route answers (and reports the outage) instead.
    () => {
      counts.miss();
      fallback();
    },
  );
  return true;
}

function answerFromEntry(
  { cache, storage }: FastPathParts,
  entry: HotMediaEntry,
  request: IncomingMessage,
  response: ServerResponse,
  fallback: () => void,
): void {
  if (entry.bytes) {
    answerFromMemory(entry, request, response);
    return;
  }
  // Gone or changed in storage: the entry outlived a change this process has not heard of yet.
  const onStale = () => {
    cache.dropPhoto(entry.photoId);
    fallback();
  };
  // Nothing in it is expected to throw; should it, the connection ends rather than the process.
  answerFromStorage(storage, entry, request, response, onStale).catch(() => response.destroy());
}
