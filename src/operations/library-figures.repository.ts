import { sql } from "kysely";
import type { DatabaseHandle } from "@/src/db/client";

// Read-only counts for /metrics, one statement each. They read other domains' tables directly
// because they only count rows (no rule decides who may see them: the metrics are the operator's),
// and each is a single grouped scan or a sum over one row per owner.

export function countPhotosByKindAndStatus(db: DatabaseHandle) {
  return db
    .selectFrom("photos")
    .select(["media_kind", "status", (eb) => eb.fn.countAll<string | number>().as("count")])
    .groupBy(["media_kind", "status"])
    .execute();
}

export async function countRows(db: DatabaseHandle, table: "albums" | "people" | "pending_uploads"): Promise<number> {
  const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<string | number>().as("count")).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Share links by state: revoked, expired (by date; a link out of views is still "active" here), active. */
export function countSharesByState(db: DatabaseHandle, now: string) {
  const state = sql<string>`case when revoked_at is not null then 'revoked' when expires_at is not null and expires_at <= ${now} then 'expired' else 'active' end`;
  return db
    .selectFrom("shares")
    .select([state.as("state"), (eb) => eb.fn.countAll<string | number>().as("count")])
    // By position: PostgreSQL takes the CASE's `now` in SELECT and GROUP BY as two parameters and
    // so as two different expressions; SQLite takes the position too.
    .groupBy(sql`1`)
    .execute();
}

/** Bytes stored for photos, from the per-owner totals kept in step with every write (storage_usage). */
export async function sumStoredBytes(db: DatabaseHandle): Promise<{ originals: number; variants: number }> {
  const row = await db
    .selectFrom("storage_usage")
    .select((eb) => [eb.fn.sum<string | number | null>("original_bytes").as("originals"), eb.fn.sum<string | number | null>("variant_bytes").as("variants")])
    .executeTakeFirstOrThrow();
  return { originals: Number(row.originals ?? 0), variants: Number(row.variants ?? 0) };
}

/** Unfinished jobs (queued, running) and failed ones by kind, with when the oldest of each was queued. */
export function summariseJobs(db: DatabaseHandle) {
  return db
    .selectFrom("jobs")
    .select(["kind", "status", (eb) => eb.fn.countAll<string | number>().as("count"), (eb) => eb.fn.min("created_at").as("oldest_created_at")])
    .where("status", "in", ["queued", "running", "failed"])
    .groupBy(["kind", "status"])
    .execute();
}
