import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { findFreePort, type RunningServer, spawnServer, waitUntilHealthy } from "./server-process";
import { createFreshPostgresDatabase, dropPostgresDatabase } from "./test-database";

export interface TestApp {
  server: RunningServer;
  url: string;
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
  const server = spawnServer(port, {
    NEXTAUTH_URL: url,
    DATA_DIR: dataDirectory,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
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
  return { server, url, dataDirectory, databaseUrl, stop };
}
