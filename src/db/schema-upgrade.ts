import { DEFAULT_MIGRATION_TABLE, Migrator, SqliteAdapter, sql } from "kysely";
import type { DatabaseHandle } from "./client";
import { migrationProvider } from "./migrations";

/** What bringing the schema up to date did: the last migration before and after, and the ones it ran. */
export interface SchemaUpgrade {
  /** The last migration the database had run before, or null for an empty database. */
  from: string | null;
  /** The last migration it has run now (the code's newest). */
  to: string | null;
  applied: string[];
}

/**
 * Refused, never run: the database has run migrations this code does not know, so a newer version
 * of Contact Sheet upgraded it. Migrating on would fail half-way or, worse, run older code against
 * a schema it was not written for.
 */
export class DatabaseNewerThanCodeError extends Error {
  constructor(readonly unknownMigrations: string[]) {
    super(
      `The database was upgraded by a newer version of Contact Sheet: it has run ${unknownMigrations.length === 1 ? "migration" : "migrations"} ` +
        `${unknownMigrations.map(shortName).join(", ")}, which this version does not know. Run the newer version again, ` +
        "or restore the backup taken before the upgrade (npx contact-sheet restore). Nothing was changed.",
    );
    this.name = "DatabaseNewerThanCodeError";
  }
}

/** A migration's name without its description, as people read it: "2026-12-01T0910". */
export function shortName(migration: string): string {
  return /^\d{4}-\d{2}-\d{2}T\d{4}/.exec(migration)?.[0] ?? migration;
}

async function executedMigrations(db: DatabaseHandle): Promise<string[]> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((table) => table.name === DEFAULT_MIGRATION_TABLE)) return [];
  const rows = await db
    .selectFrom(DEFAULT_MIGRATION_TABLE as never)
    .select("name" as never)
    .execute();
  return (rows as Array<{ name: string }>).map((row) => row.name).sort();
}

/** The migrations this code knows that the database has not run yet (none: the schema is current). */
export async function findPendingMigrations(db: DatabaseHandle): Promise<string[]> {
  const executed = new Set(await executedMigrations(db));
  return Object.keys(await migrationProvider.getMigrations())
    .sort()
    .filter((name) => !executed.has(name));
}

/**
 * How long a process waits for another one's migrations on SQLite before it gives up: an upgrade
 * that rewrites a large table may take minutes, and the process has nothing to serve until then.
 */
const SQLITE_MIGRATION_WAIT_MS = 10 * 60 * 1000;

/**
 * Brings the schema up to date and says from where to where. Refuses a database newer than the
 * code before running anything. Safe to run from several processes at once (instances of a deploy
 * started together): on PostgreSQL Kysely holds an advisory lock for the whole run; on SQLite its
 * lock does nothing across processes (one connection per process), so the whole run, the check
 * included, is one `BEGIN IMMEDIATE` transaction, which also makes a failed upgrade leave the
 * schema as it was.
 */
export async function upgradeSchema(db: DatabaseHandle): Promise<SchemaUpgrade> {
  const run = async (): Promise<SchemaUpgrade> => {
    const known = Object.keys(await migrationProvider.getMigrations()).sort();
    const executed = await executedMigrations(db);
    const unknown = executed.filter((name) => !known.includes(name));
    if (unknown.length > 0) throw new DatabaseNewerThanCodeError(unknown);

    const { error, results } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
    if (error) {
      throw error instanceof Error ? error : new Error(`Migration failed: ${String(error)}`);
    }
    return {
      from: executed.at(-1) ?? null,
      to: known.at(-1) ?? null,
      applied: (results ?? []).filter((result) => result.status === "Success").map((result) => result.migrationName),
    };
  };
  return db.getExecutor().adapter instanceof SqliteAdapter ? whileHoldingSqliteWriteLock(db, run) : run();
}

/**
 * Runs `work` inside one write transaction of this process's single SQLite connection (every
 * statement the migrator sends goes through it). Another process migrating holds the write lock;
 * BEGIN IMMEDIATE waits for it (the connection's busy timeout, then again), and once it is ours the
 * migrator reads the schema as the other left it and finds nothing left to do. Any failure rolls back.
 */
async function whileHoldingSqliteWriteLock<T>(db: DatabaseHandle, work: () => Promise<T>): Promise<T> {
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
  await sql`commit`.execute(db);
  return result;
}

/** The one line `npm start` and `npm run db:migrate` print about the schema. */
export function describeSchemaUpgrade({ from, to, applied }: SchemaUpgrade): string {
  const count = `${applied.length} ${applied.length === 1 ? "migration" : "migrations"}`;
  if (applied.length === 0) return `Database is up to date (schema ${to ? shortName(to) : "empty"}).`;
  if (from === null) return `Database created at schema ${shortName(to ?? "")} (${count}).`;
  return `Database upgraded from ${shortName(from)} to ${shortName(to ?? "")} (${count}).`;
}
