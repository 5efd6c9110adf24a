import "server-only";
import { getDb } from "@/src/db/client";
import type { RecurringJob } from "@/src/jobs/recurring-jobs";
import { removeOrphanFiles } from "./orphan-files";

/** Removes stored files whose photo has no row (a process killed between storing a file and committing its row). */
export const SWEEP_ORPHANS_JOB = "storage.sweep-orphans";

/**
 * Daily, once across instances (src/jobs/recurring-jobs.ts), besides the sweep at every start: a
 * site that is never restarted kept a killed upload's original for ever (bench:load's case 49).
 * Daily, because it lists every stored file; files younger than an hour are never judged.
 */
export const orphanSweepJob: RecurringJob = {
  kind: SWEEP_ORPHANS_JOB,
  everyMs: 24 * 60 * 60 * 1000,
  run: async () => void (await removeOrphanFiles(getDb())),
};
