import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect } from "kysely";
import { Pool, type PoolClient } from "pg";
import { getEnv } from "@/src/config/env";
import { getLogger } from "@/src/log/logger";
import type { Database } from "./database";
import { CONNECTION_LOST, POOL_CONNECT_TIMEOUT } from "./errors";
import { describeSwitchOutcome, finishPostgresRestoreSwitch } from "./postgres-restore-switch";
import { finishRestoreSwitch, RESTORE_SWITCH_JOURNAL } from "./restore-switch";
import { ImmediateTransactionSqliteDialect } from "./sqlite-dialect";
import { processSlot } from "@/src/config/process-singleton";

export type DatabaseKind = "sqlite" | "postgres";
export type DatabaseHandle = Kysely<Database>;

interface DatabaseState {
  db: DatabaseHandle;
  kind: DatabaseKind;
  /** The SQLite connection itself, for the few reads that must not wait a turn of the event loop. */
  sqliteFile?: SQLite.Database;
  /** The PostgreSQL pool itself, for the few reads that run on nearly every request. */
  postgresPool?: Pool;
}

// One client per process (src/config/process-singleton.ts): Next.js may load this module once per
// route bundle, and each copy would otherwise open its own pool or SQLite handle. A slot, not a
// plain singleton, because closeDb empties it.
const database = processSlot<DatabaseState>("database");

// How long a write waits for another process's lock (a separate worker, a backup) before the
// request answers 503. better-sqlite3 is synchronous, so this process waits without serving.
const SQLITE_BUSY_TIMEOUT_MS = 5000;
const POSTGRES_CONNECT_TIMEOUT_MS = 5000;

/**
 * pg's pool, whose failures to hand out a connection always carry a code: its own timeouts are plain
 * Errors known only by their message, and the error answer matches codes, never messages.
 */
export class CodedPool extends Pool {
  /** When handing out a connection last failed and last worked: the server is unreachable while the failure is newer. */
  lastConnectFailureAt = 0;
  lastConnectSuccessAt = 0;
  /** Work every connection waits for before it is handed out (finishing a restore's switch); null once done. */
  private gate: Promise<void> | null = null;

  /** Hands out no connection, to Kysely or to a raw query, until `work` has ended; if it fails, every connection fails with its error. */
  holdUntil(work: Promise<void>): void {
    this.gate = work.then(() => {
      this.gate = null;
    });
    this.gate.catch(() => undefined);
  }

  override connect(): Promise<PoolClient>;
  override connect(callback: (error: Error | undefined, client: PoolClient | undefined, done: (release?: unknown) => void) => void): void;
  override connect(
    callback?: (error: Error | undefined, client: PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): Promise<PoolClient> | void {
    const gate = this.gate;
    if (gate) {
      if (!callback) return gate.then(() => this.connect());
      gate.then(
        () => this.connect(callback),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), undefined, () => undefined),
      );
      return;
    }
    // Both forms: Kysely asks for a promise, while pg's own pool.query (the raw reads on nearly
    // every request) asks with a callback, whose timeouts answered 500 uncoded under bench:load.
    if (callback) {
      return super.connect((error, client, done) => {
        if (error) callback(this.failedToConnect(error), client, done);
        else callback(error, this.connected(client as PoolClient), done);
      });
    }
    return super.connect().then(
      (client) => this.connected(client),
      (error: unknown) => {
        throw this.failedToConnect(error);
      },
    );
  }

  private connected(client: PoolClient): PoolClient {
    this.lastConnectSuccessAt = Date.now();
    codeBrokenConnectionErrors(client);
    return client;
  }

  private failedToConnect(error: unknown): Error {
    this.lastConnectFailureAt = Date.now();
    const failure = error instanceof Error ? error : new Error(String(error));
    if ((failure as { code?: unknown }).code === undefined) Object.assign(failure, { code: POOL_CONNECT_TIMEOUT });
    return failure;
  }
}

const codedClients = new WeakSet<PoolClient>();

/**
 * Gives CONNECTION_LOST to a query's error when the connection under it broke (the server stopped
 * or ended it mid-transaction): pg raises those without a code ("Connection terminated
 * unexpectedly", "... not queryable"), and they answered 500 where a 503 says to try again
 * (bench:load's "PostgreSQL stopped" row, on a tus upload's rollback). Only then: a code-less error
 * on a live connection stays what it is. `_ended` and `_queryable` are pg's Client's own flags.
 */
function codeBrokenConnectionErrors(client: PoolClient): void {
  if (codedClients.has(client)) return;
  codedClients.add(client);
  // pg's pool listens for a client's 'error' only while it is idle; a connection that ends while
  // the client is lent out (a query or transaction running) emitted 'error' to nobody, which Node
  // makes an uncaught exception: the process died. The query itself is told by its rejection.
  // (Logged at debug: the query's own answer, or the pool's idle listener, reports it once.)
  client.on("error", (error) => getLogger().debug({ err: error }, "a database connection ended"));
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const markIfBroken = (error: unknown) => {
    const state = client as unknown as { _ended?: boolean; _queryable?: boolean };
    const broken = state._ended === true || state._queryable === false;
    if (broken && error instanceof Error && (error as { code?: unknown }).code === undefined) Object.assign(error, { code: CONNECTION_LOST });
    throw error;
  };
  Object.assign(client, {
    query: (...args: unknown[]) => {
      const result = query(...args);
      // A promise for a plain query; a submitted object (a cursor) reports its own errors.
      return result instanceof Promise ? result.catch(markIfBroken) : result;
    },
  });
}

/** The SQLite database's file inside DATA_DIR (backup and restore name it too). */
export const SQLITE_FILE_NAME = "contact-sheet.sqlite";

function openDatabase(): DatabaseState {
  const env = getEnv();
  if (env.DATABASE_URL) {
    const pool = new CodedPool({
      connectionString: env.DATABASE_URL,
      max: env.DATABASE_POOL_SIZE,
      connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS,
    });
    // A server restart or failover ends every idle connection, and pg reports each on the pool's
    // 'error' event, which Node turns into an uncaught exception when nobody listens: `npm run
    // worker` died of it (bench:load's "PostgreSQL stopped" row). The pool has already dropped the
    // broken connection and opens a new one on the next query; requests meanwhile answer 503.
    pool.on("error", (error) => getLogger().warn({ err: error }, "a database connection ended; the next query opens a new one"));
    // A restore killed between its database switch and its media switch is finished (or, when its
    // database switch never committed, dropped) before the first query: the restored database must
    // never be served with the media it replaced (restore-switch.ts).
    if (fs.existsSync(path.join(env.dataDirectory, RESTORE_SWITCH_JOURNAL))) {
      const databaseUrl = env.DATABASE_URL;
      pool.holdUntil(
        finishPostgresRestoreSwitch(env.dataDirectory, databaseUrl).then((outcome) => {
          if (outcome) console.warn(describeSwitchOutcome(outcome, env.dataDirectory));
        }),
      );
    }
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), kind: "postgres", postgresPool: pool };
  }
  fs.mkdirSync(env.dataDirectory, { recursive: true });
  // A restore stopped between its renames is finished before the file is opened (restore-switch.ts):
  // opened first, a missing database would be made anew, empty.
  const finished = finishRestoreSwitch(env.dataDirectory);
  if (finished) console.warn(`Finished the switch of a restore that was stopped part way (${finished.length} renames in ${env.dataDirectory}): the restored database and media are live.`);
  const file = new SQLite(path.join(env.dataDirectory, SQLITE_FILE_NAME));
  file.pragma("journal_mode = WAL");
  file.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  file.pragma("foreign_keys = ON");
  // FULL, not WAL's usual NORMAL: a photo answered 201 must survive a power cut too, not only a
  // crash. Commits here are few (a photo, a job's claim and finish), so the extra fsync is cheap.
  file.pragma("synchronous = FULL");
  return { db: new Kysely<Database>({ dialect: new ImmediateTransactionSqliteDialect({ database: file }) }), kind: "sqlite", sqliteFile: file };
}

function getState(): DatabaseState {
  const state = database.get() ?? openDatabase();
  database.set(state);
  return state;
}

/** The process-wide database handle. */
export function getDb(): DatabaseHandle {
  return getState().db;
}

export function getDatabaseKind(): DatabaseKind {
  return getState().kind;
}

/**
 * The SQLite connection behind `getDb()` (null on PostgreSQL), for a read on a hot path that must
 * answer synchronously (better-sqlite3 is synchronous; Kysely's driver adds promise turns and a
 * mutex, 18 µs against 2.4 µs for a prepared point query on this machine). It shares the
 * connection, so it may see another caller's transaction before it commits: use it only where
 * seeing a change early is harmless.
 */
export function findSqliteFile(): SQLite.Database | null {
  return getState().sqliteFile ?? null;
}

/**
 * The PostgreSQL pool behind `getDb()` (null on SQLite), for a read that runs on nearly every
 * request and so is worth a named prepared statement (131 µs against Kysely's 290 µs for a point
 * query on this machine): the media access version.
 */
export function findPostgresPool(): Pool | null {
  return getState().postgresPool ?? null;
}

export async function closeDb(): Promise<void> {
  const state = database.get();
  database.set(undefined);
  await state?.db.destroy();
}

/**
 * How long after the pool last failed to hand out a connection a failing page still answers 503: a
 * page that waited its turn in a saturated pool fails while others, just served, succeed, so "the
 * last attempt failed" is not enough (bench:load at full size: 237 pages answered 500).
 */
const RECENT_CONNECT_FAILURE_MS = POSTGRES_CONNECT_TIMEOUT_MS;

/**
 * Whether the PostgreSQL pool could not hand out a connection lately: the server unreachable (the
 * last attempt failed) or every connection busy (an attempt timed out within the last few seconds).
 * Always false on SQLite, and before the first query. A page cannot answer 503 itself (Next.js
 * renders its error page as 500), so server.mjs asks this when a page fails (src/server/database-outage-hook.ts).
 */
export function isDatabaseUnreachable(now = Date.now()): boolean {
  const pool = database.get()?.postgresPool;
  if (!(pool instanceof CodedPool) || pool.lastConnectFailureAt === 0) return false;
  return pool.lastConnectFailureAt > pool.lastConnectSuccessAt || now - pool.lastConnectFailureAt < RECENT_CONNECT_FAILURE_MS;
}
