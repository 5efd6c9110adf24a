import { processSlot } from "@/src/config/process-singleton";
import { isDatabaseUnreachable } from "@/src/db/client";

/**
 * What server.mjs asks, installed at boot under `Symbol.for("contact-sheet.database-outage")`,
 * when Next.js is about to answer a request with 500: is the database unreachable right now? Then
 * the answer is 503 with Retry-After instead, as the API routes already answer (src/http's error
 * answer), so a balancer and a visitor see a dependency down rather than a bug. A page has no way to
 * say 503 itself: its error boundary is always rendered as 500.
 */
export interface DatabaseOutageHook {
  isUnreachable(): boolean;
}

export function installDatabaseOutageHook(): void {
  processSlot<DatabaseOutageHook>("database-outage").set({ isUnreachable: isDatabaseUnreachable });
}
