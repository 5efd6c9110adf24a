// For the commands that run on the server (users, reprocess, backup, verify): the same environment and database as
// `npm start`, checked before any work, so a wrong DATA_DIR or a database that is down is one clear
// sentence rather than a stack trace (or, on SQLite, a new empty database quietly made elsewhere).
import fs from "node:fs";
import path from "node:path";
import type { SessionUser } from "@/src/access/viewer";
import { type Environment, EnvironmentError, getEnv } from "@/src/config/env";
import { closeDb, type DatabaseHandle, getDatabaseKind, getDb, SQLITE_FILE_NAME } from "@/src/db/client";
import { finishRestoreSwitch, RestoreSwitchError } from "@/src/db/restore-switch";
import { AppError } from "@/src/errors/app-error";
import { CommandFailure } from "./command-failure";

/**
 * Who a server command acts as: someone with a shell on the server, who could change the database
 * anyway. The audit log records its changes with this id as the actor.
 */
export const COMMAND_LINE_ACTOR: SessionUser = { id: "command-line", email: "", name: "contact-sheet command", role: "admin" };

/** The database's address without its password, for messages. */
function describeDatabase(databaseUrl: string | undefined, sqliteFile: string): string {
  if (!databaseUrl) return `SQLite at ${sqliteFile}`;
  const url = new URL(databaseUrl);
  url.password = "";
  return `PostgreSQL at ${url.toString()}`;
}

function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === "string" && !message.includes(code) ? `${code}: ${message}` : message;
}

/**
 * `npm start` keeps the session secret it made in DATA_DIR/.nextauth-secret when NEXTAUTH_SECRET is
 * not set; the environment check wants one, so a server command finds it the same way (it signs
 * nothing with it).
 */
function adoptStartsSessionSecret(): void {
  if (process.env.NEXTAUTH_SECRET) return;
  const file = path.join(path.resolve(process.env.DATA_DIR || "./data"), ".nextauth-secret");
  if (fs.existsSync(file)) process.env.NEXTAUTH_SECRET = fs.readFileSync(file, "utf8").trim();
}

/** A restore stopped between its renames left the data folder mid-switch: finished (and said) before the database is looked for. */
function finishInterruptedRestore(dataDirectory: string): void {
  try {
    const made = finishRestoreSwitch(dataDirectory);
    if (made) console.log(`Finished the switch of a restore that was stopped part way (${made.length} renames in ${dataDirectory}): the restored database and media are live.`);
  } catch (error) {
    if (error instanceof RestoreSwitchError) throw new CommandFailure(error.message);
    throw error;
  }
}

/** The site's database, opened and proved to answer, with the settings it was opened from. */
export interface ServerDatabase {
  db: DatabaseHandle;
  kind: "sqlite" | "postgres";
  env: Environment;
}

/**
 * Opens the site's database as `npm start` would, once a first query proved it is there, reachable
 * and migrated; refuses in one sentence otherwise. closeServerDatabase() lets the process end.
 */
export async function openServerDatabase(): Promise<ServerDatabase> {
  adoptStartsSessionSecret();
  let env: Environment;
  try {
    env = getEnv();
  } catch (error) {
    if (error instanceof EnvironmentError) throw new CommandFailure(`${error.message}\n(server commands read the same settings as npm start)`);
    throw error;
  }
  const sqliteFile = path.join(env.dataDirectory, SQLITE_FILE_NAME);
  const where = describeDatabase(env.DATABASE_URL, sqliteFile);
  if (!env.DATABASE_URL) finishInterruptedRestore(env.dataDirectory);
  if (!env.DATABASE_URL && !fs.existsSync(sqliteFile)) {
    throw new CommandFailure(`There is no database: ${where} does not exist. Set DATA_DIR (or DATABASE_URL) as for npm start, or start the site once to create it.`);
  }
  const db = getDb();
  try {
    // Reachable, and the site's schema is there (the site migrates it when it starts).
    await db.selectFrom("users").select("id").limit(1).execute();
  } catch (error) {
    await closeDb().catch(() => undefined);
    // A PostgreSQL restore's switch the first connection could not finish (src/db/client.ts): its own sentence says what to do.
    if (error instanceof RestoreSwitchError) throw new CommandFailure(error.message);
    throw new CommandFailure(`The database is not reachable (${where}): ${reasonOf(error)}. Server commands use the same settings as npm start.`);
  }
  return { db, kind: getDatabaseKind(), env };
}

export async function closeServerDatabase(): Promise<void> {
  await closeDb();
}

/** Runs `work` on the site's database, then closes it. AppErrors (a refused change) become one sentence. */
export async function withServerDatabase<T>(work: (db: DatabaseHandle) => Promise<T>): Promise<T> {
  const { db } = await openServerDatabase();
  try {
    return await work(db);
  } catch (error) {
    if (error instanceof AppError) throw new CommandFailure(error.message);
    throw error;
  } finally {
    await closeServerDatabase();
  }
}
