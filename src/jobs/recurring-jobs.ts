import { processSingleton } from "@/src/config/process-singleton";
import { type DatabaseHandle, getDb } from "@/src/db/client";
import { getLogger } from "@/src/log/logger";
import { insertRecurringRun } from "./jobs.repository";
import { notifyJobQueued, registerJobHandler } from "./worker";

/**
 * Work that runs every so often (purging the trash and the audit log, hashing old share addresses),
 * one way: through the job queue, once per period across every instance. Each process that starts
 * them checks now and then whether the current period's run is queued and queues it if not; the
 * row's id is the period's, so however many instances check, one run is queued, and one worker
 * claims it. A process that does not run the worker only queues; a worker elsewhere runs it.
 */
export interface RecurringJob {
  /** The job's kind in the queue. */
  kind: string;
  /** The period: one run per this many milliseconds, periods counted from the Unix epoch (UTC). */
  everyMs: number;
  run: () => Promise<void>;
}

/** Behind uploads' work (0) and a photo's later phases; these are never urgent. */
const RECURRING_PRIORITY = 5;
/** How often a process looks whether the current period's run is queued (at most; a period shorter than this is checked once per period). */
const CHECK_EVERY_MS = 5 * 60 * 1000;
/** The first look, once start-up is done. */
const FIRST_CHECK_AFTER_MS = 5_000;

/** When the period `now` falls in began. */
export function periodStartOf(job: RecurringJob, now: Date): Date {
  return new Date(Math.floor(now.getTime() / job.everyMs) * job.everyMs);
}

/** Queues the run of the period `now` falls in, unless any instance already did. Answers whether this call queued it. */
export async function queueRecurringRun(db: DatabaseHandle, job: RecurringJob, now: Date = new Date()): Promise<boolean> {
  const queued = await insertRecurringRun(db, { kind: job.kind, periodStartsAt: periodStartOf(job, now).toISOString(), priority: RECURRING_PRIORITY }, now.toISOString());
  if (queued) notifyJobQueued();
  return queued;
}

/**
 * Registers each job's handler and, once per process (every bundle copy shares the timers), starts
 * checking that each period's run is queued.
 */
export function startRecurringJobs(jobs: readonly RecurringJob[]): void {
  const timers = processSingleton("recurring-job-timers", () => new Map<string, NodeJS.Timeout>());
  for (const job of jobs) {
    registerJobHandler(job.kind, { run: job.run });
    if (timers.has(job.kind)) continue;
    const check = () =>
      void queueRecurringRun(getDb(), job).catch((error: unknown) => getLogger().warn({ err: error, kind: job.kind }, "could not queue a recurring job"));
    setTimeout(check, FIRST_CHECK_AFTER_MS).unref();
    const timer = setInterval(check, Math.min(job.everyMs, CHECK_EVERY_MS));
    timer.unref();
    timers.set(job.kind, timer);
  }
}
