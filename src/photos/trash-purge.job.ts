import "server-only";
import { getDb } from "@/src/db/client";
import type { RecurringJob } from "@/src/jobs/recurring-jobs";
import { purgeExpiredTrash } from "./trash.service";

/** Deletes, with their files, the photos whose time in the trash has run out. */
export const PURGE_TRASH_JOB = "trash.purge";

/** Hourly, once across instances (src/jobs/recurring-jobs.ts); the retention is in days, so hourly is plenty. */
export const trashPurgeJob: RecurringJob = {
  kind: PURGE_TRASH_JOB,
  everyMs: 60 * 60 * 1000,
  run: async () => void (await purgeExpiredTrash(getDb())),
};
