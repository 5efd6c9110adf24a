import type { IncomingMessage, ServerResponse } from "node:http";
import { openAccessVersionGate } from "./database-access-version-gate";
import { HotMediaCache, type HotMediaEntry } from "./hot-media-cache";
import { decideMediaAnswer } from "./media-answer";
import { SITE_WIDE_HEADERS } from "./media-headers";
import { processSingleton, processSlotKey } from "@/src/config/process-singleton";
import { getAppMetrics } from "@/src/metrics/metrics-registry";

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

/** Entries up to this size are cached: every grid size and most photo-page sizes. Larger ones stream from storage. */
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
   * confirmed it answers from memory, or, if the cache was dropped meanwhile or the database could
   * not be read, hands the request to `fallback` (Next.js). Otherwise touches nothing and returns false.
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
    return createHotMedia(cache, openAccessVersionGate(() => cache.clear()));
  });
}

export function createHotMedia(cache: HotMediaCache, freshness: FreshnessCheck): HotMedia {
  return {
    cache,
    respond: (request, response, fallback) => respondFromCache(cache, freshness, request, response, fallback),
    confirmFreshness: () => freshness.confirm(),
  };
}

const MEDIA_PREFIX = "/media/";

/**
 * Answers a cached public variant as the route would (both decide with decideMediaAnswer). Anything
 * unusual (another method, a query string, a key not cached) goes to Next.js, so the route stays
 * the authority.
 */
function respondFromCache(
  cache: HotMediaCache,
  freshness: FreshnessCheck,
  request: IncomingMessage,
  response: ServerResponse,
  fallback: () => void,
): boolean {
  const method = request.method;
  if (method !== "GET" && method !== "HEAD") return false;
  const url = request.url ?? "";
  if (!url.startsWith(MEDIA_PREFIX) || url.includes("?")) return false;
  const key = url.slice(MEDIA_PREFIX.length);
  const { hotMediaCache } = getAppMetrics();
  if (!cache.find(key)) {
    hotMediaCache.inc({ result: "miss" });
    return false;
  }
  let isConfirmedNow: boolean;
  try {
    isConfirmedNow = freshness.confirmNow();
  } catch {
    // The database could not be read: the route answers (and reports the outage) instead.
    hotMediaCache.inc({ result: "miss" });
    return false;
  }
  if (isConfirmedNow) {
    // Looked up again: confirming may have dropped it (a photo stopped being public somewhere).
    const entry = cache.find(key);
    hotMediaCache.inc({ result: entry ? "hit" : "miss" });
    if (!entry) return false;
    answerFromEntry(entry, request, response);
    return true;
  }
  freshness.confirm().then(
    () => {
      // Looked up again: confirming may have dropped it (a photo stopped being public somewhere).
      const entry = cache.find(key);
      hotMediaCache.inc({ result: entry ? "hit" : "miss" });
      if (entry) answerFromEntry(entry, request, response);
      else fallback();
    },
    // The database could not be read: the route answers (and reports the outage) instead.
    () => {
      hotMediaCache.inc({ result: "miss" });
      fallback();
    },
  );
  return true;
}

function answerFromEntry(entry: HotMediaEntry, request: IncomingMessage, response: ServerResponse): void {
  const size = entry.bytes.length;
  const answer = decideMediaAnswer(
    { ifNoneMatch: request.headers["if-none-match"], range: request.headers.range },
    { size, etag: entry.etag, contentType: entry.contentType, isPublic: true },
  );
  // Next.js adds these to the route's answers; here nobody else does.
  response.writeHead(answer.status, { ...SITE_WIDE_HEADERS, ...answer.headers });
  if (answer.status === 304 || answer.status === 416 || request.method === "HEAD") {
    response.end();
    return;
  }
  response.end(answer.range ? entry.bytes.subarray(answer.range.start, answer.range.end + 1) : entry.bytes);
}
