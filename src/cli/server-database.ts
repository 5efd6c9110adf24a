// For the commands that run on the server (users, reprocess): the same environment and database as
// `npm start`, checked before any work, so a wrong DATA_DIR or a database that is down is one clear
// sentence rather than a stack trace (or, on SQLite, a new empty database quietly made elsewhere).
import fs from "node:fs";
import path from "node:path";
import type { SessionUser } from "@/src/access/viewer";
import { EnvironmentError, getEnv } from "@/src/config/env";
import { closeDb, type DatabaseHandle, getDb } from "@/src/db/client";
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

/** Runs `work` on the site's database, then closes it. AppErrors (a refused change) become one sentence. */
export async function withServerDatabase<T>(work: (db: DatabaseHandle) => Promise<T>): Promise<T> {
  adoptStartsSessionSecret();
  let env;
  try {
    env = getEnv();
  } catch (error) {
    if (error instanceof EnvironmentError) throw new CommandFailure(`${error.message}\n(server commands read the same settings as npm start)`);
    throw error;
  }
  const sqliteFile = path.join(env.dataDirectory, "contact-sheet.sqlite");
  const where = describeDatabase(env.DATABASE_URL, sqliteFile);
  if (!env.DATABASE_URL && !fs.existsSync(sqliteFile)) {
    throw new CommandFailure(`There is no database: ${where} does not exist. Set DATA_DIR (or DATABASE_URL) as for npm start, or start the site once to create it.`);
  }
  try {
    const db = getDb();
    try {
      // Reachable, and the site's schema is there (the site migrates it when it starts).
      await db.selectFrom("users").select("id").limit(1).execute();
    } catch (error) {
      throw new CommandFailure(`The database is not reachable (${where}): ${reasonOf(error)}. Server commands use the same settings as npm start.`);
    }
    try {
      return await work(db);
    } catch (error) {
      if (error instanceof AppError) throw new CommandFailure(error.message);
      throw error;
    }
  } finally {
    await closeDb();
  }
}
