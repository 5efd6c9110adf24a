// npm run test:e2e: the browser suite in two runs (playwright.config.ts names the projects).
//
// 1. The "e2e" project (after "seed", which seeds once what the tour and visitor specs read), two
//    specs side by side: they leave the site as they found it, and one browser waiting on the
//    server leaves a core idle that the other uses.
// 2. The "site-wide" project, one spec at a time, on a fresh server of its own: the specs that
//    empty the gallery, rename the site or retag the seeded photos, which no other spec must see.
//
// Measured on a 2-core machine shared with other builds (load average 25-34, 2026-11-27), the same
// 26 tests (the tour's home, album and cameras pages in accessibility and screenshots; browse,
// search, share-visitor): 511 and 593 s with one worker, each spec seeding for itself; 306 and
// 420 s (site-wide's empty run included) with two workers after one seed.
//
// E2E_WORKERS sets the first run's workers (default 2). Arguments (files, -g) go to both runs; a
// run none of them names passes. Stops after the first run that fails, with its exit code.
import path from "node:path";
import { runChild } from "./run-child.mjs";

const root = path.resolve(import.meta.dirname, "..");
const playwright = path.join(root, "node_modules", "@playwright", "test", "cli.js");
const workers = process.env.E2E_WORKERS ?? "2";
const forwarded = process.argv.slice(2);

const runs = [
  { label: `e2e project, ${workers} workers`, args: ["--project=e2e", `--workers=${workers}`], env: {} },
  {
    label: "site-wide project, 1 worker, its own server",
    // Its report beside the first run's, not over it (test results: the project's outputDir).
    args: ["--project=site-wide", "--no-deps", "--workers=1"],
    env: { PLAYWRIGHT_HTML_OUTPUT_DIR: path.join(root, "playwright-report", "site-wide") },
  },
];

const format = (seconds) => `${Math.floor(seconds / 60)}m${String(Math.round(seconds % 60)).padStart(2, "0")}s`;
for (const run of runs) {
  console.log(`\n--- e2e: ${run.label}`);
  const { code, seconds } = await runChild(process.execPath, [playwright, "test", ...run.args, "--pass-with-no-tests", ...forwarded], {
    cwd: root,
    env: { ...process.env, ...run.env },
    streamed: true,
  });
  console.log(`--- e2e: ${run.label}: ${code === 0 ? "passed" : "FAILED"} in ${format(seconds)}`);
  if (code !== 0) process.exit(code);
}
