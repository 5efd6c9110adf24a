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

// Boot (src/server/boot.ts, run by instrumentation.ts: migrations, storage, the jobs' handlers)
// calls this when the app can answer. Next.js starts it in app.prepare() but does not wait for it,
// and a port that accepts connections meanwhile holds every request until boot is done: behind a
// balancer, a restarting instance would take traffic it cannot answer for seconds. So the port
// opens only after boot; until then connecting is refused, which nginx passes on to another
// instance at once (even a POST, since nothing was sent), and readiness cannot be asked too early.
const BOOTED = Symbol.for("contact-sheet.booted");
const booted = new Promise((resolve) => {
  globalThis[BOOTED] = resolve;
});

const app = next({ dev: false, hostname, port, dir: import.meta.dirname });
const handle = app.getRequestHandler();
await app.prepare();
await booted;

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

// Installed at boot (src/server/database-outage-hook.ts): whether PostgreSQL is unreachable now. A
// page that fails then is a dependency down, not a bug: 503 with Retry-After, as the API answers.
const DATABASE_OUTAGE = Symbol.for("contact-sheet.database-outage");
const OUTAGE_RETRY_AFTER_SECONDS = "5";

function answerOutageAs503(response) {
  const writeHead = response.writeHead.bind(response);
  // Node's own implicit header (an answer ended without writeHead) goes through this method too.
  response.writeHead = (statusCode, ...rest) => {
    if (statusCode !== 500 || !globalThis[DATABASE_OUTAGE]?.isUnreachable()) return writeHead(statusCode, ...rest);
    response.setHeader("retry-after", OUTAGE_RETRY_AFTER_SECONDS);
    // The reason phrase, when given, was 500's.
    return writeHead(503, ...(typeof rest[0] === "string" ? rest.slice(1) : rest));
  };
}

function handleWithNext(request, response) {
  keepExactLength(response);
  answerOutageAs503(response);
  // Appended, never replaced: behind a reverse proxy (TRUST_PROXY=true) the app reads the first
  // entry; otherwise only this last one, which a client cannot forge.
  const peer = request.socket.remoteAddress ?? "unknown";
  const forwarded = request.headers["x-forwarded-for"];
  request.headers["x-forwarded-for"] = forwarded ? `${forwarded}, ${peer}` : peer;
  handle(request, response);
}

// What boot installs for a clean stop (src/server/shutdown-hook.ts): the grace period
// (SHUTDOWN_GRACE_SECONDS), readiness's "shutting down" and the worker's drain. Absent only if boot
// never ran, and then there is nothing to drain.
const SHUTDOWN = Symbol.for("contact-sheet.shutdown");
const DEFAULT_GRACE_MS = 10_000;
/** Beyond the grace period: time to hand unfinished jobs back to the queue before the process goes anyway. */
const RELEASE_MS = 5_000;

// Requests being answered; once stopping, each answer closes its connection and the last one ends the wait.
let inFlight = 0;
let stopping = false;
let onIdle = () => {};

function answer(request, response) {
  inFlight += 1;
  response.once("close", () => {
    inFlight -= 1;
    if (stopping && inFlight === 0) onIdle();
  });
  // While stopping, a request on a connection kept alive is still answered, and its connection closed after.
  if (stopping) response.setHeader("connection", "close");
  const render = () => handleWithNext(request, response);
  if (globalThis[HOT_MEDIA]?.respond(request, response, render)) return;
  if (globalThis[ANONYMOUS_PAGES]?.respond(request, response, render)) return;
  render();
}

const server = http.createServer(answer);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => void stop(signal));
server.listen(port, hostname, () => {
  console.log(`Contact Sheet is listening on http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port}`);
});

// Ctrl-C or SIGTERM: readiness turns to 503 "shutting down", no new connection is taken, idle
// kept-alive ones are closed, and requests in flight (an upload's current chunk included) and the
// worker's running jobs get the grace period to finish. Jobs still running then are handed back to
// the queue, so another worker takes them at once rather than after their lease; connections still
// open are cut. Then "stopped" and exit 0. Repeated signals are ignored: Ctrl-C reaches this process
// twice (from the terminal and forwarded by scripts/start.mjs).
function requestsFinished() {
  return new Promise((resolve) => {
    onIdle = resolve;
    if (inFlight === 0) resolve();
  });
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

async function stop(signal) {
  if (stopping) return;
  stopping = true;
  const hook = globalThis[SHUTDOWN];
  const graceMs = hook?.graceMs ?? DEFAULT_GRACE_MS;
  // Whatever happens below, the process ends: a hung release or close must not keep it alive.
  setTimeout(() => {
    console.log("Contact Sheet stopped (forced: the shutdown took too long).");
    process.exit(1);
  }, graceMs + RELEASE_MS * 2).unref();
  console.log(`Stopping Contact Sheet (${signal}): finishing requests in flight and running jobs (up to ${graceMs / 1000} s)…`);
  hook?.begin();
  server.close();
  server.closeIdleConnections();
  const drained = hook ? hook.drainWorker(graceMs).catch((error) => (console.error(error), { finished: 0, released: 0 })) : Promise.resolve({ finished: 0, released: 0 });
  const served = await Promise.race([requestsFinished().then(() => true), sleep(graceMs).then(() => false)]);
  if (!served) console.log(`Cut ${inFlight} request(s) still in flight after ${graceMs / 1000} s.`);
  server.closeAllConnections();
  const jobs = await Promise.race([drained, sleep(graceMs + RELEASE_MS).then(() => null)]);
  if (jobs && jobs.finished + jobs.released > 0) {
    console.log(`Jobs: ${jobs.finished} finished, ${jobs.released} handed back to the queue.`);
  }
  // A clean stop says so, so it is never mistaken for a crash.
  console.log("Contact Sheet stopped.");
  process.exit(0);
}
