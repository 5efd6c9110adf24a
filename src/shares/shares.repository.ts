import "server-only";
import type { DatabaseHandle } from "@/src/db/client";
import type { ShareRow } from "@/src/db/database";

/** The share with this key whose owner is still an enabled user; undefined otherwise. */
export function findShareByKey(db: DatabaseHandle, key: string): Promise<ShareRow | undefined> {
  return db
    .selectFrom("shares")
    .innerJoin("users", "users.id", "shares.owner_id")
    .selectAll("shares")
    .where("shares.key", "=", key)
    .where("users.disabled_at", "is", null)
    .executeTakeFirst();
}

/** The share with this id (no access rule: the service decides who may have it). */
export function findShareById(db: DatabaseHandle, id: string): Promise<ShareRow | undefined> {
  return db.selectFrom("shares").selectAll().where("id", "=", id).executeTakeFirst();
}

/**
 * Counts one admitted visit, only while the link has views left: the check and the count are one
 * statement, so concurrent visitors cannot overshoot the limit. False when it has none left.
 */
export async function countShareVisit(db: DatabaseHandle, shareId: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable("shares")
    .set((eb) => ({ view_count: eb("view_count", "+", 1), last_visited_at: now }))
    .where("id", "=", shareId)
    .where((eb) => eb.or([eb("max_views", "is", null), eb("view_count", "<", eb.ref("max_views"))]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Notes a visitor's activity on an admitted visit (photo pages, downloads), for "last visit". */
export async function touchShareVisit(db: DatabaseHandle, shareId: string, now: string): Promise<void> {
  await db.updateTable("shares").set({ last_visited_at: now }).where("id", "=", shareId).execute();
}

/** Counts one download (a photo or the ZIP). */
export async function countShareDownload(db: DatabaseHandle, shareId: string, now: string): Promise<void> {
  await db
    .updateTable("shares")
    .set((eb) => ({ download_count: eb("download_count", "+", 1), last_visited_at: now }))
    .where("id", "=", shareId)
    .execute();
}
