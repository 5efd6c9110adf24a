// npm run worker – a processing worker of its own, for sites that run the web servers with
// RUN_WORKER=false and scale photo processing separately. Jobs are claimed from the database, so
// any number of these can run beside each other.
import { getEnv } from "@/src/config/env";
import { startWorker } from "@/src/jobs/worker";
import { registerPhotoJobs } from "@/src/photos/photo-processing.job";
import { registerTrashPurgeJob, scheduleTrashPurge } from "@/src/photos/trash-purge.job";
import { registerShareAddressHashingJob, scheduleShareAddressHashing } from "@/src/shares/share-address-hashing.job";
import { getStorage } from "@/src/storage/app-storage";

async function main(): Promise<void> {
  const env = getEnv();
  await getStorage().prepare();
  registerPhotoJobs();
  registerTrashPurgeJob();
  registerShareAddressHashingJob();
  // Stopped by a signal like any process: a job cut off mid-way is claimed again when its lease ends.
  startWorker({ concurrency: env.WORKER_CONCURRENCY, leaseSeconds: env.JOB_LEASE_SECONDS });
  scheduleTrashPurge();
  scheduleShareAddressHashing();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
