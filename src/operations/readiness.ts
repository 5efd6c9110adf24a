import { sql } from "kysely";
import { processSingleton } from "@/src/config/process-singleton";
import type { DatabaseHandle } from "@/src/db/client";
import { findPendingMigrations } from "@/src/db/schema-upgrade";
import { isHeartbeatStale, readWorkerHeartbeat } from "@/src/jobs/worker-heartbeat";
import { getLogger } from "@/src/log/logger";
import type { Storage } from "@/src/storage/storage";
import { isShuttingDown } from "./shutdown-state";
import { probeStorage } from "./storage-probe";

/**
 * Each part's state, in fixed words: never a setting, a path, a host name or a driver's message
 * (those go to the log). "unknown": the part could not be judged because the database is down.
 */
export interface ReadinessChecks {
  database: "ok" | "unavailable";
  storage: "ok" | "unavailable";
  migrations: "ok" | "pending" | "unknown";
  worker: "ok" | "stale" | "unknown";
}

export type Readiness =
  | { status: "ready"; checks: ReadinessChecks }
  | { status: "not ready"; checks: ReadinessChecks; failed: string[] }
  | { status: "shutting down" };

/** A check that takes longer than this is a failed one: a probe must answer while the balancer waits. */
const CHECK_TIMEOUT_MS = 3000;
/** Probes from several balancers, or a storm of them, share one run of the checks this long. */
const REUSE_MS = 1000;

interface ReadinessDependencies {
  db: DatabaseHandle;
  storage: Storage;
  now?: () => Date;
}

/** The last run of the checks, shared per process (Next.js may bundle this module more than once). */
function lastRunSlot(): { run: { at: number; answer: Promise<Readiness> } | null } {
  return processSingleton("readiness-run", () => ({ run: null }));
}

/**
 * Whether this process should be sent traffic: the database answers, the store takes a write, a
 * read and a delete, no migration is pending, and some worker (in a web server or `npm run
 * worker`) beat its heartbeat lately. One run at a time, shared by the requests of the next second.
 */
export function checkReadiness(dependencies: ReadinessDependencies): Promise<Readiness> {
  if (isShuttingDown()) return Promise.resolve({ status: "shutting down" });
  const slot = lastRunSlot();
  const now = Date.now();
  if (slot.run && now - slot.run.at < REUSE_MS) return slot.run.answer;
  const answer = runChecks(dependencies);
  slot.run = { at: now, answer };
  return answer;
}

/** Forgets the shared run (tests that change what a check sees between two calls). */
export function forgetReadiness(): void {
  lastRunSlot().run = null;
}

async function runChecks({ db, storage, now = () => new Date() }: ReadinessDependencies): Promise<Readiness> {
  const [database, stored, pending, lastBeat] = await Promise.all([
    attempt("database", () => sql`select 1`.execute(db)),
    attempt("storage", () => probeStorage(storage)),
    attempt("migrations", () => findPendingMigrations(db)),
    attempt("worker", () => readWorkerHeartbeat(db)),
  ]);
  const checks: ReadinessChecks = {
    database: database === FAILED ? "unavailable" : "ok",
    storage: stored === FAILED ? "unavailable" : "ok",
    migrations: pending === FAILED ? "unknown" : pending.length === 0 ? "ok" : "pending",
    worker: lastBeat === FAILED ? "unknown" : isHeartbeatStale(lastBeat, now()) ? "stale" : "ok",
  };
  const failed = Object.entries(checks).filter(([, state]) => state !== "ok").map(([part, state]) => `${part} ${state}`);
  return failed.length === 0 ? { status: "ready", checks } : { status: "not ready", checks, failed };
}

const FAILED = Symbol("failed");

/** Runs one check under the time limit: its answer, or FAILED (the reason goes to the log only). */
async function attempt<Answer>(part: string, check: () => Promise<Answer>): Promise<Answer | typeof FAILED> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`the ${part} check took over ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS)));
    return await Promise.race([check(), timeout]);
  } catch (error) {
    getLogger().warn({ err: error, part }, "readiness check failed");
    return FAILED;
  } finally {
    clearTimeout(timer);
  }
}
