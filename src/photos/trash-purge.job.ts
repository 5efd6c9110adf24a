import "server-only";
import { getDb } from "@/src/db/client";
import { insertJob } from "@/src/jobs/jobs.repository";
import { notifyJobQueued, registerJobHandler } from "@/src/jobs/worker";
import { getLogger } from "@/src/log/logger";
import { purgeExpiredTrash } from "./trash.service";

/** Deletes, with their files, the photos whose time in the trash has run out. */
export const PURGE_TRASH_JOB = "trash.purge";

/** How often a process that runs the worker queues a purge; the retention is in days, so hourly is plenty. */
const PURGE_EVERY_MS = 60 * 60 * 1000;

export function registerTrashPurgeJob(): void {
  registerJobHandler(PURGE_TRASH_JOB, { run: async () => void (await purgeExpiredTrash(getDb())) });
}

/** Queues a purge unless one is already waiting or running (several instances may each ask; a purge twice is harmless). */
export async function queueTrashPurge(): Promise<void> {
  const db = getDb();
  const waiting = await db.selectFrom("jobs").select("id").where("kind", "=", PURGE_TRASH_JOB).where("status", "in", ["queued", "running"]).executeTakeFirst();
  if (waiting) return;
  await insertJob(db, { kind: PURGE_TRASH_JOB, photoId: null, priority: 5 }, new Date().toISOString());
  notifyJobQueued();
}

let timer: NodeJS.Timeout | null = null;

/** In a process that runs the worker: a purge now (after start-up) and then every hour, through the job queue. */
export function scheduleTrashPurge(): void {
  if (timer) return;
  const queue = () => void queueTrashPurge().catch((error: unknown) => getLogger().warn({ err: error }, "could not queue the trash purge"));
  setTimeout(queue, 5_000).unref();
  timer = setInterval(queue, PURGE_EVERY_MS);
  timer.unref();
}
