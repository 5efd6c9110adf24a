import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import type { Storage, StoredObjectStream } from "@/src/storage/storage";
import type { HeldMediaOffer, HotMediaEntry, StoredMediaOffer } from "./hot-media-cache";
import { decideMediaAnswer, type MediaConditions, type MediaEntry } from "./media-answer";
import { SITE_WIDE_HEADERS } from "./media-headers";

// How server.mjs's fast path (hot-media-fast-path.ts) answers an entry of the hot cache once it has
// taken the request and confirmed the access version: from memory, or streamed from storage. Both
// decide with decideMediaAnswer, as the route does, so the three cannot answer differently.

/** The one storage call the fast path makes. */
export type StoredMediaReader = Pick<Storage, "read">;

function conditionsOf(request: IncomingMessage): MediaConditions {
  const { range, "if-none-match": ifNoneMatch, "if-range": ifRange } = request.headers;
  // Node types headers it does not know as possibly repeated; If-Range is one value.
  return { ifNoneMatch, range, ifRange: typeof ifRange === "string" ? ifRange : undefined };
}

function describe(entry: HotMediaEntry, size: number): MediaEntry {
  return { size, etag: entry.etag, contentType: entry.contentType, isPublic: true };
}

/** Next.js adds the site-wide headers to the route's answers; here nobody else does. */
function withSiteWideHeaders(headers: Record<string, string>): Record<string, string> {
  return { ...SITE_WIDE_HEADERS, ...headers };
}

/**
 * The headers of a held entry's whole 200 answer, made once per entry: nearly every request for a
 * grid's image is exactly that (no Range, no If-None-Match).
 */
const wholeAnswerHeaders = new WeakMap<HotMediaEntry, Record<string, string>>();

/** A held variant: any answer, straight from its bytes. */
export function answerFromMemory(entry: HotMediaEntry & HeldMediaOffer, request: IncomingMessage, response: ServerResponse): void {
  const { bytes } = entry;
  const conditions = conditionsOf(request);
  if (conditions.range === undefined && conditions.ifNoneMatch === undefined) {
    let headers = wholeAnswerHeaders.get(entry);
    if (!headers) {
      headers = withSiteWideHeaders(decideMediaAnswer(conditions, describe(entry, bytes.length)).headers);
      wholeAnswerHeaders.set(entry, headers);
    }
    response.writeHead(200, headers);
    if (request.method === "HEAD") response.end();
    else response.end(bytes);
    return;
  }
  const answer = decideMediaAnswer(conditions, describe(entry, bytes.length));
  response.writeHead(answer.status, withSiteWideHeaders(answer.headers));
  if (answer.status === 304 || answer.status === 416 || request.method === "HEAD") {
    response.end();
    return;
  }
  response.end(answer.range ? bytes.subarray(answer.range.start, answer.range.end + 1) : bytes);
}

/**
 * A variant too large to hold (a video's playable copy): the range asked for is streamed from
 * storage, local disk or S3 alike, never read whole. Should the stored object be gone or other
 * than the route saw, nothing has been sent yet: `onStale` answers instead (the route).
 */
export async function answerFromStorage(
  storage: StoredMediaReader,
  entry: HotMediaEntry & StoredMediaOffer,
  request: IncomingMessage,
  response: ServerResponse,
  onStale: () => void,
): Promise<void> {
  const answer = decideMediaAnswer(conditionsOf(request), describe(entry, entry.size));
  if (answer.status === 304 || answer.status === 416 || request.method === "HEAD") {
    response.writeHead(answer.status, withSiteWideHeaders(answer.headers));
    response.end();
    return;
  }
  let object: StoredObjectStream;
  try {
    object = await storage.read(entry.storageKey, answer.range ?? undefined);
  } catch {
    onStale();
    return;
  }
  if (object.size !== entry.size) {
    object.body.destroy();
    onStale();
    return;
  }
  // Unlike the route's (Next.js sends every answer chunked), the length is said: a video player
  // shows its progress from it.
  response.writeHead(answer.status, withSiteWideHeaders({ ...answer.headers, "Content-Length": String(object.contentLength) }));
  // A client that goes away, or a read that fails half-way, ends the connection; the file is closed either way.
  await pipeline(object.body, response).catch(() => undefined);
}
