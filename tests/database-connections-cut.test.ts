import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type AppInstances, startAppInstances } from "./helpers/app-instances";
import { TEST_SECRET } from "./setup/global-setup";

// Found by `npm run bench:load`'s fault row "PostgreSQL stopped": when the database server ends
// every connection (a restart, a failover, an administrator's pg_terminate_backend), pg's pool
// reports each idle connection's end on its 'error' event, and with nobody listening Node turns
// that into an uncaught exception: `npm run worker` died and processed nothing more until someone
// started it again. Both processes must shrug it off and carry on once the database answers.
// PostgreSQL only: SQLite has no server to lose.

const databaseKind = inject("databaseKind");
const HEARTBEAT_KEY = "worker.heartbeat";

let instances: AppInstances;
let admin: pg.Pool;

async function heartbeat(): Promise<string | null> {
  const { rows } = await admin.query<{ value: string }>("SELECT value FROM settings WHERE key = $1", [HEARTBEAT_KEY]);
  return rows[0]?.value ?? null;
}

async function waitFor(what: string, isDone: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await isDone())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  if (databaseKind !== "postgres") return;
  instances = await startAppInstances(databaseKind, { appCount: 1, env: { NEXTAUTH_SECRET: TEST_SECRET, LOG_LEVEL: "error" } });
  await instances.waitUntilReady();
  admin = new pg.Pool({ connectionString: instances.databaseUrl, max: 1 });
  admin.on("error", () => undefined);
}, 90_000);

afterAll(async () => {
  await admin?.end();
  await instances?.stop();
});

describe.skipIf(databaseKind !== "postgres")("every database connection cut at once", () => {
  it("neither the app nor `npm run worker` exits, and both work again at once", async () => {
    const [app] = instances.apps;
    const [worker] = instances.workers;
    // Both hold idle connections: the worker has written its heartbeat, the app has answered a page.
    await waitFor("the worker's first heartbeat", async () => (await heartbeat()) !== null, 30_000);
    expect((await fetch(`${app.url}/`)).status).toBe(200);
    const before = await heartbeat();

    const { rowCount } = await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()");
    expect(rowCount).toBeGreaterThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 1000));

    expect(worker.process.exitCode, worker.output()).toBeNull();
    expect(app.process.exitCode, app.output()).toBeNull();
    expect((await fetch(`${app.url}/`)).status).toBe(200);
    expect((await fetch(`${app.url}/api/health/ready`)).status).toBe(200);
    // The worker goes on: its next heartbeat (every few seconds) is written.
    await waitFor("a heartbeat after the cut", async () => (await heartbeat()) !== before, 20_000);
    expect(worker.process.exitCode, worker.output()).toBeNull();
  }, 60_000);
});
