// npm run test:integration: the integration suite on SQLite with local disk, then on PostgreSQL
// when DATABASE_URL points at one, storing media in S3 when S3_ENDPOINT points at a server too
// (CI starts both with ../shared/services/postgres.sh and s3.sh).
import { spawnSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const runs = [{ database: "sqlite", storage: "local" }];
if (process.env.DATABASE_URL?.startsWith("postgres")) {
  runs.push({ database: "postgres", storage: process.env.S3_ENDPOINT ? "s3" : "local" });
} else {
  console.log("DATABASE_URL is not set: integration tests run on SQLite only.");
}
if (!process.env.S3_ENDPOINT) console.log("S3_ENDPOINT is not set: the S3 storage backend is not tested.");

for (const { database, storage } of runs) {
  console.log(`\n=== Integration tests on ${database} with ${storage} storage ===`);
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    [path.join(root, "node_modules", "vitest", "vitest.mjs"), "run", "--config", "vitest.integration.config.ts", ...process.argv.slice(2)],
    { cwd: root, stdio: "inherit", env: { ...process.env, TEST_DATABASE: database, TEST_STORAGE: storage } },
  );
  console.log(`=== Integration tests on ${database}: ${Math.round((performance.now() - started) / 1000)} s ===`);
  if (run.status !== 0) process.exit(run.status ?? 1);
}
