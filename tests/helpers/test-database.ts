import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, type LogConfig, PostgresDialect, SqliteDialect } from "kysely";
import { Pool } from "pg";
import type { Database } from "@/src/db/database";
import { migrateToLatest } from "@/src/db/migrate";

export type TestDatabaseKind = "sqlite" | "postgres";

/**
 * Creates a PostgreSQL database next to the one in `adminUrl`, its name starting with `prefix`, and
 * answers its URL: empty, or a copy of `template`.
 */
export async function createFreshPostgresDatabase(adminUrl: string, prefix = "contact_sheet_test", template?: string): Promise<string> {
  const name = `${prefix}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const pool = new Pool({ connectionString: adminUrl, max: 1 });
  try {
    await pool.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
  } finally {
    await pool.end();
  }
  return databaseUrlNamed(adminUrl, name);
}

function databaseUrlNamed(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A short fingerprint of every migration file's name and text: a changed migration makes a new template. */
function migrationsFingerprint(): string {
  const directory = path.resolve(import.meta.dirname, "../../src/db/migrations");
  const hash = createHash("sha256");
  for (const file of fs.readdirSync(directory).filter((name) => name.endsWith(".ts")).sort()) {
    hash.update(file).update("\0").update(fs.readFileSync(path.join(directory, file))).update("\0");
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * The name of a database migrated to the latest schema, made once per set of migrations: PostgreSQL
 * copies it into each fresh test database (`CREATE DATABASE ... TEMPLATE`) in a fraction of the time
 * the 60-odd migrations take to run (1-3 s each time under CI's load, for about twenty files).
 * Built under another name and renamed when complete, under an advisory lock so that two runs
 * sharing a server build it once; nobody connects to it afterwards, which a copy requires.
 */
async function migratedPostgresTemplate(adminUrl: string): Promise<string> {
  const name = `contact_sheet_template_${migrationsFingerprint()}`;
  const pool = new Pool({ connectionString: adminUrl, max: 1 });
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock(hashtext('contact-sheet-test-template'))");
    const existing = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (existing.rowCount === 0) {
      const building = `${name}_building`;
      await client.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${building}`);
      const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: openTestPool(databaseUrlNamed(adminUrl, building)) }) });
      try {
        await migrateToLatest(db);
      } finally {
        await db.destroy();
      }
      await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    }
    return name;
  } finally {
    await client.query("SELECT pg_advisory_unlock(hashtext('contact-sheet-test-template'))").catch(() => undefined);
    client.release();
    await pool.end();
  }
}

export async function dropPostgresDatabase(adminUrl: string, databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  const pool = new Pool({ connectionString: adminUrl, max: 1 });
  await pool.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await pool.end();
}

/**
 * A pool for a test's own connections. Dropping a test database (`WITH (FORCE)`) ends any
 * connection still open to it, and a pool reports that on its 'error' event, which Node turns into
 * an uncaught exception when nobody listens; at that point the test is over, so it is ignored.
 */
function openTestPool(databaseUrl: string): Pool {
  const pool = new Pool({ connectionString: databaseUrl, max: 2 });
  pool.on("error", () => undefined);
  return pool;
}

/** A direct handle on the database the test server uses, to check what was (or was not) stored. */
export function openTestDatabase(options: { dataDirectory: string; databaseUrl?: string }): Kysely<Database> {
  if (options.databaseUrl) {
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool: openTestPool(options.databaseUrl) }) });
  }
  const file = path.join(options.dataDirectory, "contact-sheet.sqlite");
  if (!fs.existsSync(file)) throw new Error(`No SQLite database at ${file}`);
  const database = new SQLite(file);
  database.pragma("busy_timeout = 5000");
  return new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
}

/**
 * A freshly migrated database of the test's own, of the run's kind (PostgreSQL needs DATABASE_URL
 * for its admin connection), for code that must not share the test server's: the job queue's
 * claim, a worker, upload locks. Call `remove` when done.
 */
export async function openFreshDatabase(
  kind: TestDatabaseKind,
  options: { log?: LogConfig } = {},
): Promise<{ db: Kysely<Database>; remove: () => Promise<void> }> {
  if (kind === "postgres") {
    const adminUrl = process.env.DATABASE_URL as string;
    const databaseUrl = await createFreshPostgresDatabase(adminUrl, "contact_sheet_test", await migratedPostgresTemplate(adminUrl));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: openTestPool(databaseUrl) }), log: options.log });
    return {
      db,
      remove: async () => {
        await db.destroy();
        await dropPostgresDatabase(adminUrl, databaseUrl);
      },
    };
  }
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "contact-sheet-fresh-"));
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(path.join(directory, "fresh.sqlite")) }), log: options.log });
  await migrateToLatest(db);
  return {
    db,
    remove: async () => {
      await db.destroy();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
