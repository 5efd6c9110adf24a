import { auditPurgeJob } from "@/src/audit-admin/audit-purge.job";
import { scheduledBackupJob } from "@/src/backup/scheduled-backup.job";
import type { RecurringJob } from "@/src/jobs/recurring-jobs";
import { orphanSweepJob } from "@/src/photos/orphan-sweep.job";
import { placeBackfillJob } from "@/src/photos/place-backfill.job";
import { trashPurgeJob } from "@/src/photos/trash-purge.job";
import { shareAddressHashingJob } from "@/src/shares/share-address-hashing.job";

/** Everything that runs every so often; the server and `npm run worker` both start them (src/jobs/recurring-jobs.ts). */
export const RECURRING_JOBS: readonly RecurringJob[] = [trashPurgeJob, shareAddressHashingJob, auditPurgeJob, scheduledBackupJob, placeBackfillJob, orphanSweepJob];
