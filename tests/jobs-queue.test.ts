import pino from "pino";
import { afterEach, describe, expect, inject, it } from "vitest";
import { processSlot } from "@/src/config/process-singleton";
import { AppError } from "@/src/errors/app-error";
import type { DatabaseHandle } from "@/src/db/client";
import { claimNextJob, insertJob, postponeJob } from "@/src/jobs/jobs.repository";
import { notifyJobQueued, registerJobHandler, startWorker, stopWorker, whileUploading } from "@/src/jobs/worker";
import { openFreshDatabase } from "./helpers/test-database";

// The job queue's claim, and the worker in this test process, on a freshly migrated database of
// their own (the test server's worker would take jobs from the shared one): SQLite always,
// PostgreSQL when the run uses it.

const databaseKind = inject("databaseKind");
let cleanUp: (() => Promise<void>) | null = null;

afterEach(async () => {
  await cleanUp?.();
  cleanUp = null;
});

async function freshDatabase(): Promise<DatabaseHandle> {
  const { db, remove } = await openFreshDatabase(databaseKind);
  cleanUp = remove;
  return db;
}

function claim(db: DatabaseHandle, maximumPriority?: number) {
  const now = new Date().toISOString();
  return claimNextJob(db, databaseKind, { now, leaseExpiresAt: new Date(Date.now() + 60_000).toISOString(), maximumAttempts: 3, maximumPriority });
}

describe("claiming jobs", () => {
  it("takes the lowest priority first, oldest first within it, and only up to a maximum priority when asked", async () => {
    const db = await freshDatabase();
    const finish = await insertJob(db, { kind: "test.finish", photoId: null, priority: 5 }, "2026-01-01T00:00:00.000Z");
    const visibleLater = await insertJob(db, { kind: "test.visible", photoId: null, priority: 0 }, "2026-01-01T00:00:02.000Z");
    const visibleFirst = await insertJob(db, { kind: "test.visible", photoId: null, priority: 0 }, "2026-01-01T00:00:01.000Z");

    expect((await claim(db, 0))?.id).toBe(visibleFirst);
    expect((await claim(db, 0))?.id).toBe(visibleLater);
    // A slot held for uploads finds nothing more; an ordinary slot takes the finish job.
    expect(await claim(db, 0)).toBeUndefined();
    expect(await claim(db)).toMatchObject({ id: finish, status: "running", attempts: 1 });
    expect(await claim(db)).toBeUndefined();
  });
});

describe("a job postponed during an outage", () => {
  it("is not claimed before its time, then is, with the try it had begun not counted", async () => {
    const db = await freshDatabase();
    const id = await insertJob(db, { kind: "test.outage", photoId: null, priority: 0 }, "2026-01-01T00:00:00.000Z");
    expect(await claim(db)).toMatchObject({ id, attempts: 1 });
    const now = Date.now();
    await postponeJob(db, id, { error: "Object storage is unavailable", notBefore: new Date(now + 60_000).toISOString(), now: new Date(now).toISOString() });
    expect(await claim(db)).toBeUndefined();
    const later = { now: new Date(now + 61_000).toISOString(), leaseExpiresAt: new Date(now + 120_000).toISOString(), maximumAttempts: 3 };
    expect(await claimNextJob(db, databaseKind, later)).toMatchObject({ id, status: "running", attempts: 1 });
  });
});

/** A promise with its resolve function outside, for jobs the test lets finish when it wants. */
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

/**
 * Points the process-wide database handle and logger the worker reads (src/db/client.ts,
 * src/log/logger.ts) at this test's database and at nowhere, for the length of the test.
 */
function pointWorkerAt(db: DatabaseHandle): void {
  const processDatabase = processSlot<{ db: DatabaseHandle; kind: typeof databaseKind }>("database");
  processDatabase.set({ db, kind: databaseKind });
  processSlot<pino.Logger>("logger").set(pino({ level: "silent" }));
  const remove = cleanUp;
  cleanUp = async () => {
    stopWorker();
    // Let the slots see they are stopped before the database goes.
    await new Promise((resolve) => setTimeout(resolve, 100));
    processDatabase.set(undefined);
    await remove?.();
  };
}

/**
 * A fresh database for the worker, with an upload in flight (until `upload.open()`) and handlers
 * that only record which jobs ran; "test.long" runs until `longJob.open()`.
 */
async function withUploadInFlight() {
  const db = await freshDatabase();
  pointWorkerAt(db);
  const ran: string[] = [];
  const longJob = gate();
  registerJobHandler("test.long", { run: async () => void (ran.push("long"), await longJob.opened) });
  registerJobHandler("test.visible", { run: async () => void ran.push("visible") });
  registerJobHandler("test.finish", { run: async () => void ran.push("finish") });
  const upload = gate();
  const uploading = whileUploading(() => upload.opened);
  const queue = async (kind: string, priority: number) => {
    await insertJob(db, { kind, photoId: null, priority }, new Date().toISOString());
    notifyJobQueued();
  };
  return { ran, longJob, upload, uploading, queue };
}

describe("the worker while uploads arrive", () => {
  it("holds its first slot for visible jobs while an upload is in flight, and releases it when the upload ends", async () => {
    const { ran, longJob, upload, uploading, queue } = await withUploadInFlight();
    // The machine has a core to spare, so only the held slot keeps back.
    startWorker({ concurrency: 2, leaseSeconds: 60, hasSpareCore: () => true });
    try {
      // The ordinary slot takes the long job and keeps it; the held slot may not.
      await queue("test.long", 5);
      await waitFor(() => ran.includes("long"), "the long job to start");
      await queue("test.finish", 5);
      await queue("test.visible", 0);
      await waitFor(() => ran.includes("visible"), "the held slot to take the visible job");
      // Past the held slot's next claims (it was woken by both jobs and went back to waiting).
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(ran).toEqual(["long", "visible"]);

      upload.open();
      await uploading;
      await waitFor(() => ran.includes("finish"), "the released slot to take the finish job");
      expect(ran).toEqual(["long", "visible", "finish"]);
    } finally {
      longJob.open();
      upload.open();
    }
  });

  it("starts later phases beside uploads only while the machine has a core to spare", async () => {
    const { ran, longJob, upload, uploading, queue } = await withUploadInFlight();
    let hasSpareCore = false;
    startWorker({ concurrency: 2, leaseSeconds: 60, hasSpareCore: () => hasSpareCore });
    try {
      await queue("test.finish", 5);
      await queue("test.visible", 0);
      await waitFor(() => ran.includes("visible"), "a slot to take the visible job");
      // Both slots have looked more than once (the ordinary one every 500 ms while kept back).
      await new Promise((resolve) => setTimeout(resolve, 1200));
      expect(ran).toEqual(["visible"]);

      // The upload still runs, but the CPU now has room: the ordinary slot notices by itself.
      hasSpareCore = true;
      await waitFor(() => ran.includes("finish"), "the ordinary slot to take the finish job");
      expect(ran).toEqual(["visible", "finish"]);
    } finally {
      longJob.open();
      upload.open();
      await uploading;
    }
  });
});

describe("the worker when a dependency is down", () => {
  it("postpones a job that met the outage, its try not counted, instead of spending its tries at once", async () => {
    const db = await freshDatabase();
    pointWorkerAt(db);
    let runs = 0;
    registerJobHandler("test.outage", {
      run: async () => {
        runs += 1;
        throw new AppError("SERVICE_UNAVAILABLE", "Object storage is unavailable: it cannot be reached (ECONNREFUSED)");
      },
    });
    const id = await insertJob(db, { kind: "test.outage", photoId: null, priority: 0 }, new Date().toISOString());
    const startedAt = Date.now();
    startWorker({ concurrency: 1, leaseSeconds: 60, hasSpareCore: () => true });
    const row = () => db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    await waitFor(() => runs === 1, "the first run");
    let job = await row();
    for (let tries = 0; job.status === "running" && tries < 50; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      job = await row();
    }
    expect(job).toMatchObject({ status: "queued", attempts: 0, last_error: expect.stringContaining("unavailable") });
    expect(Date.parse(job.lease_expires_at ?? "") - startedAt).toBeGreaterThanOrEqual(9_000);
    // Woken, the worker still leaves it alone until then.
    notifyJobQueued();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(runs).toBe(1);
  });
});
