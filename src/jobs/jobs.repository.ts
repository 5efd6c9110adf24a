import type { DatabaseHandle, DatabaseKind } from "@/src/db/client";
import type { JobRow } from "@/src/db/database";

export interface NewJob {
  kind: string;
  photoId: string | null;
  /** Lower runs first: the work that makes a photo visible before the work that polishes it. */
  priority: number;
}

export async function insertJob(db: DatabaseHandle, job: NewJob, now: string): Promise<string> {
  const id = crypto.randomUUID();
  await db
    .insertInto("jobs")
    .values({ id, kind: job.kind, photo_id: job.photoId, priority: job.priority, status: "queued", attempts: 0, created_at: now, updated_at: now })
    .execute();
  return id;
}

/**
 * Claims the next runnable job: a queued one, or a running one whose worker's lease ran out (it
 * crashed or was killed) and that has attempts left. On PostgreSQL the row is locked with SKIP LOCKED so concurrent workers
 * never claim the same job; SQLite runs one write at a time, so the single UPDATE is atomic.
 */
export async function claimNextJob(
  db: DatabaseHandle,
  databaseKind: DatabaseKind,
  options: { now: string; leaseExpiresAt: string; maximumAttempts: number; maximumPriority?: number },
): Promise<JobRow | undefined> {
  return db
    .updateTable("jobs")
    .set((eb) => ({
      status: "running",
      attempts: eb("attempts", "+", 1),
      lease_expires_at: options.leaseExpiresAt,
      updated_at: options.now,
    }))
    .where("id", "=", (eb) =>
      eb
        .selectFrom("jobs")
        .select("id")
        .where((where) =>
          where.or([
            // A queued job's lease, when it has one, is the time it was postponed to (postponeJob).
            where.and([where("status", "=", "queued"), where.or([where("lease_expires_at", "is", null), where("lease_expires_at", "<", options.now)])]),
            where.and([
              where("status", "=", "running"),
              where("lease_expires_at", "<", options.now),
              where("attempts", "<", options.maximumAttempts),
            ]),
          ]),
        )
        .$if(options.maximumPriority !== undefined, (query) => query.where("priority", "<=", options.maximumPriority as number))
        .orderBy("priority")
        .orderBy("created_at")
        .limit(1)
        .$call((query) => (databaseKind === "postgres" ? query.forUpdate().skipLocked() : query)),
    )
    .returningAll()
    .executeTakeFirst();
}

/**
 * Fails, and answers, the running jobs whose lease ran out on their last allowed attempt: their
 * worker died every time (a photo that crashes or exhausts the process must not loop forever).
 */
export function failAbandonedJobs(db: DatabaseHandle, options: { now: string; maximumAttempts: number; reason: string }): Promise<JobRow[]> {
  return db
    .updateTable("jobs")
    .set({ status: "failed", last_error: options.reason, lease_expires_at: null, updated_at: options.now })
    .where("status", "=", "running")
    .where("lease_expires_at", "<", options.now)
    .where("attempts", ">=", options.maximumAttempts)
    .returningAll()
    .execute();
}

export async function extendLease(db: DatabaseHandle, id: string, leaseExpiresAt: string): Promise<void> {
  await db.updateTable("jobs").set({ lease_expires_at: leaseExpiresAt }).where("id", "=", id).where("status", "=", "running").execute();
}

/**
 * Hands a running job back to the queue (a worker shutting down): queued again with no lease, and
 * the try it had begun not counted, so another worker takes it at once with all its tries.
 */
export async function releaseJob(db: DatabaseHandle, id: string, now: string): Promise<void> {
  await db
    .updateTable("jobs")
    .set((eb) => ({ status: "queued", attempts: eb("attempts", "-", 1), lease_expires_at: null, updated_at: now }))
    .where("id", "=", id)
    .where("status", "=", "running")
    .execute();
}

/**
 * Puts a running job back in the queue until `notBefore`, the try it had begun not counted: it met
 * a dependency that is down (the database, the store, a full disk), which says nothing about the
 * job. Without the wait its three tries were spent within a second of a short outage and the photo
 * was marked failed (bench:load's "disk full" row).
 */
export async function postponeJob(db: DatabaseHandle, id: string, options: { error: string; notBefore: string; now: string }): Promise<void> {
  await db
    .updateTable("jobs")
    .set((eb) => ({ status: "queued", attempts: eb("attempts", "-", 1), last_error: options.error, lease_expires_at: options.notBefore, updated_at: options.now }))
    .where("id", "=", id)
    .where("status", "=", "running")
    .execute();
}

export async function finishJob(db: DatabaseHandle, id: string, outcome: { status: "done" | "failed" | "queued"; error?: string }, now: string): Promise<void> {
  await db
    .updateTable("jobs")
    .set({ status: outcome.status, last_error: outcome.error ?? null, lease_expires_at: null, updated_at: now })
    .where("id", "=", id)
    .execute();
}

export async function countJobsByStatus(db: DatabaseHandle): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom("jobs")
    .select(["status", (eb) => eb.fn.countAll<string | number>().as("count")])
    .groupBy("status")
    .execute();
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
}

/**
 * Queues one period's run of a recurring job, unless an instance already has: the row's id names
 * the job and its period, so every other insert for that period does nothing (ON CONFLICT on the
 * primary key, atomic on both databases). Answers whether this call queued it.
 */
export async function insertRecurringRun(db: DatabaseHandle, run: { kind: string; periodStartsAt: string; priority: number }, now: string): Promise<boolean> {
  const result = await db
    .insertInto("jobs")
    .values({ id: `${run.kind}@${run.periodStartsAt}`, kind: run.kind, photo_id: null, priority: run.priority, status: "queued", attempts: 0, created_at: now, updated_at: now })
    .onConflict((conflict) => conflict.column("id").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Deletes every job of these kinds, whatever its state (a feature turned off takes its queue with it). */
export async function deleteJobsOfKinds(db: DatabaseHandle, kinds: readonly string[]): Promise<number> {
  const result = await db.deleteFrom("jobs").where("kind", "in", [...kinds]).executeTakeFirst();
  return Number(result.numDeletedRows);
}
