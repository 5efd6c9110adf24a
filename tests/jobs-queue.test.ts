import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { afterEach, describe, expect, inject, it } from "vitest";
import type { DatabaseHandle } from "@/src/db/client";
import type { Database } from "@/src/db/database";
import { migrateToLatest } from "@/src/db/migrate";
import { claimNextJob, insertJob } from "@/src/jobs/jobs.repository";
import { createFreshPostgresDatabase, dropPostgresDatabase, openTestDatabase } from "./helpers/test-database";

// The job queue's claim on a freshly migrated database of its own (the test server's worker would
// take jobs from the shared one): SQLite always, PostgreSQL when the run uses it.

const databaseKind = inject("databaseKind");
let cleanUp: (() => Promise<void>) | null = null;

afterEach(async () => {
  await cleanUp?.();
  cleanUp = null;
});

async function freshDatabase(): Promise<DatabaseHandle> {
  if (databaseKind === "postgres") {
    const adminUrl = process.env.DATABASE_URL as string;
    const databaseUrl = await createFreshPostgresDatabase(adminUrl);
    const db = openTestDatabase({ dataDirectory: "", databaseUrl });
    cleanUp = async () => {
      await db.destroy();
      await dropPostgresDatabase(adminUrl, databaseUrl);
    };
    await migrateToLatest(db);
    return db;
  }
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "contact-sheet-jobs-"));
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(path.join(directory, "jobs.sqlite")) }) });
  cleanUp = async () => {
    await db.destroy();
    fs.rmSync(directory, { recursive: true, force: true });
  };
  await migrateToLatest(db);
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
