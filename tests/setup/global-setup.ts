import type { TestProject } from "vitest/node";
import { startTestApp } from "../helpers/test-app";

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

/** Starts the built app once for the whole run, on a fresh database (TEST_DATABASE picks which). */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const databaseKind = process.env.TEST_DATABASE === "postgres" ? "postgres" : "sqlite";
  const app = await startTestApp(databaseKind, {
    NEXTAUTH_SECRET: TEST_SECRET,
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    ADMIN_NAME: TEST_ADMIN.name,
    // Tests give each client its own address in X-Forwarded-For, so rate limits of one test
    // never throttle another; the untrusted-header case has a server of its own.
    TRUST_PROXY: "true",
  });
  project.provide("baseUrl", app.url);
  project.provide("dataDirectory", app.dataDirectory);
  project.provide("databaseUrl", app.databaseUrl);
  project.provide("databaseKind", databaseKind);
  console.log(`Integration tests against ${databaseKind} at ${app.url}`);
  return app.stop;
}
