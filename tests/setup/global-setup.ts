import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { findFreePort, spawnServer, waitUntilHealthy } from "../helpers/server-process";
import { createFreshPostgresDatabase, dropPostgresDatabase } from "../helpers/test-database";

export const TEST_SECRET = "integration-test-secret-0123456789abcdef";
export const TEST_ADMIN = { email: "admin@example.test", password: "admin-password-123", name: "Ada Admin" };

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    dataDirectory: string;
    databaseUrl: string;
    databaseKind: "sqlite" | "postgres";
  }
}

/**
 * Starts the built app once for the whole run, on a fresh database: SQLite in a new folder, or a
 * new PostgreSQL database when TEST_DATABASE=postgres (created next to DATABASE_URL's).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const databaseKind = process.env.TEST_DATABASE === "postgres" ? "postgres" : "sqlite";
  const adminUrl = process.env.DATABASE_URL ?? "";
  if (databaseKind === "postgres" && !adminUrl) throw new Error("TEST_DATABASE=postgres needs DATABASE_URL");
  const databaseUrl = databaseKind === "postgres" ? await createFreshPostgresDatabase(adminUrl) : "";
  const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), "contact-sheet-it-"));
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const server = spawnServer(port, {
    NEXTAUTH_SECRET: TEST_SECRET,
    NEXTAUTH_URL: url,
    DATA_DIR: dataDirectory,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    ADMIN_NAME: TEST_ADMIN.name,
    // Tests give each client its own address in X-Forwarded-For, so rate limits of one test
    // never throttle another; the untrusted-header case has a server of its own.
    TRUST_PROXY: "true",
  });
  await waitUntilHealthy(server);
  project.provide("baseUrl", url);
  project.provide("dataDirectory", dataDirectory);
  project.provide("databaseUrl", databaseUrl);
  project.provide("databaseKind", databaseKind);
  console.log(`Integration tests against ${databaseKind} at ${url}`);

  return async () => {
    await server.stop();
    if (databaseUrl) await dropPostgresDatabase(adminUrl, databaseUrl);
    fs.rmSync(dataDirectory, { recursive: true, force: true });
  };
}
