import fs from "node:fs";
import { defineConfig } from "@playwright/test";
import { E2E_ADMIN, E2E_BASE_URL, E2E_DATA_DIRECTORY, E2E_PORT } from "./e2e/constants";

// Debian's Chromium where it is installed (CI, this project's machines); elsewhere Playwright's own.
const DEBIAN_CHROMIUM = "/usr/bin/chromium";
const hasDebianChromium = fs.existsSync(DEBIAN_CHROMIUM);


// Specs that change what every other spec sees: they empty the gallery (gallery, upload), rename the
// site or rewrite its description (settings, audit), or retag the seeded photos (tags). They run in
// a project of their own, after the others and one at a time (scripts/test-e2e.mjs runs it on a
// server of its own); every other spec leaves the rest of the site as it found it, so those may run
// side by side (`--workers=2`).
const SITE_WIDE_SPECS = /\/(audit|gallery|settings|tags|upload)\.spec\.ts$/;

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  // One at a time unless asked: a plain `npx playwright test` of everything stays safe (the
  // site-wide project runs after the others then). `npm run test:e2e` runs two side by side.
  workers: 1,
  projects: [
    // Seeds once, through the API, what the page tour and the visitor specs read (e2e/seeded-tour.ts).
    { name: "seed", testMatch: /seed\.setup\.ts$/ },
    { name: "e2e", testIgnore: SITE_WIDE_SPECS, dependencies: ["seed"] },
    // After "seed" too, so with one worker it comes after "e2e" (projects in this order).
    { name: "site-wide", testMatch: SITE_WIDE_SPECS, dependencies: ["seed"], outputDir: "test-results/site-wide" },
  ],
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
