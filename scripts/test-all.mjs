// npm test: every check, in phases, printing how long each took so a slow CI run says where the
// time went. Checks that use different resources run side by side: lint and typecheck are each
// single-threaded, so on a 2-core machine together they take about as long as the slower one.
// Stops at the first phase that fails, with its exit code.
import path from "node:path";
import { runChild } from "./run-child.mjs";

const root = path.resolve(import.meta.dirname, "..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** The phases in order; the scripts inside one phase run side by side. */
const phases = [
  ["lint", "typecheck"],
  ["test:unit"],
  ["build"],
  ["test:integration"],
  ["test:e2e"],
];

/** Runs one npm script; beside others, its output is held until it ends (scripts/run-child.mjs). */
async function runScript(script, { alone }) {
  const { code, seconds } = await runChild(npm, ["run", "--silent", script], { cwd: root, streamed: alone });
  return { script, code, seconds };
}

const timings = [];
const format = (seconds) => `${Math.floor(seconds / 60)}m${String(Math.round(seconds % 60)).padStart(2, "0")}s`;

function printTimings() {
  console.log("\n--- npm test: time per phase");
  for (const { label, seconds } of timings) console.log(`${format(seconds).padStart(7)}  ${label}`);
  const total = timings.reduce((sum, { seconds }) => sum + seconds, 0);
  console.log(`${format(total).padStart(7)}  total`);
}

for (const scripts of phases) {
  const label = scripts.join(" + ");
  console.log(`\n--- npm test: ${label}`);
  const started = performance.now();
  const results = await Promise.all(scripts.map((script) => runScript(script, { alone: scripts.length === 1 })));
  const seconds = (performance.now() - started) / 1000;
  timings.push({ label, seconds });
  console.log(`--- npm test: ${label}: ${format(seconds)}`);
  const failed = results.find((result) => result.code !== 0);
  if (failed) {
    printTimings();
    console.error(`\nnpm test: ${failed.script} failed (exit code ${failed.code}).`);
    process.exit(failed.code);
  }
}
printTimings();
