// npm run worker – a processing worker of its own, for sites that run the web servers with
// RUN_WORKER=false and scale photo processing separately. Jobs are claimed from the database, so
// any number of these can run beside each other.
import { getEnv } from "@/src/config/env";
import { startRecurringJobs } from "@/src/jobs/recurring-jobs";
import { shutDownWorker, startWorker } from "@/src/jobs/worker";
import { registerJobsAndListeners } from "@/src/server/job-registrations";
import { RECURRING_JOBS } from "@/src/server/recurring-work";
import { getLogger } from "@/src/log/logger";
import { getStorage } from "@/src/storage/app-storage";
import { getTemporaryDirectory, removeAbandonedTemporaryFiles } from "@/src/storage/temporary-files";

async function main(): Promise<void> {
  const env = getEnv();
  await getStorage().prepare();
  // As the server does at start: a worker killed in the middle of a job (SIGKILL, out of memory)
  // leaves here the copy of the original it worked from (S3) or a video's ffmpeg output, and the
  // worker started in its place is the one that can tell their writer is gone.
  const leftovers = await removeAbandonedTemporaryFiles(getTemporaryDirectory());
  if (leftovers > 0) getLogger().info({ removed: leftovers }, "removed temporary files that a stopped process left behind");
  registerJobsAndListeners();
  startRecurringJobs(RECURRING_JOBS);
  startWorker({ concurrency: env.WORKER_CONCURRENCY, leaseSeconds: env.JOB_LEASE_SECONDS });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void stop(signal, env.SHUTDOWN_GRACE_SECONDS * 1000));
}

/**
 * SIGTERM or Ctrl-C: no new job is claimed, running ones get SHUTDOWN_GRACE_SECONDS to finish, and
 * those still running are handed back to the queue so another worker takes them at once (a
 * SIGKILL leaves them to be claimed again when their lease runs out). Then "stopped", exit 0.
 */
async function stop(signal: string, graceMs: number): Promise<void> {
  console.log(`Stopping the worker (${signal}): finishing running jobs (up to ${graceMs / 1000} s)…`);
  try {
    const { finished, released } = await shutDownWorker(graceMs);
    if (finished + released > 0) console.log(`Jobs: ${finished} finished, ${released} handed back to the queue.`);
    console.log("Worker stopped.");
    process.exit(0);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
