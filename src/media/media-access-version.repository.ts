import type SQLite from "better-sqlite3";
import type { Pool } from "pg";
import type { DatabaseHandle } from "@/src/db/client";

/** The current version of what may be served publicly (see access-version-gate.ts). */
export async function readMediaAccessVersion(db: DatabaseHandle): Promise<number> {
  const row = await db.selectFrom("media_access_version").select("version").where("id", "=", 1).executeTakeFirstOrThrow();
  return Number(row.version);
}

const preparedReads = new WeakMap<SQLite.Database, SQLite.Statement<[], { version: number }>>();

/** The same read, synchronously, on a SQLite connection (see findSqliteFile). */
export function readMediaAccessVersionNow(file: SQLite.Database): number {
  let statement = preparedReads.get(file);
  if (!statement) {
    statement = file.prepare<[], { version: number }>("select version from media_access_version where id = 1");
    preparedReads.set(file, statement);
  }
  const row = statement.get();
  if (!row) throw new Error("media_access_version has no row");
  return Number(row.version);
}

/** The same read on a PostgreSQL pool, as a named statement: prepared once per connection. */
export async function readMediaAccessVersionFromPool(pool: Pool): Promise<number> {
  const result = await pool.query<{ version: number }>({ name: "read-media-access-version", text: "select version from media_access_version where id = 1" });
  if (result.rows.length === 0) throw new Error("media_access_version has no row");
  return Number(result.rows[0].version);
}

/**
 * Moves the version on: every instance drops its cached public media before its next answer. Call
 * it in the transaction that withdraws the media, or after that has committed, never before.
 */
export async function bumpMediaAccessVersion(db: DatabaseHandle): Promise<void> {
  await db
    .updateTable("media_access_version")
    .set((eb) => ({ version: eb("version", "+", 1) }))
    .where("id", "=", 1)
    .execute();
}
