import { Migrator, SqliteAdapter, sql } from "kysely";
import type { DatabaseHandle } from "./client";
import { migrationProvider } from "./migrations";

/**
 * How long a process waits for another one's migrations on SQLite before it gives up: an upgrade
 * that rewrites a large table may take minutes, and the process has nothing to serve until then.
 */
const SQLITE_MIGRATION_WAIT_MS = 10 * 60 * 1000;

/**
 * Brings the schema up to date. Safe to run from several processes at once (instances of a deploy
 * started together): on PostgreSQL Kysely holds an advisory lock for the whole run; on SQLite its
 * lock does nothing across processes (one connection per process), so the whole run is one
 * `BEGIN IMMEDIATE` transaction, which also makes a failed upgrade leave the schema as it was.
 */
export async function migrateToLatest(db: DatabaseHandle): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = db.getExecutor().adapter instanceof SqliteAdapter
    ? await whileHoldingSqliteWriteLock(db, () => migrator.migrateToLatest())
    : await migrator.migrateToLatest();
  if (error) {
    throw error instanceof Error ? error : new Error(`Migration failed: ${String(error)}`);
  }
  return (results ?? []).filter((result) => result.status === "Success").map((result) => result.migrationName);
}

/**
 * Runs `work` inside one write transaction of this process's single SQLite connection (every
 * statement the migrator sends goes through it). Another process migrating holds the write lock;
 * BEGIN IMMEDIATE waits for it (the connection's busy timeout, then again), and once it is ours the
 * migrator reads the schema as the other left it and finds nothing left to do.
 */
async function whileHoldingSqliteWriteLock<T extends { error?: unknown }>(db: DatabaseHandle, work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + SQLITE_MIGRATION_WAIT_MS;
  for (;;) {
    try {
      await sql`begin immediate`.execute(db);
      break;
    } catch (error) {
      if ((error as { code?: unknown }).code !== "SQLITE_BUSY" || Date.now() > deadline) throw error;
    }
  }
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await sql`rollback`.execute(db);
    throw error;
  }
  await sql`${sql.raw(result.error ? "rollback" : "commit")}`.execute(db);
  return result;
}
