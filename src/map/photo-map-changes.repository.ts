import { sql } from "kysely";
import type { DatabaseHandle } from "@/src/db/client";

// The log of photos changed in a way the map shows, whoever changed them (written only by the
// triggers of migration 2026-12-05T0200-photo-map-changes, which says why and how a reader stands
// in it). One statement per function, the handle first. A "mark" is where the log stands: on
// SQLite the last row's seq (one writer at a time, so nothing can commit below it later); on
// PostgreSQL the snapshot's xmin (every transaction below it has ended, so every row committed
// later carries a transaction id at or above it).

/** PostgreSQL, by the handle itself (Next.js may bundle a second copy of Kysely, so not `instanceof`): only it runs DDL in transactions. */
function isPostgres(db: DatabaseHandle): boolean {
  return db.getExecutor().adapter.supportsTransactionalDdl;
}

/** Where the log stands now: every change committed from now on is found by `listPhotosChangedAfter(mark)`. */
export async function readPhotoMapChangesMark(db: DatabaseHandle): Promise<number> {
  if (isPostgres(db)) {
    const { rows } = await sql<{ mark: string }>`select pg_snapshot_xmin(pg_current_snapshot())::text as mark`.execute(db);
    return Number(rows[0].mark);
  }
  const row = await db
    .selectFrom("photo_map_changes")
    .select((eb) => eb.fn.max("seq").as("mark"))
    .executeTakeFirst();
  return Number(row?.mark ?? 0);
}

/**
 * The photos logged since `mark` (each once, at most `limit`): on SQLite the rows after it; on
 * PostgreSQL the rows of transactions at or above it that have committed (a few read again on the
 * next call too: harmless, a photo read again is patched to what it already is). Rows numbered
 * beyond the current snapshot (a log restored from another cluster) are not changes of this one.
 */
export async function listPhotosChangedAfter(db: DatabaseHandle, mark: number, limit: number): Promise<string[]> {
  const query = db.selectFrom("photo_map_changes").select("photo_id").distinct().limit(limit);
  const rows = isPostgres(db)
    ? await query
        .where("xact_id", ">=", mark)
        .where(sql<boolean>`xact_id < pg_snapshot_xmax(pg_current_snapshot())::text::bigint`)
        .execute()
    : await query.where("seq", ">", mark).execute();
  return rows.map((row) => row.photo_id);
}
