import type { TestProject } from "vitest/node";
import type { StorageConfig } from "@/src/storage/storage";
import { startTestApp, testStorageFromEnvironment } from "../helpers/test-app";

export const TEST_SECRET = "integration-test-secret-0123456789abcdef";
export const TEST_ADMIN = { email: "admin@example.test", password: "admin-password-123", name: "Ada Admin" };
/** The shared app's METRICS_TOKEN, so tests/health-and-metrics.test.ts scrapes it without an app of its own. */
export const TEST_METRICS_TOKEN = "integration-metrics-token-0123456789";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    dataDirectory: string;
    databaseUrl: string;
    databaseKind: "sqlite" | "postgres";
    /** What the app stores media in, for tests that check nothing was left behind. */
    storageConfig: StorageConfig;
  }
}

/**
 * Starts the built app once for the whole run, on a fresh database (TEST_DATABASE picks which) and
 * fresh storage (TEST_STORAGE=s3 uses a new bucket on S3_ENDPOINT's server, otherwise local disk).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const databaseKind = process.env.TEST_DATABASE === "postgres" ? "postgres" : "sqlite";
  const storage = testStorageFromEnvironment();
  const app = await startTestApp(databaseKind, {
    ...storage.env,
    NEXTAUTH_SECRET: TEST_SECRET,
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    ADMIN_NAME: TEST_ADMIN.name,
    // Tests give each client its own address in X-Forwarded-For, so rate limits of one test
    // never throttle another; the untrusted-header case has a server of its own.
    TRUST_PROXY: "true",
    METRICS_TOKEN: TEST_METRICS_TOKEN,
  });
  project.provide("baseUrl", app.url);
  project.provide("dataDirectory", app.dataDirectory);
  project.provide("databaseUrl", app.databaseUrl);
  project.provide("databaseKind", databaseKind);
  project.provide("storageConfig", storage.config ?? { kind: "local", directory: `${app.dataDirectory}/media` });
  console.log(`Integration tests against ${databaseKind} with ${storage.config?.kind ?? "local"} storage at ${app.url}`);
  return app.stop;
}
