import SQLite from "better-sqlite3";
import { Kysely, sql, SqliteDialect } from "kysely";
import type { DatabaseHandle } from "@/src/db/client";
import type { Database } from "@/src/db/database";

/**
 * A consistent copy of the live SQLite database while the site keeps running: `VACUUM INTO` reads
 * one snapshot in a single read transaction (WAL lets the site's writers go on meanwhile) and writes
 * a compact file. better-sqlite3's online `backup()` was the other choice; it copies page by page
 * and starts again from the first page whenever another process writes, so under a steady stream of
 * uploads it may never finish.
 */
export async function snapshotSqlite(db: DatabaseHandle, target: string): Promise<void> {
  await sql`vacuum into ${target}`.execute(db);
}

/** A Kysely handle over a SQLite file (a snapshot or a restore's copy); destroy it when done. */
export function openSqliteFile(file: string, options: { readonly: boolean }): DatabaseHandle {
  const connection = new SQLite(file, { readonly: options.readonly, fileMustExist: true });
  if (!options.readonly) connection.pragma("foreign_keys = ON");
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) });
}
