import { spawnSync } from "node:child_process";
import { describe, expect, inject, it } from "vitest";
import { signedInAdmin } from "./helpers/test-client";
import { TEST_METRICS_TOKEN } from "./setup/global-setup";

// Readiness and /metrics against the shared app (started with METRICS_TOKEN). Readiness's parts one
// by one and the worker's drain are tests/readiness-and-worker-shutdown.test.ts; /metrics off (404),
// and SIGTERM with uploads in flight, are in tests/startup.test.ts, on servers of their own.

const baseUrl = inject("baseUrl");

function scrape(token = TEST_METRICS_TOKEN): Promise<Response> {
  return fetch(`${baseUrl}/metrics`, { headers: { Authorization: `Bearer ${token}` } });
}

/** The value of one sample line, 0 when it is not there yet. */
function sampleOf(text: string, line: string): number {
  const found = text.split("\n").find((candidate) => candidate.startsWith(`${line} `));
  return found ? Number(found.slice(line.length + 1)) : 0;
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
    const response = await fetch(`${baseUrl}/api/health/ready`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ status: "ready", checks: { database: "ok", storage: "ok", migrations: "ok", worker: "ok" } });
    // Liveness stays as it was.
    expect((await fetch(`${baseUrl}/api/health`)).status).toBe(200);
  });
});

describe("/metrics", () => {
  it("is 401 for a missing, wrong or huge token", async () => {
    const missing = await fetch(`${baseUrl}/metrics`);
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toContain("Bearer");
    expect((await scrape("wrong-token-0123456789")).status).toBe(401);
    expect((await scrape(`${TEST_METRICS_TOKEN}x`)).status).toBe(401);
    expect((await scrape("a".repeat(8000))).status).toBe(401);
    // Past Node.js's header limit the server refuses it before the app sees it: a 4xx, never a 500.
    expect((await scrape("a".repeat(40_000))).status).toBe(431);
  });

  it("counts requests by route pattern, one label for every photo id", async () => {
    const admin = await signedInAdmin();
    const counted = 'contact_sheet_http_requests_total{method="GET",route="/api/photos/[id]",status="404"}';
    const timed = 'contact_sheet_http_request_duration_seconds_count{method="GET",route="/api/photos/[id]"}';
    const before = await (await scrape()).text();
    // Through the wrapper in the built app; routePattern's unit test makes 1,000 ids one label.
    const ids = Array.from({ length: 50 }, () => crypto.randomUUID());
    const statuses = await Promise.all(ids.map(async (id) => (await admin.request(`/api/photos/${id}`)).status));
    expect(new Set(statuses)).toEqual(new Set([404]));
    const response = await scrape();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    const text = await response.text();
    checkExposition(text);
    // Test files run one at a time, so nobody else asked for a missing photo meanwhile.
    expect(sampleOf(text, counted) - sampleOf(before, counted)).toBe(50);
    expect(sampleOf(text, timed) - sampleOf(before, timed)).toBeGreaterThanOrEqual(50);
    expect(ids.some((id) => text.includes(id))).toBe(false);
    // The label set stays bounded by the routes, whatever every test file asked for.
    const routes = new Set([...text.matchAll(/route="([^"]*)"/g)].map((match) => match[1]));
    expect(routes.size).toBeLessThan(100);
    for (const route of routes) expect(route).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);

    // Node.js's own figures and the library, queue and storage figures read at scrape time.
    for (const expected of ["nodejs_eventloop_lag_seconds ", "nodejs_gc_duration_seconds_bucket", "process_resident_memory_bytes ", "contact_sheet_database_figures_up 1", "contact_sheet_albums ", "contact_sheet_people ", 'contact_sheet_storage_bytes{kind="originals"} ', "contact_sheet_uploads_in_progress "]) {
      expect(text).toContain(expected);
    }
  });
});

