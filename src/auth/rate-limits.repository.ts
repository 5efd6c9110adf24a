import type { DatabaseHandle } from "@/src/db/client";

/** A counter as it stands: how many events in the window that ends at `resetsAt`. */
export interface RateLimitCounter {
  count: number;
  resetsAt: string;
}

/**
 * Counts one event for `key` if the key is under `limit`, in one statement (INSERT ... ON CONFLICT
 * DO UPDATE ... WHERE ... RETURNING on both SQLite and PostgreSQL), so two requests at the same
 * moment can never both take the last slot. A window that has ended starts again at 1. Answers the
 * new count, or undefined when the key was already at its limit (nothing was counted).
 */
export async function incrementRateLimitCounter(
  db: DatabaseHandle,
  counter: { key: string; limit: number; resetsAt: string },
  now: string,
): Promise<RateLimitCounter | undefined> {
  const row = await db
    .insertInto("rate_limits")
    .values({ key: counter.key, count: 1, resets_at: counter.resetsAt })
    .onConflict((conflict) =>
      conflict
        .column("key")
        .doUpdateSet((eb) => ({
          count: eb.case().when("rate_limits.resets_at", "<=", now).then(1).else(eb("rate_limits.count", "+", 1)).end(),
          resets_at: eb.case().when("rate_limits.resets_at", "<=", now).then(eb.ref("excluded.resets_at")).else(eb.ref("rate_limits.resets_at")).end(),
        }))
        .where((eb) => eb.or([eb("rate_limits.resets_at", "<=", now), eb("rate_limits.count", "<", counter.limit)])),
    )
    .returning(["count", "resets_at"])
    .executeTakeFirst();
  return row ? { count: Number(row.count), resetsAt: row.resets_at } : undefined;
}

/** The counter of `key` in its current window, or undefined when it has none (nothing counted yet, or the window ended). */
export async function findRateLimitCounter(db: DatabaseHandle, key: string, now: string): Promise<RateLimitCounter | undefined> {
  const row = await db
    .selectFrom("rate_limits")
    .select(["count", "resets_at"])
    .where("key", "=", key)
    .where("resets_at", ">", now)
    .executeTakeFirst();
  return row ? { count: Number(row.count), resetsAt: row.resets_at } : undefined;
}

/** Takes back one event counted for `key` (never below zero). */
export async function decrementRateLimitCounter(db: DatabaseHandle, key: string): Promise<void> {
  await db
    .updateTable("rate_limits")
    .set((eb) => ({ count: eb("count", "-", 1) }))
    .where("key", "=", key)
    .where("count", ">", 0)
    .execute();
}

export async function deleteRateLimitCounter(db: DatabaseHandle, key: string): Promise<void> {
  await db.deleteFrom("rate_limits").where("key", "=", key).execute();
}

/** Forgets every counter whose window has ended (they count as zero anyway). */
export async function deleteExpiredRateLimitCounters(db: DatabaseHandle, now: string): Promise<void> {
  await db.deleteFrom("rate_limits").where("resets_at", "<=", now).execute();
}
