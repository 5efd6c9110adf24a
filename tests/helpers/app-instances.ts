import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { StorageConfig } from "@/src/storage/storage";
import { type RunningScript, startNpmScript } from "./script-process";
import { findFreePort, type RunningServer, spawnServer, waitUntilHealthy } from "./server-process";
import { testStorageFromEnvironment } from "./test-app";
import { createFreshPostgresDatabase, dropPostgresDatabase } from "./test-database";

/**
 * Several processes of the site on ONE database and ONE store, as an operator scales it out: app
 * processes (server.mjs over the built app) with the in-process worker off (RUN_WORKER=false), and
 * `npm run worker` processes that claim the jobs. Everything started here is stopped by `stop()`,
 * by the processes' own ids, whatever state a test left them in.
 */
export interface AppInstances {
  /** The app processes, in the order asked for (A, B, ...). */
  apps: RunningServer[];
  /** The environment every process shares (database, store, data folder, secrets). */
  env: Record<string, string>;
  dataDirectory: string;
  /** Empty on SQLite. */
  databaseUrl: string;
  storageConfig: StorageConfig;
  /** Every `npm run worker` started so far, the first one (started with the apps) first. */
  workers: RunningScript[];
  /** Resolves once every app answers /api/health; throws with a server's output when one exits first. */
  waitUntilReady(): Promise<void>;
  /** Starts one more `npm run worker` on the same database and store (`env` added to the shared one). */
  startWorker(env?: Record<string, string>): RunningScript;
  /** Ends every process started here (SIGTERM, then SIGKILL), drops the database and removes the data folder. */
  stop(): Promise<void>;
}

/** Kills a script's whole process group (npm, tsx and the node process they started) as the kernel would, and waits until npm is gone. */
export async function killScriptWithSigkill(script: RunningScript): Promise<void> {
  const { pid } = script.process;
  if (pid === undefined || script.process.exitCode !== null || script.process.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => script.process.once("exit", () => resolve()));
  process.kill(-pid, "SIGKILL");
  await exited;
}

/**
 * Starts `appCount` app processes and one worker at once on a fresh database of `databaseKind` and
 * the run's store (S3 when TEST_STORAGE=s3), without waiting for them: `waitUntilReady()` waits
 * until every app answers /api/health. Answered before that wait, so a caller holds what to stop
 * even when its hook times out while they boot. All of them boot together, as a deploy starts
 * them: migrations and the first admin are raced on purpose.
 */
export async function startAppInstances(databaseKind: "sqlite" | "postgres", options: { appCount: number; env: Record<string, string> }): Promise<AppInstances> {
  const adminUrl = process.env.DATABASE_URL ?? "";
  if (databaseKind === "postgres" && !adminUrl) throw new Error("A PostgreSQL run needs DATABASE_URL");
  const databaseUrl = databaseKind === "postgres" ? await createFreshPostgresDatabase(adminUrl) : "";
  const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), "contact-sheet-instances-"));
  const storage = testStorageFromEnvironment();
  const env: Record<string, string> = {
    ...storage.env,
    DATA_DIR: dataDirectory,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    RUN_WORKER: "false",
    ...options.env,
  };
  const apps: RunningServer[] = [];
  const workers: RunningScript[] = [];
  const startWorker = (workerEnv: Record<string, string> = {}) => {
    const worker = startNpmScript("worker", [], { ...env, RUN_WORKER: "true", ...workerEnv });
    workers.push(worker);
    return worker;
  };
  const stop = async () => {
    await Promise.all([...apps.map((app) => app.stop()), ...workers.map((worker) => worker.stop())]);
    if (databaseUrl) await dropPostgresDatabase(adminUrl, databaseUrl);
    fs.rmSync(dataDirectory, { recursive: true, force: true });
  };
  try {
    for (let index = 0; index < options.appCount; index += 1) {
      const port = await findFreePort();
      apps.push(spawnServer(port, { ...env, NEXTAUTH_URL: `http://127.0.0.1:${port}` }));
    }
    startWorker();
  } catch (error) {
    await stop();
    throw error;
  }
  const storageConfig = storage.config ?? { kind: "local" as const, directory: path.join(dataDirectory, "media") };
  const waitUntilReady = async () => {
    await Promise.all(apps.map((app) => waitUntilHealthy(app)));
  };
  return { apps, env, dataDirectory, databaseUrl, storageConfig, workers, waitUntilReady, startWorker, stop };
}
