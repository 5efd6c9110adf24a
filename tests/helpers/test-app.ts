import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { StorageConfig } from "@/src/storage/storage";
import { findFreePort, type RunningServer, spawnServer, waitUntilHealthy } from "./server-process";
import { createFreshPostgresDatabase, dropPostgresDatabase } from "./test-database";

export interface TestApp {
  server: RunningServer;
  url: string;
  /** Starts the app again on the same database and data folder (after `server` was stopped or killed), with `env` changed. */
  startAgain(env?: Record<string, string>): Promise<RunningServer>;
  dataDirectory: string;
  /** Empty on SQLite. */
  databaseUrl: string;
  stop(): Promise<void>;
}

/**
 * Starts the built app on a fresh database, healthy and ready: SQLite in a new folder, or a new
 * PostgreSQL database next to DATABASE_URL's when `databaseKind` is postgres. `stop()` removes both.
 */
export async function startTestApp(databaseKind: "sqlite" | "postgres", env: Record<string, string>): Promise<TestApp> {
  const adminUrl = process.env.DATABASE_URL ?? "";
  if (databaseKind === "postgres" && !adminUrl) throw new Error("A PostgreSQL run needs DATABASE_URL");
  const databaseUrl = databaseKind === "postgres" ? await createFreshPostgresDatabase(adminUrl) : "";
  const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), "contact-sheet-test-"));
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const serverEnv = { NEXTAUTH_URL: url, DATA_DIR: dataDirectory, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), ...env };
  let server = spawnServer(port, serverEnv);
  const stop = async () => {
    await server.stop();
    if (databaseUrl) await dropPostgresDatabase(adminUrl, databaseUrl);
    fs.rmSync(dataDirectory, { recursive: true, force: true });
  };
  try {
    await waitUntilHealthy(server);
  } catch (error) {
    await stop();
    throw error;
  }
  const startAgain = async (changedEnv: Record<string, string> = {}) => {
    server = spawnServer(port, { ...serverEnv, ...changedEnv });
    await waitUntilHealthy(server);
    return server;
  };
  return { server, url, dataDirectory, databaseUrl, stop, startAgain };
}

/**
 * The storage an integration run uses: a new bucket on the S3 server S3_ENDPOINT names when
 * TEST_STORAGE is s3 (the app creates it at start-up), otherwise local disk under the data folder
 * (`config` null: the folder is only known once the app has started).
 */
export function testStorageFromEnvironment(kind = process.env.TEST_STORAGE): { env: Record<string, string>; config: StorageConfig | null } {
  if (kind !== "s3") return { env: {}, config: null };
  const { S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY } = process.env;
  if (!S3_ENDPOINT || !S3_ACCESS_KEY_ID || !S3_SECRET_ACCESS_KEY) throw new Error("TEST_STORAGE=s3 needs S3_ENDPOINT, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY");
  const config = {
    kind: "s3" as const,
    endpoint: S3_ENDPOINT,
    region: process.env.S3_REGION ?? "us-east-1",
    bucket: `contact-sheet-test-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`,
    accessKeyId: S3_ACCESS_KEY_ID,
    secretAccessKey: S3_SECRET_ACCESS_KEY,
  };
  return {
    config,
    env: {
      STORAGE: "s3",
      S3_ENDPOINT: config.endpoint,
      S3_REGION: config.region,
      S3_BUCKET: config.bucket,
      S3_ACCESS_KEY_ID: config.accessKeyId,
      S3_SECRET_ACCESS_KEY: config.secretAccessKey,
    },
  };
}
