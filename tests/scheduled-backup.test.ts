import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { TEST_ADMIN, TEST_SECRET } from "./setup/global-setup";
import { runContactSheet } from "./helpers/contact-sheet-command";
import { startTestApp, type TestApp, testStorageFromEnvironment } from "./helpers/test-app";
import { TestClient } from "./helpers/test-client";

// The scheduled backup (issue 29): with BACKUP_DIR set, the server's recurring job makes a backup
// once per BACKUP_EVERY_HOURS, keeps BACKUP_KEEP of them, and the admin dashboard shows the last
// outcome, a failure too. A server of its own, since the shared one has no BACKUP_DIR.

let app: TestApp;
let backupDirectory: string;
let appEnv: Record<string, string>;

beforeAll(async () => {
  backupDirectory = fs.mkdtempSync(path.join(os.tmpdir(), "contact-sheet-scheduled-"));
  const storage = testStorageFromEnvironment();
  const env = {
    ...storage.env,
    NEXTAUTH_SECRET: TEST_SECRET,
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    ADMIN_NAME: TEST_ADMIN.name,
    TRUST_PROXY: "true",
    BACKUP_DIR: backupDirectory,
    BACKUP_EVERY_HOURS: "1",
    BACKUP_KEEP: "1",
  };
  app = await startTestApp(inject("databaseKind"), env);
  appEnv = { ...env, DATA_DIR: app.dataDirectory, ...(app.databaseUrl ? { DATABASE_URL: app.databaseUrl } : {}) };
}, 120_000);

afterAll(async () => {
  await app?.stop();
  fs.rmSync(backupDirectory, { recursive: true, force: true });
});

async function dashboard(): Promise<string> {
  const admin = new TestClient(app.url);
  await admin.signIn(TEST_ADMIN.email, TEST_ADMIN.password);
  const response = await admin.request("/admin");
  expect(response.status).toBe(200);
  return response.text();
}

function finishedBackups(): string[] {
  return fs.readdirSync(backupDirectory).filter((name) => fs.existsSync(path.join(backupDirectory, name, "manifest.json")));
}

describe("the scheduled backup", () => {
  it("runs through the recurring job and shows its outcome on the dashboard", async () => {
    const deadline = Date.now() + 90_000;
    while (finishedBackups().length === 0) {
      if (Date.now() > deadline) throw new Error(`no scheduled backup in ${backupDirectory}:\n${app.server.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    // The command records its outcome just after renaming the folder into place.
    let html = "";
    for (let tries = 0; tries < 40 && !html.includes('data-outcome="ok"'); tries += 1) {
      html = await dashboard();
      if (!html.includes('data-outcome="ok"')) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(html).toMatch(/data-testid="backup-last" data-outcome="ok"/);
    expect(html).toMatch(/UTC<\/time>, (?:<!-- -->)?scheduled/);
    expect(html).toContain(finishedBackups()[0]);
    expect(html).toContain(`Every hour into ${backupDirectory}, keeping the last 1.`);

    // By hand into the same directory: BACKUP_KEEP is the scheduled job's; --keep 1 leaves only the newest.
    const byHand = await runContactSheet(["backup", backupDirectory, "--keep", "1"], appEnv);
    expect(byHand.code, byHand.output).toBe(0);
    expect(byHand.stdout).toMatch(/Removed the older backup /);
    expect(finishedBackups()).toHaveLength(1);
  }, 150_000);

  it("shows a failed backup as failed, with why", async () => {
    const notADirectory = path.join(backupDirectory, "a-file");
    fs.writeFileSync(notADirectory, "");
    const failed = await runContactSheet(["backup", notADirectory], appEnv);
    expect(failed.code).toBe(1);
    const html = await dashboard();
    expect(html).toMatch(/data-testid="backup-last" data-outcome="failed"/);
    expect(html).toMatch(/UTC<\/time>, (?:<!-- -->)?by command/);
    expect(html).toContain(`${notADirectory} is not a directory.`);
  }, 60_000);
});
