import "server-only";
import { getDb } from "@/src/db/client";
import type { RecurringJob } from "@/src/jobs/recurring-jobs";
import { getLogger } from "@/src/log/logger";
import { purgeExpiredAuditEntries } from "./audit.service";

/**
 * Audit rows older than the retention setting go daily, once across instances, through the job
 * queue (src/jobs/recurring-jobs.ts); it was a timer of its own on every instance.
 */
export const auditPurgeJob: RecurringJob = {
  kind: "audit.purge",
  everyMs: 24 * 60 * 60 * 1000,
  run: async () => {
    const deleted = await purgeExpiredAuditEntries(getDb());
    if (deleted > 0) getLogger().info({ deleted }, "purged expired audit log entries");
  },
};
