import fs from "node:fs";
import { defineConfig } from "@playwright/test";
import { E2E_ADMIN, E2E_BASE_URL, E2E_DATA_DIRECTORY, E2E_PORT } from "./e2e/constants";

// Debian's Chromium where it is installed (CI, this project's machines); elsewhere Playwright's own.
const DEBIAN_CHROMIUM = "/usr/bin/chromium";
const hasDebianChromium = fs.existsSync(DEBIAN_CHROMIUM);


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
    // A fresh data folder per run: the server migrates it and creates the admin from the env.
    command: `node -e "require('fs').rmSync('${E2E_DATA_DIRECTORY}', { recursive: true, force: true })" && node server.mjs`,
    url: `${E2E_BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "pipe",
    env: {
      PORT: String(E2E_PORT),
      HOSTNAME: "127.0.0.1",
      NEXTAUTH_URL: E2E_BASE_URL,
      NEXTAUTH_SECRET: "e2e-test-secret-0123456789abcdefghijkl",
      DATA_DIR: E2E_DATA_DIRECTORY,
      DATABASE_URL: "",
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      ADMIN_NAME: E2E_ADMIN.name,
      ANALYTICS_SCRIPT_URL: `${E2E_BASE_URL}/analytics-test.js`,
      LOG_LEVEL: "warn",
    },
  },
});
