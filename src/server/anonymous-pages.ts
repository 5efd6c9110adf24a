import type { IncomingMessage, ServerResponse } from "node:http";
import { openAccessVersionGate } from "@/src/media/database-access-version-gate";
import { onPhotosChanged } from "@/src/photos/photo-changes";
import { onSettingsChanged } from "@/src/settings/settings-changes";
import { processSingleton, processSlotKey } from "@/src/config/process-singleton";

/**
 * The gallery's HTML for visitors who are not signed in, kept in memory and shared with CDNs.
 *
 * That HTML holds only public photos and nothing about who asked (the header learns the session in
 * the browser), yet rendering it costs Next.js far more than sending it. So server.mjs hands every
 * request here first: a document request for a shareable page without a session cookie or
 * credentials is answered from memory when a fresh copy is held, and otherwise rendered by Next.js
 * and kept. Everything else (signed-in users, client-side navigations, server actions, other
 * pages) is left alone and never cached.
 *
 * A copy is dropped: at once when photos or the site's settings change in this process
 * (src/photos/photo-changes.ts, src/settings/settings-changes.ts);
 * within CONFIRMATION_MAX_AGE_MS when anything stopped being public on another instance (the media
 * access version, read as the hot media cache reads it); and after TTL_MS, which bounds how long
 * another process's additions and edits take to show.
 *
 * Next.js marks every dynamic page `private, no-store`, and a page cannot set its own response
 * headers, so the shared `Cache-Control` is set here too: only on a 200 HTML answer that sets no
 * cookie, with `Vary: Cookie` so a CDN never hands it to someone who has one.
 */
export const ANONYMOUS_PAGES_SYMBOL = processSlotKey("anonymous-pages");

export interface AnonymousPages {
  /** Takes a visitor's request for a shareable page and returns true (answering it, or rendering it with `render`); otherwise false. */
  respond(request: IncomingMessage, response: ServerResponse, render: () => void): boolean;
  /** Drops every copy. */
  clear(): void;
}

const SHAREABLE_PAGES = new Set(["/"]);
const SHARED_PAGE_CACHE_CONTROL = "public, max-age=0, s-maxage=30, stale-while-revalidate=60";
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?next-auth\.session-token(?:\.\d+)?=/;
const TTL_MS = 10_000;
// How old the last reading of the media access version may be for a copy to be answered. A photo
// made private on another instance can stay listed in this HTML for up to this long (a CDN may keep
// the page 30 s, above); its bytes are refused at once by every instance's media gate, which reads
// the version for each request. Reading it for each page too cost PostgreSQL a round trip per
// answer and held this cache at 0.42-0.45x plain Node (issue 16; SQLite's read is synchronous).
const CONFIRMATION_MAX_AGE_MS = 1_000;
// Copies differ only by the encoding the browser accepts; a few cover every browser.
const MAX_COPIES = 8;
const MAX_COPY_BYTES = 2 * 1024 * 1024;
// Per answer, or worked out again when a copy is sent.
const UNSTORED_HEADERS = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length"]);

interface PageCopy {
  status: number;
  headers: Record<string, string | number | string[]>;
  body: Buffer;
  expiresAt: number;
}

function isVisitorDocumentRequest(request: IncomingMessage): boolean {
  // Every request to the server passes here: the path and method first, the cheapest tests.
  if (!SHAREABLE_PAGES.has((request.url ?? "/").split("?", 1)[0])) return false;
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  // Client-side navigations (RSC) and server actions answer per router state: never shared.
  const headers = request.headers;
  if (headers.rsc || headers["next-action"] || headers.authorization) return false;
  return !SESSION_COOKIE.test(headers.cookie ?? "");
}

function isShareableAnswer(response: ServerResponse): boolean {
  const isHtml = String(response.getHeader("content-type") ?? "").startsWith("text/html");
  return response.statusCode === 200 && isHtml && !response.hasHeader("set-cookie");
}

/** Sets the shared Cache-Control on the answer as its head is written, if it is one to share. */
function markShareable(response: ServerResponse): void {
  const writeHead = response.writeHead;
  response.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
    this.statusCode = args[0];
    if (isShareableAnswer(this)) {
      this.setHeader("Cache-Control", SHARED_PAGE_CACHE_CONTROL);
      const vary = this.getHeader("vary");
      this.setHeader("Vary", vary ? `${String(vary)}, Cookie` : "Cookie");
    }
    return writeHead.apply(this, args);
  } as ServerResponse["writeHead"];
}

function toBuffer(chunk: unknown, encoding: unknown): Buffer {
  if (typeof chunk === "string") return Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
  // Copied: the caller may reuse its buffer.
  return Buffer.from(chunk as Uint8Array);
}

/** Collects the bytes of the answer as they are sent (after compression) and hands them over once it ends. */
function captureAnswer(response: ServerResponse, onEnd: (body: Buffer | null) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const collect = (chunk: unknown, encoding: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === "function" || size > MAX_COPY_BYTES) return;
    const buffer = toBuffer(chunk, encoding);
    chunks.push(buffer);
    size += buffer.length;
  };
  const write = response.write;
  const end = response.end;
  response.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    collect(chunk, rest[0]);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as ServerResponse["write"];
  response.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    collect(chunk, rest[0]);
    onEnd(size > MAX_COPY_BYTES ? null : Buffer.concat(chunks));
    return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  } as ServerResponse["end"];
}

function send(copy: PageCopy, request: IncomingMessage, response: ServerResponse): void {
  response.writeHead(copy.status, { ...copy.headers, "content-length": copy.body.length });
  response.end(request.method === "HEAD" ? undefined : copy.body);
}

export function createAnonymousPages(freshness: { confirmNow(): boolean; confirm(): Promise<void> }, now: () => number = Date.now): AnonymousPages {
  const copies = new Map<string, PageCopy>();
  // When the newest confirmation of the access version was asked for (its read began after that).
  let confirmedAt = Number.NEGATIVE_INFINITY;
  // Moves on whenever copies are dropped: a render that began before a change is not kept after it.
  let generation = 0;
  const clear = () => {
    copies.clear();
    generation += 1;
  };

  const findCopy = (key: string): PageCopy | null => {
    const copy = copies.get(key);
    if (!copy) return null;
    if (copy.expiresAt > now()) return copy;
    copies.delete(key);
    return null;
  };

  const renderAndKeep = (request: IncomingMessage, response: ServerResponse, key: string | null, render: () => void) => {
    markShareable(response);
    if (key !== null && request.method === "GET") {
      const startedIn = generation;
      captureAnswer(response, (body) => {
        if (body === null || startedIn !== generation || !isShareableAnswer(response)) return;
        const headers: PageCopy["headers"] = {};
        for (const [name, value] of Object.entries(response.getHeaders())) {
          if (value !== undefined && !UNSTORED_HEADERS.has(name)) headers[name] = value;
        }
        if (copies.size >= MAX_COPIES) copies.clear();
        copies.set(key, { status: 200, headers, body, expiresAt: now() + TTL_MS });
      });
    }
    render();
  };

  const respond: AnonymousPages["respond"] = (request, response, render) => {
    if (!isVisitorDocumentRequest(request)) return false;
    // Only the page itself is kept: a query string (tracking parameters) renders afresh, shared or not.
    const key = SHAREABLE_PAGES.has(request.url ?? "") ? `${request.url}\n${request.headers["accept-encoding"] ?? ""}` : null;
    if (key === null || !findCopy(key)) {
      renderAndKeep(request, response, key, render);
      return true;
    }
    const answerIfStillHeld = () => {
      const copy = findCopy(key);
      if (copy) send(copy, request, response);
      else renderAndKeep(request, response, key, render);
    };
    // Before answering from memory: has anything stopped being public on another instance lately?
    const askedAt = now();
    if (askedAt - confirmedAt < CONFIRMATION_MAX_AGE_MS) {
      answerIfStillHeld();
      return true;
    }
    const confirmed = () => {
      confirmedAt = Math.max(confirmedAt, askedAt);
      answerIfStillHeld();
    };
    let isConfirmedNow = false;
    try {
      isConfirmedNow = freshness.confirmNow();
    } catch {
      // The database could not be read: Next.js renders (and reports the outage) instead.
      renderAndKeep(request, response, null, render);
      return true;
    }
    if (isConfirmedNow) confirmed();
    else freshness.confirm().then(confirmed, () => renderAndKeep(request, response, null, render));
    return true;
  };

  return { respond, clear };
}

/** Puts the cache where server.mjs looks for it (processSingleton "anonymous-pages"); called once at boot. */
export function installAnonymousPages(): void {
  processSingleton("anonymous-pages", () => {
    const pages: AnonymousPages = createAnonymousPages(openAccessVersionGate(() => pages.clear()));
    onPhotosChanged(pages.clear);
    // The page shows the site title and description, and loads the analytics script the settings name.
    onSettingsChanged(pages.clear);
    return pages;
  });
}
