import { sql } from "kysely";
import { EnvironmentError, getEnv, type Environment } from "@/src/config/env";
import { type DatabaseHandle, closeDb, getDatabaseKind, getDb } from "@/src/db/client";
import { CommandFailure } from "./command-failure";

export interface SiteDatabase {
  db: DatabaseHandle;
  kind: "sqlite" | "postgres";
  env: Environment;
}

/**
 * The database of the site this machine runs, read from the same environment as `npm start`, once
 * a first query proved it answers: a server-side command refuses in one sentence, before doing
 * anything, when the environment is incomplete or the database is out of reach.
 */
export async function openSiteDatabase(): Promise<SiteDatabase> {
  let env: Environment;
  try {
    env = getEnv();
  } catch (error) {
    if (error instanceof EnvironmentError) throw new CommandFailure(error.message.replace("Contact Sheet cannot start", "The site's settings are incomplete"));
    throw error;
  }
  const db = getDb();
  const kind = getDatabaseKind();
  try {
    await sql`select 1`.execute(db);
  } catch (error) {
    await closeDb().catch(() => undefined);
    const where = kind === "postgres" ? "the PostgreSQL server DATABASE_URL names" : `the SQLite file in ${env.dataDirectory}`;
    throw new CommandFailure(`The database is not reachable (${where}): ${error instanceof Error ? error.message : String(error)}`);
  }
  return { db, kind, env };
}

/** Closes what openSiteDatabase opened, so the process can end. */
export async function closeSiteDatabase(): Promise<void> {
  await closeDb();
}
