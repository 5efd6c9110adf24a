import { getDb, type DatabaseHandle } from "@/src/db/client";
import { getLogger } from "@/src/log/logger";

/** How often a running worker says it is alive; readiness calls it stale after three missed beats. */
export const WORKER_HEARTBEAT_SECONDS = 10;
const STALE_AFTER_MS = 3 * WORKER_HEARTBEAT_SECONDS * 1000;

/**
 * The newest heartbeat of any worker (in a web server or `npm run worker`), one row in the
 * `settings` key-value table rather than a table of its own: readiness only asks whether some
 * worker is alive, and every worker overwrites the same row with its time. The key is not one of
 * the site settings (src/settings reads only the keys it names).
 */
const HEARTBEAT_KEY = "worker.heartbeat";

export async function recordWorkerHeartbeat(db: DatabaseHandle, now: Date): Promise<void> {
  const value = now.toISOString();
  await db
    .insertInto("settings")
    .values({ key: HEARTBEAT_KEY, value })
    .onConflict((conflict) => conflict.column("key").doUpdateSet({ value }))
    .execute();
}

export async function readWorkerHeartbeat(db: DatabaseHandle): Promise<Date | null> {
  const row = await db.selectFrom("settings").select("value").where("key", "=", HEARTBEAT_KEY).executeTakeFirst();
  const time = row ? Date.parse(row.value) : Number.NaN;
  return Number.isNaN(time) ? null : new Date(time);
}

/** Stale: no worker has beaten in three periods (or ever). */
export function isHeartbeatStale(lastBeat: Date | null, now: Date): boolean {
  return lastBeat === null || now.getTime() - lastBeat.getTime() > STALE_AFTER_MS;
}

/** Beats now and every period until the answered function is called; a failed beat is logged, not fatal. */
export function startWorkerHeartbeat(): () => void {
  const beat = () => {
    recordWorkerHeartbeat(getDb(), new Date()).catch((error: unknown) => getLogger().warn({ err: error }, "could not record the worker's heartbeat"));
  };
  beat();
  const timer = setInterval(beat, WORKER_HEARTBEAT_SECONDS * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
