import { findPostgresPool, findSqliteFile, getDb } from "@/src/db/client";
import { AccessVersionGate } from "./access-version-gate";
import { readMediaAccessVersion, readMediaAccessVersionFromPool, readMediaAccessVersionNow } from "./media-access-version.repository";

/**
 * An AccessVersionGate over this process's database, for a cache of public bytes (the hot media
 * cache, the visitor's gallery HTML): it reads the version at once on SQLite, and on PostgreSQL
 * through the pool with a prepared statement, since a busy cache reads it about once per round trip.
 */
export function openAccessVersionGate(onChange: () => void): AccessVersionGate {
  const sqliteFile = findSqliteFile();
  if (sqliteFile) return new AccessVersionGate(() => readMediaAccessVersion(getDb()), onChange, () => readMediaAccessVersionNow(sqliteFile));
  const pool = findPostgresPool();
  return new AccessVersionGate(() => (pool ? readMediaAccessVersionFromPool(pool) : readMediaAccessVersion(getDb())), onChange);
}
