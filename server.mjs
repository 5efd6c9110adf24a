// The production server: Next.js's request handler behind a plain Node HTTP server, so every
// request carries the real peer address (Next.js's own server does not tell handlers who connected).
// Reads only PORT and HOSTNAME; the app's settings are read by src/config/env.ts.
import http from "node:http";
import next from "next";

// The /media fast path: small public variants the /media route has already served are answered from
// memory here, without Next.js (src/media/hot-media-fast-path.ts installs it under this symbol on the
// first /media request; until then, and for anything it does not hold, requests go to Next.js).
const HOT_MEDIA = Symbol.for("contact-sheet.hot-media");
// The gallery's HTML for visitors who are not signed in, answered from memory when a fresh copy is
// held and shared with CDNs (src/server/anonymous-pages.ts, installed at boot); everything it does
// not take goes to Next.js as it is.
const ANONYMOUS_PAGES = Symbol.for("contact-sheet.anonymous-pages");

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOSTNAME ?? "0.0.0.0";

const app = next({ dev: false, hostname, port, dir: import.meta.dirname });
const handle = app.getRequestHandler();
await app.prepare();

// Next.js drops Content-Length from every route handler's answer (its send-response FORBIDDEN_HEADERS)
// and sends it chunked. A download that knows its exact length (the share ZIP, so the browser shows
// progress) names it in this header instead, and it becomes Content-Length here.
const EXACT_LENGTH_HEADER = "x-exact-content-length";

function keepExactLength(response) {
  const setHeader = response.setHeader.bind(response);
  response.setHeader = (name, value) =>
    typeof name === "string" && name.toLowerCase() === EXACT_LENGTH_HEADER && /^\d+$/.test(String(value))
      ? setHeader("content-length", String(value))
      : setHeader(name, value);
}

function handleWithNext(request, response) {
  keepExactLength(response);
  // Appended, never replaced: behind a reverse proxy (TRUST_PROXY=true) the app reads the first
  // entry; otherwise only this last one, which a client cannot forge.
  const peer = request.socket.remoteAddress ?? "unknown";
  const forwarded = request.headers["x-forwarded-for"];
  request.headers["x-forwarded-for"] = forwarded ? `${forwarded}, ${peer}` : peer;
  handle(request, response);
}

const server = http.createServer((request, response) => {
  const render = () => handleWithNext(request, response);
  if (globalThis[HOT_MEDIA]?.respond(request, response, render)) return;
  if (globalThis[ANONYMOUS_PAGES]?.respond(request, response, render)) return;
  render();
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
// A clean stop says so, in two lines, so it is never mistaken for a crash.
function exitStopped() {
  console.log("Contact Sheet stopped.");
  process.exit(0);
}
function stop(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`Stopping Contact Sheet (${signal}): finishing requests in flight…`);
  server.close(exitStopped);
  server.closeIdleConnections();
  setTimeout(() => {
    server.closeAllConnections();
    exitStopped();
  }, SHUTDOWN_GRACE_MS).unref();
}
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stop(signal));
