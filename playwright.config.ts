import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

export const E2E_PORT = 3210;
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_ADMIN = { email: "e2e-admin@example.test", password: "e2e-admin-password", name: "Erin Admin" };

// Debian's Chromium where it is installed (CI, this project's machines); elsewhere Playwright's own.
const DEBIAN_CHROMIUM = "/usr/bin/chromium";
const hasDebianChromium = fs.existsSync(DEBIAN_CHROMIUM);

// A fresh data folder per run: the server migrates it and creates the admin from the env.
const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), "contact-sheet-e2e-"));

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  reporter: [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: E2E_BASE_URL,
    screenshot: "on",
    trace: "retain-on-failure",
    launchOptions: hasDebianChromium
      ? {
          executablePath: DEBIAN_CHROMIUM,
          args: [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
          ],
        }
      : {},
  },
  webServer: {
    command: "node server.mjs",
    url: `${E2E_BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "pipe",
    env: {
      PORT: String(E2E_PORT),
      HOSTNAME: "127.0.0.1",
      NEXTAUTH_URL: E2E_BASE_URL,
      NEXTAUTH_SECRET: "e2e-test-secret-0123456789abcdefghijkl",
      DATA_DIR: dataDirectory,
      DATABASE_URL: "",
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      ADMIN_NAME: E2E_ADMIN.name,
      ANALYTICS_SCRIPT_URL: `${E2E_BASE_URL}/analytics-test.js`,
      LOG_LEVEL: "warn",
    },
  },
});
