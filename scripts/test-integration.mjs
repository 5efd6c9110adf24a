// npm run test:integration: the integration suite on SQLite with local disk and, when DATABASE_URL
// points at a PostgreSQL server, on PostgreSQL, storing media in S3 when S3_ENDPOINT points at a
// server too (CI starts both with ../shared/services/postgres.sh and s3.sh).
//
// The two runs share nothing (each starts its own app on a free port with a fresh database, data
// folder and bucket), so they run side by side: each run's app spends much of its time waiting on
// the other processes (its database, image processing, the test client), and together they keep
// both cores busy. The SQLite run prints as it goes; the other's output is held and printed whole
// when it ends, so their lines never interleave. INTEGRATION_SEQUENTIAL=1 runs them one after the other.
// Measured on a 2-core machine (2026-11-27), eight files on both databases: 61.6 s side by side,
// 71.4 s one after the other.
import path from "node:path";
import { runChild } from "./run-child.mjs";

const root = path.resolve(import.meta.dirname, "..");
const runs = [{ database: "sqlite", storage: "local" }];
if (process.env.DATABASE_URL?.startsWith("postgres")) {
  runs.push({ database: "postgres", storage: process.env.S3_ENDPOINT ? "s3" : "local" });
} else {
  console.log("DATABASE_URL is not set: integration tests run on SQLite only.");
}
if (!process.env.S3_ENDPOINT) console.log("S3_ENDPOINT is not set: the S3 storage backend is not tested.");

async function runSuite({ database, storage }, { streamed }) {
  console.log(`\n=== Integration tests on ${database} with ${storage} storage${streamed ? "" : " (printed when it ends)"} ===`);
  const { code, seconds } = await runChild(
    process.execPath,
    [path.join(root, "node_modules", "vitest", "vitest.mjs"), "run", "--config", "vitest.integration.config.ts", ...process.argv.slice(2)],
    {
      cwd: root,
      env: { ...process.env, TEST_DATABASE: database, TEST_STORAGE: storage },
      streamed,
      onEnd: () => streamed || console.log(`\n=== Integration tests on ${database} with ${storage} storage: its output ===`),
    },
  );
  console.log(`=== Integration tests on ${database}: ${code === 0 ? "passed" : "FAILED"} in ${Math.round(seconds)} s ===`);
  return code;
}

let codes;
if (process.env.INTEGRATION_SEQUENTIAL === "1") {
  codes = [];
  for (const run of runs) {
    const code = await runSuite(run, { streamed: true });
    codes.push(code);
    if (code !== 0) break;
  }
} else {
  codes = await Promise.all(runs.map((run, index) => runSuite(run, { streamed: index === 0 })));
}
process.exit(codes.find((code) => code !== 0) ?? 0);
