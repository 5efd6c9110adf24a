import { EventEmitter } from "node:events";
import { getDatabaseKind, getDb } from "@/src/db/client";
import { isDatabaseUnavailable } from "@/src/db/errors";
import type { JobRow } from "@/src/db/database";
import { AppError } from "@/src/errors/app-error";
import { getLogger } from "@/src/log/logger";
import { createSpareCoreMeter } from "./cpu-headroom";
import { claimNextJob, extendLease, failAbandonedJobs, finishJob, postponeJob, releaseJob } from "./jobs.repository";
import { startWorkerHeartbeat } from "./worker-heartbeat";
import { processSingleton } from "@/src/config/process-singleton";
import { getAppMetrics } from "@/src/metrics/metrics-registry";

/** Runs one job. Throwing an AppError with a client-error code (422, 415) fails it for good. */
export interface JobHandler {
  run(job: JobRow): Promise<void>;
  /** Called once when the job fails for good, to record why (e.g. on the photo). */
  onFinalFailure?(job: JobRow, reason: string): Promise<void>;
}

const MAXIMUM_ATTEMPTS = 3;
/** How long a job that met a dependency outage waits before it runs again (its try not counted). */
const OUTAGE_RETRY_SECONDS = 10;
const IDLE_POLL_MS = 2000;
/** How often a slot kept from later phases looks again whether the CPU has room. */
const HEADROOM_POLL_MS = 500;
/** A later phase keeps about one core busy; it starts during uploads only if one is (mostly) idle. */
const SPARE_CORES_FOR_A_LATER_PHASE = 0.75;

interface WorkerState {
  handlers: Map<string, JobHandler>;
  wakeUp: EventEmitter;
  isRunning: boolean;
  leaseSeconds: number;
  /** When abandoned jobs were last looked for; once per lease is enough, as none can appear sooner. */
  lastAbandonedSweepAt: number;
  /** Uploads arriving in this process right now (see whileUploading). */
  uploadsInFlight: number;
  /** Whether the machine has a core to spare for a later phase while uploads arrive. */
  hasSpareCore: () => boolean;
  /** The jobs this process runs right now, by id, each with the promise of its end. */
  runningJobs: Map<string, Promise<void>>;
  /** Jobs handed back to the queue at shutdown: their late end must not overwrite another worker's claim. */
  releasedJobs: Set<string>;
  /** Stops the heartbeat timer; set while the worker runs. */
  stopHeartbeat: (() => void) | null;
}

function getState(): WorkerState {
  return processSingleton<WorkerState>("worker", () => ({
    handlers: new Map(),
    wakeUp: new EventEmitter(),
    isRunning: false,
    leaseSeconds: 60,
    lastAbandonedSweepAt: 0,
    uploadsInFlight: 0,
    hasSpareCore: () => false,
    runningJobs: new Map(),
    releasedJobs: new Set(),
    stopHeartbeat: null,
  }));
}

export function registerJobHandler(kind: string, handler: JobHandler): void {
  getState().handlers.set(kind, handler);
}

/** Wakes idle workers in this process at once instead of at their next poll. */
export function notifyJobQueued(): void {
  getState().wakeUp.emit("job");
}

/**
 * Runs `work` (receiving and storing an upload) as an upload in flight. While any is, the worker
 * puts making photos visible (priority 0) before their later phases: the first slot takes only
 * priority-0 jobs, so a photo that has just arrived never waits behind every slot's long job; the
 * other slots start a later phase only while the machine has a core to spare. Receiving and
 * checking uploads is CPU work too (about 0.4 CPU-s per 24 MP JPEG), and a later phase started
 * beside it would slow every upload, and so every photo's visible phase, to finish itself sooner.
 * Over a slow network the uploads leave the CPU idle and later phases run as they arrive; over a
 * fast one they wait until the CPU has room or the last upload ends, which wakes every slot.
 */
export async function whileUploading<T>(work: () => Promise<T>): Promise<T> {
  const state = getState();
  const { uploadsInProgress } = getAppMetrics();
  state.uploadsInFlight += 1;
  uploadsInProgress.inc();
  try {
    return await work();
  } finally {
    state.uploadsInFlight -= 1;
    uploadsInProgress.dec();
    if (state.uploadsInFlight === 0) notifyJobQueued();
  }
}

function secondsFromNow(seconds: number): string {
  return new Date(Date.now() + seconds * 1000).toISOString();
}

function isPermanent(error: unknown): boolean {
  return error instanceof AppError && error.status >= 400 && error.status < 500;
}

/** The job met something down around it (the database, the store, a full disk), not a fault of its own. */
function isDependencyOutage(error: unknown): boolean {
  if (error instanceof AppError) return error.code === "SERVICE_UNAVAILABLE" || error.code === "INSUFFICIENT_STORAGE";
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return isDatabaseUnavailable(error) || code === "ENOSPC" || code === "EDQUOT";
}

/** Runs a claimed job and records its end, keeping it in runningJobs meanwhile so a shutdown can wait for it. */
function runClaimedJob(job: JobRow): Promise<void> {
  const { runningJobs, releasedJobs } = getState();
  const run = runAndRecord(job).finally(() => {
    runningJobs.delete(job.id);
    releasedJobs.delete(job.id);
  });
  runningJobs.set(job.id, run);
  return run;
}

async function runAndRecord(job: JobRow): Promise<void> {
  const logger = getLogger().child({ jobId: job.id, kind: job.kind, photoId: job.photo_id, attempt: job.attempts });
  const handler = getState().handlers.get(job.kind);
  const { leaseSeconds, releasedJobs } = getState();
  const { jobDuration, jobFailures } = getAppMetrics();
  const startedAt = performance.now();
  const elapsedSeconds = () => (performance.now() - startedAt) / 1000;
  const renew = setInterval(() => {
    extendLease(getDb(), job.id, secondsFromNow(leaseSeconds)).catch((error: unknown) => logger.warn({ err: error }, "could not extend the lease"));
  }, (leaseSeconds * 1000) / 3);
  try {
    if (!handler) throw new AppError("INTERNAL", `No handler for jobs of kind ${job.kind}`);
    await handler.run(job);
    jobDuration.observe({ kind: job.kind, outcome: "done" }, elapsedSeconds());
    // Handed back at shutdown: another worker may hold it now, and will finish it itself.
    if (releasedJobs.has(job.id)) return;
    await finishJob(getDb(), job.id, { status: "done" }, new Date().toISOString());
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (isDependencyOutage(error) && !releasedJobs.has(job.id)) {
      jobDuration.observe({ kind: job.kind, outcome: "retry" }, elapsedSeconds());
      logger.warn({ err: error }, `a dependency is down; the job runs again in ${OUTAGE_RETRY_SECONDS} s`);
      const now = new Date().toISOString();
      await postponeJob(getDb(), job.id, { error: reason.slice(0, 1000), notBefore: secondsFromNow(OUTAGE_RETRY_SECONDS), now });
      return;
    }
    const isFinal = isPermanent(error) || job.attempts >= MAXIMUM_ATTEMPTS;
    jobDuration.observe({ kind: job.kind, outcome: isFinal ? "failed" : "retry" }, elapsedSeconds());
    jobFailures.inc({ kind: job.kind, final: String(isFinal) });
    if (releasedJobs.has(job.id)) return;
    logger[isFinal ? "error" : "warn"]({ err: error }, isFinal ? "job failed" : "job failed; it will run again");
    await finishJob(getDb(), job.id, { status: isFinal ? "failed" : "queued", error: reason.slice(0, 1000) }, new Date().toISOString());
    if (isFinal) await handler?.onFinalFailure?.(job, reason).catch((hookError: unknown) => logger.error({ err: hookError }, "could not record the failure"));
  } finally {
    clearInterval(renew);
  }
}

const ABANDONED_REASON = "Processing stopped without finishing, on every try (the worker was killed or ran out of memory).";

/** Records the jobs whose worker died on their last try as failed, with the reason on their photo. */
async function failAbandoned(): Promise<void> {
  const state = getState();
  // Idle slots poll every few seconds; on SQLite each sweep would take the write lock.
  if (Date.now() - state.lastAbandonedSweepAt < state.leaseSeconds * 1000) return;
  state.lastAbandonedSweepAt = Date.now();
  const jobs = await failAbandonedJobs(getDb(), { now: new Date().toISOString(), maximumAttempts: MAXIMUM_ATTEMPTS, reason: ABANDONED_REASON });
  for (const job of jobs) {
    getLogger().error({ jobId: job.id, kind: job.kind, photoId: job.photo_id }, "job abandoned on its last try");
    await state.handlers.get(job.kind)?.onFinalFailure?.(job, ABANDONED_REASON);
  }
}

function waitForWork(timeoutMs = IDLE_POLL_MS): Promise<void> {
  const { wakeUp } = getState();
  return new Promise((resolve) => {
    const timer = setTimeout(finish, timeoutMs);
    function finish() {
      clearTimeout(timer);
      wakeUp.off("job", finish);
      resolve();
    }
    wakeUp.once("job", finish);
  });
}

async function runSlot(isHeldForUploads: boolean): Promise<void> {
  const state = getState();
  while (state.isRunning) {
    try {
      const onlyVisibleJobs = state.uploadsInFlight > 0 && (isHeldForUploads || !state.hasSpareCore());
      const job = await claimNextJob(getDb(), getDatabaseKind(), {
        now: new Date().toISOString(),
        leaseExpiresAt: secondsFromNow(state.leaseSeconds),
        maximumAttempts: MAXIMUM_ATTEMPTS,
        maximumPriority: onlyVisibleJobs ? 0 : undefined,
      });
      if (job && !state.isRunning) {
        // Claimed while a shutdown began: back to the queue at once, untouched.
        await releaseJob(getDb(), job.id, new Date().toISOString());
      } else if (job) {
        await runClaimedJob(job);
      } else {
        await failAbandoned();
        // A slot kept back for lack of CPU looks again soon; the CPU may free up before any event.
        await waitForWork(onlyVisibleJobs && !isHeldForUploads ? HEADROOM_POLL_MS : IDLE_POLL_MS);
      }
    } catch (error) {
      getLogger().error({ err: error }, "worker loop error");
      await waitForWork();
    }
  }
}

interface WorkerOptions {
  concurrency: number;
  leaseSeconds: number;
  /** Whether a core is free for a later phase while uploads arrive; by default the machine's idle time. */
  hasSpareCore?: () => boolean;
}

/**
 * Starts `concurrency` job loops in this process. Jobs live in the database, so a job whose worker
 * died (crash, SIGKILL, deploy) is claimed again once its lease of `leaseSeconds` runs out; a live
 * worker renews its lease three times per lease.
 */
export function startWorker({ concurrency, leaseSeconds, hasSpareCore }: WorkerOptions): void {
  const state = getState();
  if (state.isRunning) return;
  state.isRunning = true;
  state.leaseSeconds = leaseSeconds;
  const spareCoresLately = createSpareCoreMeter({ windowMs: HEADROOM_POLL_MS });
  state.hasSpareCore = hasSpareCore ?? (() => spareCoresLately() >= SPARE_CORES_FOR_A_LATER_PHASE);
  state.wakeUp.setMaxListeners(concurrency + 10);
  // With one slot only, holding it back would leave the larger sizes waiting for a whole import.
  for (let slot = 0; slot < concurrency; slot += 1) void runSlot(slot === 0 && concurrency > 1);
  state.stopHeartbeat = startWorkerHeartbeat();
  getLogger().info({ concurrency }, "processing worker started");
}

export function stopWorker(): void {
  const state = getState();
  state.isRunning = false;
  state.stopHeartbeat?.();
  state.stopHeartbeat = null;
  notifyJobQueued();
}

export interface WorkerShutdown {
  /** Jobs that ended (done or failed) within the grace period. */
  finished: number;
  /** Jobs still running when it ran out, handed back to the queue for another worker to take at once. */
  released: number;
}

/**
 * Stops the worker for a shutdown: no new job is claimed; the running ones get `graceMs` to end;
 * those still running then are handed back (queued again, the try not counted, no lease), so
 * another worker takes them at once instead of after their lease runs out. The caller then exits;
 * a released job's half-made files are replaced or swept as when a worker is killed.
 */
export async function shutDownWorker(graceMs: number): Promise<WorkerShutdown> {
  const state = getState();
  stopWorker();
  const running = [...state.runningJobs.entries()];
  if (running.length === 0) return { finished: 0, released: 0 };
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
  await Promise.race([Promise.allSettled(running.map(([, run]) => run)), graceOver]);
  clearTimeout(timer);
  const unfinished = running.filter(([id]) => state.runningJobs.has(id)).map(([id]) => id);
  const now = new Date().toISOString();
  for (const id of unfinished) {
    state.releasedJobs.add(id);
    await releaseJob(getDb(), id, now).catch((error: unknown) => getLogger().warn({ err: error, jobId: id }, "could not hand the job back; it runs again after its lease"));
  }
  return { finished: running.length - unfinished.length, released: unfinished.length };
}
