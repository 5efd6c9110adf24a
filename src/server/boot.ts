import { EnvironmentError, getEnv } from "@/src/config/env";
import { processSlot } from "@/src/config/process-singleton";
import { getDb } from "@/src/db/client";
import { DatabaseNewerThanCodeError, describeSchemaUpgrade, upgradeSchema } from "@/src/db/schema-upgrade";
import { startRecurringJobs } from "@/src/jobs/recurring-jobs";
import { startWorker } from "@/src/jobs/worker";
import { getLogger } from "@/src/log/logger";
import { removeOrphanFiles } from "@/src/photos/orphan-files";
import { installAnonymousPages } from "./anonymous-pages";
import { registerJobsAndListeners } from "./job-registrations";
import { RECURRING_JOBS } from "./recurring-work";
import { installDatabaseOutageHook } from "./database-outage-hook";
import { installShutdownHook } from "./shutdown-hook";
import { getStorage } from "@/src/storage/app-storage";
import { getTemporaryDirectory, removeAbandonedTemporaryFiles } from "@/src/storage/temporary-files";
import { createAdminFromEnvironment, issueSetupToken } from "@/src/setup/first-admin.service";
import { startTusUploadExpiry } from "@/src/uploads/tus-server";
import { emailSchema, nameSchema, passwordSchema } from "@/src/users/users.schemas";
import { getVideoToolsStatus } from "@/src/video/configured-video-tools";

/**
 * Runs once when the server starts, before it answers requests: checks the environment, brings the
 * database up to date, and makes sure there is a way to get a first admin.
 */
export async function bootServer(): Promise<void> {
  const env = getEnv();
  const logger = getLogger();
  const upgrade = await upgradeSchema(getDb());
  // Printed plainly as well as logged: an owner who upgraded wants to see that the data followed.
  console.log(describeSchemaUpgrade(upgrade));
  logger.info({ ...upgrade, database: env.DATABASE_URL ? "postgres" : "sqlite" }, "database ready");
  await getStorage().prepare();
  const leftovers = await removeAbandonedTemporaryFiles(getTemporaryDirectory());
  if (leftovers > 0) logger.info({ removed: leftovers }, "removed temporary files that a stopped server left behind");

  installAnonymousPages();
  installShutdownHook();
  installDatabaseOutageHook();
  registerJobsAndListeners();
  // Said once at start-up, in words an owner can act on; photos work either way.
  void getVideoToolsStatus().then(({ available, message }) => {
    if (available) logger.info({ ffmpeg: message }, "videos: ffmpeg found");
    else logger.warn(message);
  });
  // Every instance queues each period's run (once across instances); whichever worker is free runs it.
  startRecurringJobs(RECURRING_JOBS);
  if (env.RUN_WORKER) startWorker({ concurrency: env.WORKER_CONCURRENCY, leaseSeconds: env.JOB_LEASE_SECONDS });
  startTusUploadExpiry();
  // In the background: it lists every stored file, and serving need not wait for that.
  void removeOrphanFiles(getDb()).catch((error: unknown) => logger.warn({ err: error }, "could not look for orphan files"));

  if (env.ADMIN_EMAIL && env.ADMIN_PASSWORD) {
    const input = {
      email: emailSchema.parse(env.ADMIN_EMAIL),
      name: nameSchema.parse(env.ADMIN_NAME ?? "Admin"),
      password: passwordSchema.parse(env.ADMIN_PASSWORD),
    };
    if (await createAdminFromEnvironment(getDb(), input)) logger.info({ email: input.email }, "created the first admin from ADMIN_EMAIL");
    return;
  }
  const token = await issueSetupToken(getDb());
  if (token) {
    const link = new URL(`/setup?token=${token}`, env.NEXTAUTH_URL).toString();
    // Printed plainly as well as logged: this is the one line a new owner must find.
    console.log(`\nNo admin yet. Open this link to create the first admin account (it works once):\n  ${link}\n`);
    logger.info("setup link printed; it works once and /setup closes when an admin exists");
  }
}

/**
 * Boots, or prints why it cannot in words a person can act on and ends the process. Once booted,
 * tells server.mjs, which opens its port only then (see BOOTED there).
 */
export async function bootServerOrExit(): Promise<void> {
  try {
    await bootServer();
  } catch (error) {
    console.error(`\n${describeBootFailure(error)}\n`);
    process.exit(1);
  }
  processSlot<() => void>("booted").get()?.();
}

function describeBootFailure(error: unknown): string {
  if (error instanceof EnvironmentError) return error.message;
  if (error instanceof DatabaseNewerThanCodeError) return `Contact Sheet cannot start: ${error.message}`;
  if (error instanceof Error && "issues" in error) {
    return `Contact Sheet cannot start: ADMIN_EMAIL, ADMIN_NAME or ADMIN_PASSWORD is not valid (${error.message}).`;
  }
  return `Contact Sheet cannot start: ${error instanceof Error ? error.stack ?? error.message : String(error)}`;
}
