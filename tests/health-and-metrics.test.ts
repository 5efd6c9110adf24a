import { spawnSync } from "node:child_process";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { corpusFile } from "./helpers/photos";
import { waitForExit } from "./helpers/server-process";
import { startTestApp, type TestApp, testStorageFromEnvironment } from "./helpers/test-app";
import { TestClient } from "./helpers/test-client";
import { createUploadPath } from "./helpers/tus";

// Readiness, /metrics and a graceful stop against the built app: an app of this file's own, with a
// metrics token and a short grace period, stopped by SIGTERM in the last test. Readiness's parts
// one by one, and the worker's drain, are tests/readiness-and-worker-shutdown.test.ts.

const METRICS_TOKEN = "metrics-token-for-tests-0123456789";
const ADMIN = { email: "ops@example.test", password: "ops-password-123" };
const GRACE_SECONDS = 5;
let app: TestApp;
let admin: TestClient;

beforeAll(async () => {
  app = await startTestApp(inject("databaseKind"), {
    ...testStorageFromEnvironment(inject("storageConfig").kind).env,
    NEXTAUTH_SECRET: "health-and-metrics-secret-0123456789abcdef",
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    METRICS_TOKEN,
    SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
  });
  admin = new TestClient(app.url);
  expect((await admin.signIn(ADMIN.email, ADMIN.password)).status).toBeLessThan(400);
}, 90_000);

afterAll(async () => {
  await app?.stop();
});

function scrape(token = METRICS_TOKEN): Promise<Response> {
  return fetch(`${app.url}/metrics`, { headers: { Authorization: `Bearer ${token}` } });
}

/** promtool's own check when Debian's prometheus package is installed (CI installs it), else a strict grammar of the text format. */
function checkExposition(text: string): void {
  const promtool = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
  if (!promtool.error) {
    // promtool's lint dislikes three of prom-client's default metrics' names (gauges ending in
    // _total); they are kept as prom-client names them, for the dashboards that expect them.
    const problems = `${promtool.stdout}${promtool.stderr}`
      .split("\n")
      .filter((line) => line.trim() !== "" && !/^nodejs_active_(handles|requests|resources)_total non-counter metrics should not have "_total" suffix$/.test(line));
    expect(problems).toEqual([]);
    expect(promtool.status === 0 || problems.length === 0).toBe(true);
    return;
  }
  const name = "[a-zA-Z_:][a-zA-Z0-9_:]*";
  const labels = `\\{(${name}="(?:[^"\\\\\\n]|\\\\[\\\\"n])*",?)*\\}`;
  const sample = new RegExp(`^${name}(${labels})? (-?[0-9.e+-]+|NaN|[+-]Inf)$`);
  for (const line of text.trimEnd().split("\n")) {
    if (line.startsWith("# HELP ") || /^# TYPE \S+ (counter|gauge|histogram|summary|untyped)$/.test(line)) continue;
    expect(line).toMatch(sample);
  }
}

describe("readiness", () => {
  it("is ready: database, storage, migrations and the in-process worker all ok, and nothing more said", async () => {
    const response = await fetch(`${app.url}/api/health/ready`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ status: "ready", checks: { database: "ok", storage: "ok", migrations: "ok", worker: "ok" } });
    // Liveness stays as it was.
    expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
  });
});

describe("/metrics", () => {
  it("is 404 on a server without METRICS_TOKEN, and 401 for a missing, wrong or huge token", async () => {
    expect((await fetch(`${inject("baseUrl")}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(404);
    const missing = await fetch(`${app.url}/metrics`);
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toContain("Bearer");
    expect((await scrape("wrong-token-0123456789")).status).toBe(401);
    expect((await scrape(`${METRICS_TOKEN}x`)).status).toBe(401);
    expect((await scrape("a".repeat(8000))).status).toBe(401);
    // Past Node.js's header limit the server refuses it before the app sees it: a 4xx, never a 500.
    expect((await scrape("a".repeat(40_000))).status).toBe(431);
  });

  it("counts requests by route pattern, one label for every photo id", async () => {
    // Through the wrapper in the built app; routePattern's unit test makes 1,000 ids one label.
    const ids = Array.from({ length: 50 }, () => crypto.randomUUID());
    const statuses = await Promise.all(ids.map(async (id) => (await admin.request(`/api/photos/${id}`)).status));
    expect(new Set(statuses)).toEqual(new Set([404]));
    const response = await scrape();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    const text = await response.text();
    checkExposition(text);
    expect(text).toContain('contact_sheet_http_requests_total{method="GET",route="/api/photos/[id]",status="404"} 50');
    expect(text).toMatch(/contact_sheet_http_request_duration_seconds_count\{method="GET",route="\/api\/photos\/\[id\]"\} 50\n/);
    expect(ids.some((id) => text.includes(id))).toBe(false);
    // The label set stays small whatever was asked.
    const routes = new Set([...text.matchAll(/route="([^"]*)"/g)].map((match) => match[1]));
    expect(routes.size).toBeLessThan(10);

    // Node.js's own figures and the library, queue and storage figures read at scrape time.
    for (const expected of ["nodejs_eventloop_lag_seconds ", "nodejs_gc_duration_seconds_bucket", "process_resident_memory_bytes ", "contact_sheet_database_figures_up 1", "contact_sheet_albums 0", "contact_sheet_people 0", 'contact_sheet_storage_bytes{kind="originals"} 0', "contact_sheet_uploads_in_progress 0"]) {
      expect(text).toContain(expected);
    }
  });
});

/**
 * A tus PATCH that sends `first` and holds the request open until `finish` sends the rest; answers
 * the status and Upload-Offset when the server answers. `agent` keeps its connection for a next request.
 */
function slowPatch(uploadPath: string, bytes: Uint8Array, split: number, agent?: http.Agent) {
  let answered: (value: { status: number; offset: string | undefined }) => void = () => {};
  let failed: (error: Error) => void = () => {};
  const answer = new Promise<{ status: number; offset: string | undefined }>((resolve, reject) => {
    answered = resolve;
    failed = reject;
    setTimeout(() => reject(new Error("The PATCH got no answer")), 15_000).unref();
  });
  const request = http.request(new URL(uploadPath, app.url), {
    method: "PATCH",
    agent,
    headers: {
      "Tus-Resumable": "1.0.0",
      "Upload-Offset": "0",
      "Content-Type": "application/offset+octet-stream",
      "Content-Length": String(bytes.length),
      Cookie: [...admin.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
      Origin: app.url,
    },
  });
  request.on("error", (error) => failed(error));
  request.on("response", (response) => {
    response.resume();
    response.on("end", () => answered({ status: response.statusCode ?? 0, offset: response.headers["upload-offset"] as string | undefined }));
  });
  const started = new Promise<void>((resolve) => request.write(bytes.subarray(0, split), () => resolve()));
  return { started, answer, finish: () => request.end(bytes.subarray(split)) };
}

function getOn(agent: http.Agent, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(new URL(path, app.url), { agent }, (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      })
      .on("error", reject);
  });
}

describe("SIGTERM", () => {
  it("lets uploads' chunks in flight finish, answers readiness 503 'shutting down' meanwhile, and exits 0 saying stopped", async () => {
    const photo = corpusFile("exif-samples/jpg/Canon_40D.jpg");
    const other = corpusFile("exif-samples/jpg/Nikon_D70.jpg");
    const [first, second] = [await createUploadPath(admin, photo.length, "first.jpg"), await createUploadPath(admin, other.length, "second.jpg")];
    const keptAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const held = slowPatch(first, photo, 1000);
    const onKeptConnection = slowPatch(second, other, 1000, keptAlive);
    await Promise.all([held.started, onKeptConnection.started]);
    // Both requests have reached the route (the server is reading their bodies).
    await new Promise((resolve) => setTimeout(resolve, 300));

    const signalledAt = Date.now();
    app.server.process.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(app.server.process.exitCode).toBeNull();

    onKeptConnection.finish();
    // 200: the chunk completed the upload, and the answer names the photo it made.
    expect(await onKeptConnection.answer).toEqual({ status: 200, offset: String(other.length) });
    // That connection was kept: the next request on it is answered, and readiness says why it is 503.
    const ready = await getOn(keptAlive, "/api/health/ready");
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toMatchObject({ status: "shutting down", error: { code: "SERVICE_UNAVAILABLE", message: "Shutting down." } });
    // New connections are no longer taken.
    await expect(fetch(`${app.url}/api/health`)).rejects.toThrow();

    held.finish();
    expect(await held.answer).toEqual({ status: 200, offset: String(photo.length) });
    expect(await waitForExit(app.server, (GRACE_SECONDS + 10) * 1000)).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan((GRACE_SECONDS + 5) * 1000);
    expect(app.server.output()).toContain("Contact Sheet stopped.");
    keptAlive.destroy();
  });
});
