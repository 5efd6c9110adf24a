// The production server: Next.js's request handler behind a plain Node HTTP server, so every
// request carries the real peer address (Next.js's own server does not tell handlers who connected).
// Reads only PORT and HOSTNAME; the app's settings are read by src/config/env.ts.
import http from "node:http";
import next from "next";

// The /media fast path: small public variants the /media route has already served are answered from
// memory here, without Next.js (src/media/hot-media-fast-path.ts installs it under this symbol on the
// first /media request; until then, and for anything it does not hold, requests go to Next.js).
const HOT_MEDIA = Symbol.for("contact-sheet.hot-media");

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOSTNAME ?? "0.0.0.0";

const app = next({ dev: false, hostname, port, dir: import.meta.dirname });
const handle = app.getRequestHandler();
await app.prepare();

// The gallery's HTML for a visitor holds only public photos and nothing about who asked (the header
// learns the session in the browser), so a CDN may share it for a few seconds. Next.js marks every
// force-dynamic page `private, no-store` and a page cannot set its own response headers, so it is
// done here, where the request's cookies and the response's final headers are both in view. Only a
// 200 HTML document for a request without a session cookie or credentials, that sets no cookie, is
// made shareable; `Vary: Cookie` keeps a cache from handing it to someone who has one. Signed-in
// requests keep Next.js's `private, no-store`.
const SHAREABLE_PAGES = new Set(["/"]);
const SHARED_PAGE_CACHE_CONTROL = "public, max-age=0, s-maxage=30, stale-while-revalidate=60";
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?next-auth\.session-token(?:\.\d+)?=/;

function isAnonymousDocumentRequest(request) {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  // Client-side navigations (RSC) and server actions answer per router state: never shared.
  if (request.headers.rsc || request.headers["next-action"] || request.headers.authorization) return false;
  if (SESSION_COOKIE.test(request.headers.cookie ?? "")) return false;
  return SHAREABLE_PAGES.has(new URL(request.url ?? "/", "http://localhost").pathname);
}

function shareAnonymousPage(response) {
  const writeHead = response.writeHead;
  response.writeHead = function (statusCode, ...rest) {
    const isHtml = String(response.getHeader("content-type") ?? "").startsWith("text/html");
    if (statusCode === 200 && isHtml && !response.hasHeader("set-cookie")) {
      response.setHeader("Cache-Control", SHARED_PAGE_CACHE_CONTROL);
      const vary = response.getHeader("vary");
      response.setHeader("Vary", vary ? `${vary}, Cookie` : "Cookie");
    }
    return writeHead.call(this, statusCode, ...rest);
  };
}

function handleWithNext(request, response) {
  if (isAnonymousDocumentRequest(request)) shareAnonymousPage(response);
  // Appended, never replaced: behind a reverse proxy (TRUST_PROXY=true) the app reads the first
  // entry; otherwise only this last one, which a client cannot forge.
  const peer = request.socket.remoteAddress ?? "unknown";
  const forwarded = request.headers["x-forwarded-for"];
  request.headers["x-forwarded-for"] = forwarded ? `${forwarded}, ${peer}` : peer;
  handle(request, response);
}

const server = http.createServer((request, response) => {
  if (globalThis[HOT_MEDIA]?.respond(request, response, () => handleWithNext(request, response))) return;
  handleWithNext(request, response);
});
server.listen(port, hostname, () => {
  console.log(`Contact Sheet is listening on http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port}`);
});

// Ctrl-C or SIGTERM: stop taking connections, let requests in flight finish for a moment, then go.
// Idle keep-alive sockets are closed at once (server.close alone waits for every one of them), and
// the timer bounds what is left (a slow download, the job worker), so the process always exits.
// Repeated signals are ignored: Ctrl-C reaches this process twice (from the terminal and forwarded
// by scripts/start.mjs), and the grace period is short anyway.
const SHUTDOWN_GRACE_MS = 3_000;
let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  server.close(() => process.exit(0));
  server.closeIdleConnections();
  setTimeout(() => {
    server.closeAllConnections();
    process.exit(0);
  }, SHUTDOWN_GRACE_MS).unref();
}
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, stop);
