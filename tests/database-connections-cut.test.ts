import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { processSlot } from "@/src/config/process-singleton";
import { CodedPool } from "@/src/db/client";
import { isDatabaseUnavailable } from "@/src/db/errors";
import { type RunningScript, startNpmScript } from "./helpers/script-process";
import { findFreePort, type RunningServer, spawnServer, waitUntilHealthy } from "./helpers/server-process";
import { startTcpSwitch, type TcpSwitch } from "./helpers/tcp-switch";
import { testStorageFromEnvironment } from "./helpers/test-app";
import { createFreshPostgresDatabase, dropPostgresDatabase } from "./helpers/test-database";
import { TEST_SECRET } from "./setup/global-setup";

// Found by `npm run bench:load`'s fault row "PostgreSQL stopped". PostgreSQL only: SQLite has no
// server to lose. One app (RUN_WORKER=false) and one `npm run worker` reach the database through a
// TCP switch the test controls, as bench:load's instances do.
// - When the server ends every connection (a restart, a failover, pg_terminate_backend), pg's pool
//   reports each idle one on its 'error' event, which Node made an uncaught exception: the worker
//   died and processed nothing more until someone started it again.
// - While the database could not be reached, the API answered 503 but the pages 500, so a balancer
//   and a visitor saw a bug where a dependency was down.

const databaseKind = inject("databaseKind");
const HEARTBEAT_KEY = "worker.heartbeat";

let databaseSwitch: TcpSwitch;
let databaseUrl = "";
let dataDirectory = "";
let app: RunningServer;
let worker: RunningScript;
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
  const adminUrl = process.env.DATABASE_URL ?? "";
  databaseUrl = await createFreshPostgresDatabase(adminUrl);
  const server = new URL(databaseUrl);
  databaseSwitch = await startTcpSwitch({ host: server.hostname, port: Number(server.port || 5432) });
  const throughSwitch = new URL(databaseUrl);
  throughSwitch.host = `127.0.0.1:${databaseSwitch.port}`;
  dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), "contact-sheet-connections-cut-"));
  const port = await findFreePort();
  const env = {
    ...testStorageFromEnvironment().env,
    NEXTAUTH_SECRET: TEST_SECRET,
    NEXTAUTH_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDirectory,
    DATABASE_URL: throughSwitch.toString(),
    RUN_WORKER: "false",
    LOG_LEVEL: "error",
  };
  app = spawnServer(port, env);
  await waitUntilHealthy(app);
  worker = startNpmScript("worker", [], { ...env, RUN_WORKER: "true" });
  admin = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  admin.on("error", () => undefined);
}, 90_000);

afterAll(async () => {
  await Promise.all([app?.stop(), worker?.stop()]);
  await admin?.end();
  await databaseSwitch?.close();
  if (databaseUrl) await dropPostgresDatabase(process.env.DATABASE_URL ?? "", databaseUrl);
  if (dataDirectory) fs.rmSync(dataDirectory, { recursive: true, force: true });
});

describe.skipIf(databaseKind !== "postgres")("the database server goes away", () => {
  it("every connection cut at once: neither the app nor `npm run worker` exits, and both work again at once", async () => {
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

  it("a query whose connection the server ended mid-transaction is an outage (503), not a bug (500)", async () => {
    // pg raises this without a code; the app's pool gives it one (bench:load's tus creation answered 500).
    // The pool logs what it sees through the process's logger: a silent one here.
    processSlot<pino.Logger>("logger").set(pino({ level: "silent" }));
    const pool = new CodedPool({ connectionString: databaseUrl, max: 1 });
    pool.on("error", () => undefined);
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      await admin.query("SELECT pg_terminate_backend($1)", [rows[0].pid]);
      const failed: unknown = await client.query("SELECT 1").catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(Error);
      expect(isDatabaseUnavailable(failed), String(failed)).toBe(true);
      const rollback: unknown = await client.query("ROLLBACK").catch((error: unknown) => error);
      expect(isDatabaseUnavailable(rollback), String(rollback)).toBe(true);
    } finally {
      client.release(true);
      await pool.end();
    }
    // A code-less error on a live connection stays a bug.
    expect(isDatabaseUnavailable(new Error("something else"))).toBe(false);
  }, 30_000);

  it("while it cannot be reached, pages answer 503 with Retry-After like the API, and 200 as soon as it is back", async () => {
    databaseSwitch.setForwarding(false);
    try {
      // Pages not asked for before: a page the anonymous cache already holds is answered from memory, rightly.
      for (const pathname of ["/albums", "/places", "/api/search?q=x"]) {
        const response = await fetch(`${app.url}${pathname}`);
        expect(response.status, `${pathname} while the database is unreachable`).toBe(503);
        expect(response.headers.get("retry-after"), pathname).toBe("5");
      }
    } finally {
      databaseSwitch.setForwarding(true);
    }
    await waitFor("the albums page again", async () => (await fetch(`${app.url}/albums`)).status === 200, 10_000);
    expect((await fetch(`${app.url}/places`)).status).toBe(200);
    expect(app.process.exitCode, app.output()).toBeNull();
    expect(worker.process.exitCode, worker.output()).toBeNull();
  }, 30_000);
});
