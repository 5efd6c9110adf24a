import { processSingleton } from "@/src/config/process-singleton";

/**
 * Whether this process has begun to stop (SIGTERM): readiness answers 503 "shutting down" from
 * then on, so a load balancer stops sending new requests while those in flight finish.
 */
function getState(): { shuttingDown: boolean } {
  return processSingleton("shutdown-state", () => ({ shuttingDown: false }));
}

export function markShuttingDown(): void {
  getState().shuttingDown = true;
}

export function isShuttingDown(): boolean {
  return getState().shuttingDown;
}
