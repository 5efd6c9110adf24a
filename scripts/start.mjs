// npm start: the whole quick start. Makes a session secret under ./data on first run (unless
// NEXTAUTH_SECRET is set), builds when the sources are newer than the last build, then serves.
// The server itself migrates the database and prints the one-time setup link (src/server/boot.ts).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { buildQuietly } from "./quiet-build.mjs";

const root = path.resolve(import.meta.dirname, "..");
const dataDirectory = path.resolve(root, process.env.DATA_DIR || "data");
const port = process.env.PORT || "3000";

function ensureSecret() {
  if (process.env.NEXTAUTH_SECRET) return process.env.NEXTAUTH_SECRET;
  const file = path.join(dataDirectory, ".nextauth-secret");
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDirectory, { recursive: true });
    fs.writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600 });
    console.log(`Made a session secret in ${path.relative(root, file)} (set NEXTAUTH_SECRET to use your own).`);
  }
  return fs.readFileSync(file, "utf8").trim();
}

function newestModification(entry) {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(entry).map((name) => newestModification(path.join(entry, name))));
}

function isBuildCurrent() {
  const buildId = fs.statSync(path.join(root, ".next", "BUILD_ID"), { throwIfNoEntry: false });
  if (!buildId) return false;
  const sources = ["app", "src", "proxy.ts", "instrumentation.ts", "next.config.ts", "package-lock.json"];
  return sources.every((source) => newestModification(path.join(root, source)) <= buildId.mtimeMs);
}

// Contact Sheet runs on people's own machines: Next.js sends no telemetry from them.
process.env.NEXT_TELEMETRY_DISABLED = "1";

const secret = ensureSecret();
if (!isBuildCurrent()) {
  const status = buildQuietly(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], { cwd: root });
  if (status !== 0) process.exit(status);
}

const server = spawn(process.execPath, [path.join(root, "server.mjs")], {
  cwd: root,
  stdio: "inherit",
  env: {
    ...process.env,
    NEXTAUTH_SECRET: secret,
    NEXTAUTH_URL: process.env.NEXTAUTH_URL || `http://localhost:${port}`,
    DATA_DIR: dataDirectory,
    PORT: port,
  },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));

// `npm start` runs this under `sh -c`, and a SIGTERM sent to npm alone reaches that shell, which
// dies without passing it on: without this watch the server would be left running, orphaned.
// Checked once a second by signal 0 (existence only); the parent's id is the one we started with.
const parentId = process.ppid;
setInterval(() => {
  try {
    process.kill(parentId, 0);
  } catch {
    server.kill("SIGTERM");
  }
}, 1000).unref();
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
