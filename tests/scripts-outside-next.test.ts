// The scripts that run outside Next.js (SECURITY.md 57): each is started as a real process, as an
// operator would, because only then does module loading differ from the built app's (`server-only`
// and the other server modules load through tsx with the react-server condition, not Next's aliases).
import { execFile, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, inject, it } from "vitest";
import packageJson from "../package.json";
import { TEST_SECRET } from "./setup/global-setup";
import { corpusFile, type UploadedPhoto, uploadFiles } from "./helpers/photos";
import { type RunningScript, startNpmScript } from "./helpers/script-process";
import { startTestApp, type TestApp, testStorageFromEnvironment } from "./helpers/test-app";
import { TestClient } from "./helpers/test-client";
import { createFreshPostgresDatabase, dropPostgresDatabase, openTestDatabase } from "./helpers/test-database";

const ADMIN = { email: "scripts-admin@example.test", password: "scripts-admin-password-1" };
const databaseKind = inject("databaseKind");

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function startScript(script: string, args: string[], env: Record<string, string>): RunningScript {
  const running = startNpmScript(script, args, env);
  cleanups.push(() => running.stop());
  return running;
}

/** The status of a photo as the app reports it, failing at once when the worker process has died. */
async function waitUntilReady(client: TestClient, id: string, worker: RunningScript, timeoutMs = 90_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (worker.process.exitCode !== null) throw new Error(`npm run worker exited with ${worker.process.exitCode}:\n${worker.output()}`);
    const { photo } = (await (await client.request(`/api/photos/${id}`)).json()) as { photo: { status: string } };
    if (photo.status !== "processing") return photo.status;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Photo ${id} was still processing after ${timeoutMs} ms; the worker said:\n${worker.output()}`);
}

describe("npm run worker", () => {
  it("processes photos uploaded to a site whose web servers run with RUN_WORKER=false", async () => {
    const storage = testStorageFromEnvironment();
    const app: TestApp = await startTestApp(databaseKind, {
      ...storage.env,
      NEXTAUTH_SECRET: TEST_SECRET,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: "error",
      RUN_WORKER: "false",
    });
    cleanups.push(() => app.stop());
    const client = new TestClient(app.url);
    await client.signIn(ADMIN.email, ADMIN.password);
    const uploaded = await uploadFiles(client, [{ bytes: corpusFile("exif-samples/jpg/Fujifilm_FinePix_E500.jpg"), name: "worker.jpg" }]);
    expect(uploaded.status).toBe(201);
    const [photo] = ((await uploaded.json()) as { photos: UploadedPhoto[] }).photos;
    expect(photo.status).toBe("processing");

    // No worker anywhere yet: the web server is not ready, and says which part is missing.
    const withoutWorker = await client.request("/api/health/ready");
    expect(withoutWorker.status).toBe(503);
    expect(await withoutWorker.json()).toMatchObject({ status: "not ready", failed: ["worker stale"] });

    const worker = startScript("worker", [], {
      ...storage.env,
      DATA_DIR: app.dataDirectory,
      ...(app.databaseUrl ? { DATABASE_URL: app.databaseUrl } : {}),
      NEXTAUTH_SECRET: TEST_SECRET,
      // Recurring jobs start 5 s after start-up (the orphan sweep lists the whole store), and stop()
      // kills after 5 s: a job still running at SIGTERM is handed back after 2 s instead of 10.
      SHUTDOWN_GRACE_SECONDS: "2",
    });
    expect(await waitUntilReady(client, photo.id, worker)).toBe("ready");
    const { photo: processed } = (await (await client.request(`/api/photos/${photo.id}`)).json()) as { photo: { variants: unknown[] } };
    expect(processed.variants.length).toBeGreaterThan(0);
    // The separate worker's heartbeat makes the web server ready (readiness shares a run for a second).
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await (await client.request("/api/health/ready")).json()).toMatchObject({ status: "ready" });

    // SIGTERM: the worker stops claiming, finishes or hands back what runs, and says it stopped.
    await worker.stop();
    expect(worker.output()).toContain("Worker stopped.");
  }, 120_000);
});

describe("npm run db:migrate", () => {
  it("brings a fresh database to the latest schema, and says so when run again", async () => {
    const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), "contact-sheet-migrate-"));
    cleanups.push(() => fs.rmSync(dataDirectory, { recursive: true, force: true }));
    const adminUrl = process.env.DATABASE_URL ?? "";
    const databaseUrl = databaseKind === "postgres" ? await createFreshPostgresDatabase(adminUrl) : "";
    if (databaseUrl) cleanups.push(() => dropPostgresDatabase(adminUrl, databaseUrl));
    const env = { DATA_DIR: dataDirectory, NEXTAUTH_SECRET: TEST_SECRET, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };

    const first = startScript("db:migrate", [], env);
    expect(await first.exited(), first.output()).toBe(0);
    expect(first.output()).toMatch(/^Database created at schema \d{4}-\d{2}-\d{2}T\d{4} \(\d+ migrations\)\.$/m);
    expect(first.output()).toMatch(/^Applied: 2026-11-22T0000-initial, /m);

    const db = openTestDatabase({ dataDirectory, databaseUrl: databaseUrl || undefined });
    try {
      // The last migration's table, empty and queryable.
      expect(await db.selectFrom("photo_search").select("photo_id").execute()).toEqual([]);
    } finally {
      await db.destroy();
    }

    const again = startScript("db:migrate", [], env);
    expect(await again.exited(), again.output()).toBe(0);
    expect(again.output()).toContain("Database is up to date (schema ");
  }, 60_000);
});

// Every other tsx script in package.json (the benchmarks, and any command added later) must at
// least load all its modules: `--help` prints its description once they have, and runs nothing.
// They touch no database while doing so, so this runs once, on the SQLite run.
const otherScripts = Object.entries(packageJson.scripts)
  .filter(([name, command]) => command.startsWith("tsx ") && name !== "worker" && name !== "db:migrate")
  .map(([name]) => name);

describe.runIf(databaseKind === "sqlite")("every other script outside Next.js loads its modules", () => {
  it("finds the benchmarks among them", () => {
    expect(otherScripts).toEqual(expect.arrayContaining(["bench:media", "bench:scale", "bench:search"]));
  });

  it.each(otherScripts)("npm run %s -- --help", async (name) => {
    const script = startScript(name, ["--help"], {});
    expect(await script.exited(), script.output()).toBe(0);
    expect(script.output()).toContain(`npm run ${name}`);
  }, 60_000);
});

// The command-line tool is started the way its README says, through npx and the package's bin.
describe.runIf(databaseKind === "sqlite")("npx contact-sheet", () => {
  it("loads its commands and prints its help", async () => {
    const { stdout } = await promisify(execFile)("npx", ["--no-install", "contact-sheet", "--help"], {
      cwd: path.resolve(import.meta.dirname, ".."),
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? os.tmpdir(), NODE_ENV: "production" },
    });
    expect(stdout).toContain("Usage: contact-sheet");
  }, 60_000);

  it("exits non-zero on a command it does not know", async () => {
    const result = spawnSync(process.execPath, [path.resolve(import.meta.dirname, "../bin/contact-sheet.mjs"), "no-such-command"], { encoding: "utf8" });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/error/i);
  }, 60_000);
});
