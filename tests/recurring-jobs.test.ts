import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import { Pool } from "pg";
import { afterEach, describe, expect, inject, it } from "vitest";
import type { Database } from "@/src/db/database";
import { migrateToLatest } from "@/src/db/migrate";
import { claimNextJob } from "@/src/jobs/jobs.repository";
import { queueRecurringRun, type RecurringJob } from "@/src/jobs/recurring-jobs";
import { createFreshPostgresDatabase, dropPostgresDatabase } from "./helpers/test-database";

// Recurring work goes through the job queue once per period, however many instances schedule it:
// two "instances" here are two handles with connections of their own on one fresh database of the
// run's kind (the test server's worker would take jobs from the shared one).

const databaseKind = inject("databaseKind");
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Two handles on one freshly migrated database, as two instances of the site have. */
async function twoInstances(): Promise<[Kysely<Database>, Kysely<Database>]> {
  let open: () => Kysely<Database>;
  if (databaseKind === "postgres") {
    const adminUrl = process.env.DATABASE_URL as string;
    const databaseUrl = await createFreshPostgresDatabase(adminUrl);
    cleanups.push(() => dropPostgresDatabase(adminUrl, databaseUrl));
    open = () => {
      const pool = new Pool({ connectionString: databaseUrl, max: 3 });
      pool.on("error", () => undefined);
      return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    };
  } else {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), "contact-sheet-recurring-"));
    cleanups.push(async () => fs.rmSync(directory, { recursive: true, force: true }));
    open = () => {
      const database = new SQLite(path.join(directory, "recurring.sqlite"));
      database.pragma("busy_timeout = 5000");
      return new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
    };
  }
  const first = open();
  await migrateToLatest(first);
  const second = open();
  cleanups.push(async () => {
    await first.destroy();
    await second.destroy();
  });
  return [first, second];
}

const HOUR = 60 * 60 * 1000;
const job: RecurringJob = { kind: "test.recurring", everyMs: HOUR, run: async () => undefined };

describe("a recurring job scheduled by two instances", () => {
  it("is queued once per period, and claimed by one worker", async () => {
    const [one, two] = await twoInstances();
    const inFirstHour = [0, 1, 59].map((minute) => new Date(Date.UTC(2026, 10, 27, 6, minute, 30)));
    // Both instances check at the same moments, all at once.
    const queued = await Promise.all(inFirstHour.flatMap((at) => [queueRecurringRun(one, job, at), queueRecurringRun(two, job, at)]));
    expect(queued.filter(Boolean)).toHaveLength(1);

    const nextHour = new Date(Date.UTC(2026, 10, 27, 7, 0, 0));
    expect((await Promise.all([queueRecurringRun(one, job, nextHour), queueRecurringRun(two, job, nextHour)])).filter(Boolean)).toHaveLength(1);

    const rows = await one.selectFrom("jobs").select(["id", "kind", "status"]).orderBy("id").execute();
    expect(rows).toEqual([
      { id: "test.recurring@2026-11-27T06:00:00.000Z", kind: "test.recurring", status: "queued" },
      { id: "test.recurring@2026-11-27T07:00:00.000Z", kind: "test.recurring", status: "queued" },
    ]);

    // Each period's run is claimed once, whichever instance's worker asks.
    const claim = (db: Kysely<Database>) =>
      claimNextJob(db, databaseKind, { now: new Date().toISOString(), leaseExpiresAt: new Date(Date.now() + 60_000).toISOString(), maximumAttempts: 3 });
    const claimed = await Promise.all([claim(one), claim(two), claim(one), claim(two)]);
    expect(claimed.filter(Boolean).map((row) => row?.id).sort()).toEqual(rows.map((row) => row.id));

    // A run already done still counts for its period: checking again later in it queues nothing.
    await one.updateTable("jobs").set({ status: "done" }).execute();
    expect(await queueRecurringRun(two, job, new Date(Date.UTC(2026, 10, 27, 7, 30)))).toBe(false);
  });
});
