import { getEnv } from "@/src/config/env";
import { processSlot } from "@/src/config/process-singleton";
import { shutDownWorker, type WorkerShutdown } from "@/src/jobs/worker";
import { markShuttingDown } from "@/src/operations/shutdown-state";

/**
 * What server.mjs (plain JavaScript, outside the bundle) calls on SIGTERM, installed at boot under
 * `Symbol.for("contact-sheet.shutdown")`: the grace period from SHUTDOWN_GRACE_SECONDS, the switch
 * that turns readiness to 503 "shutting down", and the worker's drain (running jobs finish within
 * the grace period or go back to the queue).
 */
export interface ShutdownHook {
  graceMs: number;
  begin(): void;
  drainWorker(graceMs: number): Promise<WorkerShutdown>;
}

export function installShutdownHook(): void {
  processSlot<ShutdownHook>("shutdown").set({
    graceMs: getEnv().SHUTDOWN_GRACE_SECONDS * 1000,
    begin: markShuttingDown,
    drainWorker: shutDownWorker,
  });
}
