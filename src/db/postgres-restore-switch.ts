// Whoever opens a PostgreSQL site next finishes a restore's switch that a kill interrupted (see
// restore-switch.ts): the restore's journal is in DATA_DIR, and whether its database switch
// committed is asked of the server itself.
import { Client } from "pg";
import { type DatabaseSwitchOutcome, finishDatabaseRestoreSwitch, RestoreSwitchError } from "./restore-switch";

/** PostgreSQL's code for "database does not exist". */
const NO_SUCH_DATABASE = "3D000";

/**
 * The oid of the database `databaseUrl` names, or null when there is none (a first restore killed
 * before its rename committed leaves no database under the live name).
 */
export async function liveDatabaseOid(databaseUrl: string): Promise<number | null> {
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
  } catch (error) {
    if ((error as { code?: unknown }).code === NO_SUCH_DATABASE) return null;
    throw error;
  }
  try {
    const { rows } = await client.query<{ oid: string }>("select oid::text as oid from pg_database where datname = current_database()");
    return rows[0] ? Number(rows[0].oid) : null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Finishes (or drops, when its database switch never committed) the journal of a PostgreSQL restore in `dataDirectory`. */
export function finishPostgresRestoreSwitch(dataDirectory: string, databaseUrl: string): Promise<DatabaseSwitchOutcome | null> {
  return finishDatabaseRestoreSwitch(dataDirectory, async (name) => {
    const live = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
    // Another database's switch: neither finished nor dropped from here.
    if (live !== name) throw new RestoreSwitchError(`The restore's switch record in ${dataDirectory} is for the database ${name}, and DATABASE_URL names ${live}: start the site with the DATABASE_URL the restore used.`);
    return liveDatabaseOid(databaseUrl);
  });
}

/** One sentence for the owner on what finishing an interrupted switch did. */
export function describeSwitchOutcome(outcome: DatabaseSwitchOutcome, dataDirectory: string): string {
  if ("finished" in outcome) {
    return `Finished the switch of a restore that was stopped part way (${outcome.finished.length} renames in ${dataDirectory}): the restored database and media are live.`;
  }
  return `A restore was stopped before its database switch committed: ${outcome.abandoned.name} and the media are as they were before it (the next restore removes its copies).`;
}
