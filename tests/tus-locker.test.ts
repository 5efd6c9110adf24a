// The tus upload lock kept in the database (src/uploads/tus-database-locker.ts), on a freshly
// migrated database of its own: SQLite always, PostgreSQL when the run uses it. Two lockers stand
// for two app instances; short leases and checks keep the test quick.
import { ERRORS } from "@tus/utils";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { processSlot } from "@/src/config/process-singleton";
import type { DatabaseHandle } from "@/src/db/client";
import type { Database } from "@/src/db/database";
import { DatabaseLocker } from "@/src/uploads/tus-database-locker";
import { openFreshDatabase } from "./helpers/test-database";

// The locker logs failed renewals through the process-wide logger (src/log/logger.ts): to nowhere here.
const processLogger = processSlot<pino.Logger>("logger");
beforeAll(() => processLogger.set(pino({ level: "silent" })));
afterAll(() => processLogger.set(undefined));

let remove: (() => Promise<void>) | undefined;
afterEach(async () => {
  await remove?.();
  remove = undefined;
});

interface Instances {
  db: DatabaseHandle;
  first: DatabaseLocker;
  second: DatabaseLocker;
  /** Makes the database unreachable for the first instance (every query it sends fails), or reachable again. */
  cutFirstOff(isCutOff: boolean): void;
}

async function twoInstances(options: { leaseMs?: number; checkIntervalMs?: number } = {}): Promise<Instances> {
  const fresh = await openFreshDatabase(inject("databaseKind"));
  remove = fresh.remove;
  // A handle whose every query fails, as when the database server is gone.
  const unreachable = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(":memory:") }) });
  await unreachable.destroy();
  let isFirstCutOff = false;
  const make = (getDb: () => DatabaseHandle) =>
    new DatabaseLocker({ getDb, leaseMs: options.leaseMs ?? 2000, checkIntervalMs: options.checkIntervalMs ?? 50, acquireTimeoutMs: 5000 });
  return {
    db: fresh.db,
    first: make(() => (isFirstCutOff ? unreachable : fresh.db)),
    second: make(() => fresh.db),
    cutFirstOff: (isCutOff) => (isFirstCutOff = isCutOff),
  };
}

const never = new AbortController().signal;
const holders = (db: DatabaseHandle) => db.selectFrom("upload_locks").select(["upload_id", "holder"]).execute();

describe("tus upload locks shared by every instance", () => {
  it("lets one request at a time hold an upload: a waiting one asks the holder to end, then takes over", async () => {
    const { db, first, second } = await twoInstances();
    const held = first.newLock("upload-1");
    let releaseRequests = 0;
    // What tus does when asked: it ends the holding request, which unlocks.
    await held.lock(never, () => {
      releaseRequests += 1;
      void held.unlock();
    });
    // Another upload is not affected.
    const other = second.newLock("upload-2");
    await other.lock(never, () => {});
    expect((await holders(db)).map((row) => row.upload_id).sort()).toEqual(["upload-1", "upload-2"]);

    const waiting = second.newLock("upload-1");
    await waiting.lock(never, () => {});
    expect(releaseRequests).toBe(1);
    expect((await holders(db)).filter((row) => row.upload_id === "upload-1")).toHaveLength(1);

    await waiting.unlock();
    await other.unlock();
    expect(await holders(db)).toEqual([]);
  });

  it("takes over the lock of an instance that died, once its lease has run out", async () => {
    const { db, second } = await twoInstances();
    // A dead instance: its row stays, no one renews it or answers a request to let go.
    const expiresAt = new Date(Date.now() + 300).toISOString();
    await db.insertInto("upload_locks").values({ upload_id: "upload-1", holder: "dead-instance", expires_at: expiresAt, release_requested: 0 }).execute();

    const startedAt = Date.now();
    const lock = second.newLock("upload-1");
    await lock.lock(never, () => {});
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(250);
    expect((await holders(db)).map((row) => row.holder)).not.toContain("dead-instance");
    await lock.unlock();
  });

  it("keeps a live holder's lock past its lease by renewing it", async () => {
    const { db, first, second } = await twoInstances({ leaseMs: 300, checkIntervalMs: 50 });
    const held = first.newLock("upload-1");
    await held.lock(never, () => {}); // A holder that does not let go when asked.
    const stop = new AbortController();
    const waiting = second.newLock("upload-1").lock(stop.signal, () => {});
    await new Promise((resolve) => setTimeout(resolve, 1000)); // Three leases.
    stop.abort();
    await expect(waiting).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
    expect(await holders(db)).toHaveLength(1);
    await held.unlock();
    expect(await holders(db)).toEqual([]);
  });

  it("ends its request while its lease still stands when the database stops answering, so no one else appends meanwhile", async () => {
    const { db, first, second, cutFirstOff } = await twoInstances({ leaseMs: 600, checkIntervalMs: 50 });
    const held = first.newLock("upload-1");
    let endedAt: number | undefined;
    await held.lock(never, () => void (endedAt = Date.now()));
    await new Promise((resolve) => setTimeout(resolve, 200)); // A few renewals.
    cutFirstOff(true);

    await new Promise((resolve) => setTimeout(resolve, 800)); // Past any lease it could still hold.
    // The row keeps the lease of the last renewal that reached the database.
    const { expires_at: leaseEnd } = await db.selectFrom("upload_locks").select("expires_at").where("upload_id", "=", "upload-1").executeTakeFirstOrThrow();
    expect(endedAt).toBeDefined();
    expect(endedAt).toBeLessThan(Date.parse(leaseEnd));

    // Its unlock cannot reach the database either; once the lease has run out, another request takes over.
    await expect(held.unlock()).rejects.toThrow();
    const next = second.newLock("upload-1");
    await next.lock(never, () => {});
    cutFirstOff(false);
    await next.unlock();
    expect(await holders(db)).toEqual([]);
  });

  it("never removes another request's lock when unlocking a lock it lost", async () => {
    const { db, first, second } = await twoInstances({ leaseMs: 200, checkIntervalMs: 10_000 });
    const lost = first.newLock("upload-1");
    await lost.lock(never, () => {}); // Checks too rarely to renew: its lease runs out.
    const taken = second.newLock("upload-1");
    await taken.lock(never, () => {});
    await lost.unlock();
    expect(await holders(db)).toHaveLength(1);
    await taken.unlock();
    expect(await holders(db)).toEqual([]);
  });
});
