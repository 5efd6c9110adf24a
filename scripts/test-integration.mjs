// npm run test:integration: the integration suite against SQLite, then against PostgreSQL when
// DATABASE_URL points at one (CI starts one with ../shared/services/postgres.sh).
import { spawnSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const databases = ["sqlite", ...(process.env.DATABASE_URL?.startsWith("postgres") ? ["postgres"] : [])];
if (databases.length === 1) console.log("DATABASE_URL is not set: integration tests run on SQLite only.");

for (const database of databases) {
  console.log(`\n=== Integration tests on ${database} ===`);
  const run = spawnSync(
    process.execPath,
    [path.join(root, "node_modules", "vitest", "vitest.mjs"), "run", "--config", "vitest.integration.config.ts", ...process.argv.slice(2)],
    { cwd: root, stdio: "inherit", env: { ...process.env, TEST_DATABASE: database } },
  );
  if (run.status !== 0) process.exit(run.status ?? 1);
}
