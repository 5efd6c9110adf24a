import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { processSlot } from "@/src/config/process-singleton";
import type { DatabaseHandle } from "@/src/db/client";
import { claimNextJob, insertJob } from "@/src/jobs/jobs.repository";
import { notifyJobQueued, registerJobHandler, shutDownWorker, startWorker, stopWorker } from "@/src/jobs/worker";
import { recordWorkerHeartbeat, WORKER_HEARTBEAT_SECONDS } from "@/src/jobs/worker-heartbeat";
import { checkReadiness, forgetReadiness } from "@/src/operations/readiness";
import { markShuttingDown } from "@/src/operations/shutdown-state";
import { PROBE_PREFIX } from "@/src/operations/storage-probe";
import { createStorage } from "@/src/storage/create-storage";
import type { Storage } from "@/src/storage/storage";
import { openFreshDatabase } from "./helpers/test-database";

// Readiness's checks and the worker's drain at shutdown, in this test process on a freshly
// migrated database of their own (SQLite always, PostgreSQL when the run uses it) and the run's
// storage (S3 on the PostgreSQL run in CI). The built app's side is tests/health-and-metrics.test.ts.

const databaseKind = inject("databaseKind");
const storage = createStorage(inject("storageConfig"));
// The checks log why a part failed; this process has no app environment to build the logger from.
processSlot<pino.Logger>("logger").set(pino({ level: "silent" }));
// One database for the file (migrating a fresh one costs seconds): the readiness tests only write
// the heartbeat, the worker's test is the only one with jobs, and the pending migration comes last.
let db: DatabaseHandle;
let removeDatabase: () => Promise<void>;

beforeAll(async () => {
  ({ db, remove: removeDatabase } = await openFreshDatabase(databaseKind));
});

afterAll(async () => {
  await removeDatabase();
});

afterEach(() => {
  forgetReadiness();
});

async function probeObjectsLeft(store: Storage): Promise<string[]> {
  const keys: string[] = [];
  for await (const { key } of store.list(PROBE_PREFIX)) keys.push(key);
  return keys;
}

describe("readiness", () => {
  it("is ready with a live worker, and names the worker stale after three missed heartbeats", async () => {
    const now = new Date();
    await recordWorkerHeartbeat(db, new Date(now.getTime() - 5_000));
    expect(await checkReadiness({ db, storage, now: () => now })).toEqual({
      status: "ready",
      checks: { database: "ok", storage: "ok", migrations: "ok", worker: "ok" },
    });
    // The probe removed its object.
    expect(await probeObjectsLeft(storage)).toEqual([]);

    forgetReadiness();
    await recordWorkerHeartbeat(db, new Date(now.getTime() - 3 * WORKER_HEARTBEAT_SECONDS * 1000 - 1000));
    expect(await checkReadiness({ db, storage, now: () => now })).toMatchObject({ status: "not ready", failed: ["worker stale"] });
  });

  it("says storage unavailable when a read fails, without its message, and still deletes the probe", async () => {
    await recordWorkerHeartbeat(db, new Date());
    const deleted: string[] = [];
    const failingRead: Storage = {
      ...storage,
      read: () => Promise.reject(new Error("connect ECONNREFUSED 10.1.2.3:9000 /secret/path")),
      delete: async (key) => {
        deleted.push(key);
        await storage.delete(key);
      },
    };
    const readiness = await checkReadiness({ db, storage: failingRead });
    expect(readiness).toMatchObject({ status: "not ready", failed: ["storage unavailable"] });
    expect(JSON.stringify(readiness)).not.toMatch(/ECONNREFUSED|10\.1\.2\.3|secret/);
    expect(deleted).toHaveLength(1);
    expect(deleted[0]?.startsWith(PROBE_PREFIX)).toBe(true);
    expect(await probeObjectsLeft(storage)).toEqual([]);
  });

  it("answers 'shutting down' once the process has begun to stop", async () => {
    const shutdown = processSlot<{ shuttingDown: boolean }>("shutdown-state");
    markShuttingDown();
    try {
      expect(await checkReadiness({ db, storage })).toEqual({ status: "shutting down" });
    } finally {
      shutdown.set(undefined);
    }
  });
});

/** A promise with its resolve function outside, for a job the test lets finish when it wants. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Still waiting for ${what} after 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Points the process-wide database the worker reads at this file's database, until `release`. */
function pointWorkerAtDatabase(): { release: () => Promise<void> } {
  const processDatabase = processSlot<{ db: DatabaseHandle; kind: typeof databaseKind }>("database");
  processDatabase.set({ db, kind: databaseKind });
  return {
    release: async () => {
      stopWorker();
      // Let the slots see they are stopped before the database goes.
      await new Promise((resolve) => setTimeout(resolve, 100));
      processDatabase.set(undefined);
    },
  };
}

describe("the worker at shutdown", () => {
  it("lets a job that ends within the grace period finish, and hands back one that does not, at once and with its try not counted", async () => {
    const worker = pointWorkerAtDatabase();
    const quick = gate();
    const slow = gate();
    const started: string[] = [];
    registerJobHandler("test.quick", { run: async () => void (started.push("quick"), await quick.opened) });
    registerJobHandler("test.slow", { run: async () => void (started.push("slow"), await slow.opened) });
    const quickId = await insertJob(db, { kind: "test.quick", photoId: null, priority: 0 }, "2026-01-01T00:00:00.000Z");
    const slowId = await insertJob(db, { kind: "test.slow", photoId: null, priority: 0 }, "2026-01-01T00:00:01.000Z");
    startWorker({ concurrency: 2, leaseSeconds: 60, hasSpareCore: () => true });
    notifyJobQueued();
    try {
      await waitFor(() => started.length === 2, "both jobs to start");
      // The heartbeat was recorded when the worker started.
      expect(await db.selectFrom("settings").select("value").where("key", "=", "worker.heartbeat").executeTakeFirst()).toBeDefined();
      const draining = shutDownWorker(400);
      setTimeout(() => quick.open(), 50);
      expect(await draining).toEqual({ finished: 1, released: 1 });

      const rows = await db.selectFrom("jobs").select(["id", "status", "attempts", "lease_expires_at"]).orderBy("created_at").execute();
      expect(rows).toEqual([
        { id: quickId, status: "done", attempts: 1, lease_expires_at: null },
        { id: slowId, status: "queued", attempts: 0, lease_expires_at: null },
      ]);
      // Another worker takes it now, not when a 60-second lease would have run out.
      const now = new Date().toISOString();
      const claimed = await claimNextJob(db, databaseKind, { now, leaseExpiresAt: new Date(Date.now() + 60_000).toISOString(), maximumAttempts: 3 });
      expect(claimed).toMatchObject({ id: slowId, attempts: 1 });

      // The released job ending late in this process does not overwrite the other worker's claim.
      slow.open();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await db.selectFrom("jobs").select("status").where("id", "=", slowId).executeTakeFirstOrThrow()).toEqual({ status: "running" });
    } finally {
      quick.open();
      slow.open();
      await worker.release();
    }
  });
});

describe("readiness, last", () => {
  it("names a pending migration", async () => {
    await recordWorkerHeartbeat(db, new Date());
    // As if this code brought a migration the database has not run.
    const newest = await db.selectFrom("kysely_migration" as never).select("name" as never).orderBy("name" as never, "desc").executeTakeFirstOrThrow();
    await db.deleteFrom("kysely_migration" as never).where("name" as never, "=", (newest as { name: string }).name as never).execute();
    const readiness = await checkReadiness({ db, storage });
    expect(readiness).toMatchObject({ status: "not ready", checks: { database: "ok", storage: "ok", migrations: "pending", worker: "ok" }, failed: ["migrations pending"] });
  });
});
