// Upgrading from every earlier schema (issue 33): for each migration in the history, a database at
// exactly that schema, filled with rows of that time, is brought to the latest schema, and its rows
// must come through with their values, the new columns at their defaults and the derived tables
// (search, storage use) in step. The real built server also upgrades an old database on start,
// says so and answers from its rows (the oldest schema holding photos on SQLite, one from the
// middle on PostgreSQL), and refuses a database a newer version has upgraded, untouched.
//
// Cost: a fresh database per schema, each taken to the latest (about 29 × 15 migrations), took 8 s
// on SQLite and 17 s on PostgreSQL here, too much of this file's budget. So the schemas are a
// ladder in one database: step i runs migration i and writes a set of rows of that time (their ids
// and unique values tagged with i); at the top, every set has been through every later migration,
// as it would have been from a database left at that schema, and is compared with what it was when
// written. Each migration runs once, over the rows of every schema before it.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Database } from "@/src/db/database";
import { describeSchemaUpgrade, shortName, upgradeSchema } from "@/src/db/schema-upgrade";
import { hashPassword } from "@/src/users/password";
import {
  type AnyDatabase,
  compareSnapshots,
  derivedTablesProblems,
  describeTables,
  fillRepresentativeRows,
  migrateExactlyTo,
  migrationFiles,
  migrationHistory,
  runMigrationUp,
  type Snapshot,
  snapshotRows,
  UPGRADE_ALBUMS,
  UPGRADE_PASSWORD,
  UPGRADE_PHOTOS,
  UPGRADE_USERS,
} from "./helpers/schema-history";
import { findFreePort, spawnServer, waitUntilHealthy } from "./helpers/server-process";
import { TestClient } from "./helpers/test-client";
import { createFreshPostgresDatabase, dropPostgresDatabase } from "./helpers/test-database";

const databaseKind = inject("databaseKind");
const adminUrl = process.env.DATABASE_URL ?? "";
const SECRET = "upgrades-test-secret-0123456789abcdefgh";
const history = await migrationHistory();
const latest = history.at(-1) ?? "";

/**
 * The schema the real built server upgrades on start, on each database (the ladder below upgrades
 * every schema in this process, through the same migrations). A server start costs about 9 s on a
 * busy 2-core machine against milliseconds for a migration, so there is one per database: on SQLite
 * (a self-hoster's old data folder) the oldest schema that holds photos, on PostgreSQL one from the
 * middle, with albums and share links. Both run in CI, where DATABASE_URL is set.
 */
const SERVER_UPGRADE = databaseKind === "sqlite" ? "2026-11-22T0100-photos" : "2026-11-27T0000-shares";

/** A database of its own at some schema: SQLite in a folder the server can use as DATA_DIR, or PostgreSQL. */
interface ScratchDatabase {
  /** The test's handle; closed while a server has the database. */
  readonly db: AnyDatabase;
  /** What a server started on it needs. */
  env: Record<string, string>;
  /** Closes the test's handle, so a server can have the database to itself. */
  close(): Promise<void>;
  /** Opens the test's handle again. */
  reopen(): void;
  remove(): Promise<void>;
}

function openSqlite(file: string): AnyDatabase {
  const database = new SQLite(file);
  // As the app opens it: cascades and "set null" are part of what the rows go through.
  database.pragma("foreign_keys = ON");
  database.pragma("busy_timeout = 5000");
  // No waiting on the disk for each of the test's hundreds of small commits: the data is what is
  // tested, not its durability (a server started on the file sets its own).
  database.pragma("synchronous = OFF");
  return new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
}

function openPostgres(databaseUrl: string, max = 2): AnyDatabase {
  // No idle timeout: the ladder's one connection holds its transaction between tests.
  const pool = new Pool({ connectionString: databaseUrl, max, idleTimeoutMillis: 0 });
  pool.on("error", () => undefined);
  // As with SQLite: the test's commits need not wait for the disk.
  pool.on("connect", (client) => void client.query("set synchronous_commit = off").catch(() => undefined));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

async function openScratch(options: { connections?: number } = {}): Promise<ScratchDatabase> {
  const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), "contact-sheet-upgrade-"));
  const databaseUrl = databaseKind === "postgres" ? await createFreshPostgresDatabase(adminUrl, "contact_sheet_upgrade") : "";
  const open = () => (databaseUrl ? openPostgres(databaseUrl, options.connections) : openSqlite(path.join(dataDirectory, "contact-sheet.sqlite")));
  let db: AnyDatabase | null = open();
  const close = async () => {
    await db?.destroy();
    db = null;
  };
  return {
    get db() {
      if (!db) throw new Error("The scratch database is closed");
      return db;
    },
    env: { DATA_DIR: dataDirectory, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
    close,
    reopen: () => {
      db = open();
    },
    remove: async () => {
      await close();
      if (databaseUrl) await dropPostgresDatabase(adminUrl, databaseUrl);
      fs.rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
}

let passwordHash = "";

beforeAll(async () => {
  passwordHash = await hashPassword(UPGRADE_PASSWORD);
});

describe("the migration history", () => {
  it("registers every migration file in src/db/migrations, so each one is upgraded from below", () => {
    expect(history).toEqual(migrationFiles());
    expect(history.length).toBeGreaterThan(1);
  });
});

/** Starts the built server on the scratch database, with no worker (the old rows' jobs stay as they are). */
async function startServerOn(scratch: ScratchDatabase) {
  const port = await findFreePort();
  const server = spawnServer(port, { ...scratch.env, NEXTAUTH_URL: `http://127.0.0.1:${port}`, NEXTAUTH_SECRET: SECRET, RUN_WORKER: "false" });
  return server;
}

/** What the API answers from the old rows, through the server that upgraded them. */
async function checkAnswers(baseUrl: string, migration: string): Promise<void> {
  const anonymous = new TestClient(baseUrl);
  const publicPage = await anonymous.request(`/p/${UPGRADE_PHOTOS.publicReady}`);
  expect(publicPage.status).toBe(200);
  expect(await publicPage.text()).toContain("Harbour at dawn");
  expect((await anonymous.request(`/p/${UPGRADE_PHOTOS.privateReady}`)).status).toBe(404);

  const admin = new TestClient(baseUrl);
  expect((await admin.signIn(UPGRADE_USERS.admin.email, UPGRADE_PASSWORD)).status).toBe(200);
  const photos = await admin.request("/api/photos?limit=50");
  expect(photos.status).toBe(200);
  const listed = ((await photos.json()) as { photos: Array<{ id: string }> }).photos.map((photo) => photo.id);
  expect(listed).toEqual(expect.arrayContaining([UPGRADE_PHOTOS.publicReady, UPGRADE_PHOTOS.privateReady, UPGRADE_PHOTOS.membersOfEditor]));
  // The search index the upgrade built over the old rows.
  const found = (await (await admin.request("/api/photos?q=harbour")).json()) as { photos: Array<{ id: string }> };
  expect(found.photos.map((photo) => photo.id)).toEqual([UPGRADE_PHOTOS.publicReady]);

  if (migration >= "2026-11-26T0100-albums") {
    const album = await admin.request(`/api/albums/${UPGRADE_ALBUMS.parent}`);
    expect(album.status).toBe(200);
    expect(((await album.json()) as { album: { title: string } }).album.title).toBe("Trips");
    const child = await admin.request(`/api/albums/${UPGRADE_ALBUMS.child}`);
    expect(child.status).toBe(200);
    expect(((await child.json()) as { album: { title: string } }).album.title).toBe("Oslo");
    // Nobody signed in sees no album through the API.
    expect((await anonymous.request(`/api/albums/${UPGRADE_ALBUMS.parent}`)).status).toBe(401);
  }
  if (migration >= "2026-11-27T0000-shares") {
    // The live link asks for its password; the revoked one says it was turned off.
    const live = await anonymous.request("/s/upgradeShareKey123456789");
    expect(live.status).toBe(401);
    expect(await live.text()).toMatch(/Photos shared with you|This link has a password/);
    const revoked = await anonymous.request("/s/upgradeAlbumShareKey1234");
    expect(await revoked.text()).toContain("This link was turned off");
  }
}

describe("from each earlier schema to the latest", () => {
  let ladder: ScratchDatabase;
  /** What the rows were at each schema, right after that schema's set was written. */
  const atSchema = new Map<string, Snapshot>();

  beforeAll(async () => {
    ladder = await openScratch();
  });

  afterAll(async () => {
    await ladder.remove();
  });

  it.each(history.map((migration, index) => ({ migration, set: index })))("$migration: rows of its time are written", async ({ migration, set }) => {
    // One transaction a step: a commit per row was most of the step's time.
    await ladder.db.transaction().execute(async (step) => {
      await runMigrationUp(step, migration);
      const schema = await describeTables(step, databaseKind);
      const filled = await fillRepresentativeRows(step, schema, passwordHash, set);
      atSchema.set(migration, await snapshotRows(step, schema, filled));
    });
  });

  describe("at the latest schema", () => {
    let latestRows: Snapshot;

    beforeAll(async () => {
      const tables = [...new Set([...atSchema.values()].flatMap((snapshot) => [...snapshot.keys()]))];
      latestRows = await snapshotRows(ladder.db, await describeTables(ladder.db, databaseKind), tables);
    });

    it.each(history)("the rows written at %s keep their values, and new columns hold their defaults", (migration) => {
      const before = atSchema.get(migration);
      expect(before, "its set was not written").toBeDefined();
      // Later sets' rows are there too; each set is checked against its own schema's snapshot.
      expect(compareSnapshots(before as Snapshot, latestRows, migration, { newRowsAllowedIn: "all" })).toEqual([]);
    });

    it("the search index and the storage use were built over every old row", async () => {
      expect(await derivedTablesProblems(ladder.db)).toEqual([]);
    });
  });
});

const SERVER_HOUSEKEEPING = ["audit_log", "jobs", "rate_limits", "pending_uploads", "upload_locks", "revoked_sessions", "share_access_log"];

describe(`the built server started on a database at ${SERVER_UPGRADE}`, () => {
  const migration = SERVER_UPGRADE;
  const pending = history.length - history.indexOf(migration) - 1;
  let scratch: ScratchDatabase | undefined;

  afterAll(async () => {
    await scratch?.remove();
  });

  it("upgrades it, says so, answers from the old rows and keeps them", async () => {
    scratch = await openScratch();
    await migrateExactlyTo(scratch.db, migration);
    const schema = await describeTables(scratch.db, databaseKind);
    // The tables the running server keeps house in are left out of the comparison (the ladder
    // compares them): it sweeps spent rate limits and abandoned uploads, audits the sign-in and
    // queues its recurring jobs.
    const filled = (await fillRepresentativeRows(scratch.db, schema, passwordHash)).filter((table) => !SERVER_HOUSEKEEPING.includes(table));
    const before = await snapshotRows(scratch.db, schema, filled);
    await scratch.close();

    const server = await startServerOn(scratch);
    try {
      await waitUntilHealthy(server);
      expect(server.output()).toContain(`Database upgraded from ${shortName(migration)} to ${shortName(latest)} (${pending} migrations).`);
      await checkAnswers(server.url, migration);
    } finally {
      await server.stop();
    }

    scratch.reopen();
    const after = await snapshotRows(scratch.db, await describeTables(scratch.db, databaseKind), filled);
    expect(compareSnapshots(before, after, migration)).toEqual([]);
    expect(await derivedTablesProblems(scratch.db)).toEqual([]);
    // The next start has nothing to do, and says that.
    expect(describeSchemaUpgrade(await upgradeSchema(scratch.db))).toBe(`Database is up to date (schema ${shortName(latest)}).`);
  }, 60_000);

  // Then the same database, put one migration back, as a newer version had upgraded it: it has run
  // one migration this code has never heard of. What the server prints is this error's message after
  // "Contact Sheet cannot start:" (src/server/boot.ts); a server start to see it printed would cost
  // 3.5 s of this file's budget, so the refusal is checked here.
  it("refuses it once a newer version has upgraded it, with the reason, running and changing nothing", async () => {
    if (!scratch) throw new Error("The upgrade above did not run");
    const db = scratch.db;
    await migrateExactlyTo(db, history.at(-2) ?? "");
    const future = "2999-01-01T0000-from-a-newer-version";
    await db.insertInto("kysely_migration").values({ name: future, timestamp: new Date().toISOString() }).execute();
    const executed = async () => ((await db.selectFrom("kysely_migration").select("name").orderBy("name").execute()) as Array<{ name: string }>).map((row) => row.name);
    const before = await executed();

    await expect(upgradeSchema(db)).rejects.toThrow("it has run migration 2999-01-01T0000, which this version does not know");
    expect(await executed()).toEqual(before);
    // The migration this code has and the database lacks was not run either.
    expect(before).not.toContain(latest);
  });
});
