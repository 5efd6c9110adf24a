import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { TEST_ADMIN } from "./setup/global-setup";
import { runContactSheet, testAppEnvironment } from "./helpers/contact-sheet-command";
import { uploadCorpusFile, waitForEveryVariant } from "./helpers/photos";
import { findFreePort, type RunningServer, spawnServer, waitUntilHealthy } from "./helpers/server-process";
import { createTestUser, signedInAdmin, TestClient } from "./helpers/test-client";
import { createFreshPostgresDatabase, dropPostgresDatabase, openTestDatabase } from "./helpers/test-database";
import { SQLITE_FILE_NAME } from "@/src/db/client";
import { isProcessRunning } from "@/src/storage/process-liveness";

// `contact-sheet backup` and `restore` (issue 29). A backup made while an upload runs, restored into
// a fresh data folder (and a fresh PostgreSQL database), gives back every photo's bytes and rows,
// compared through the API of a second app started on the restored data. Damaged or hostile
// backups are refused before anything changes; a site with data is replaced only with --force,
// which keeps what it replaced. A backup or a restore SIGKILLed part way leaves the live site as it
// was, and the next run finishes (SECURITY.md's faults for "Move out").

const databaseKind = inject("databaseKind");
const storageKind = inject("storageConfig").kind;
const adminUrl = process.env.DATABASE_URL ?? "";
const cleanups: Array<() => Promise<void> | void> = [];
let source: TestClient;
let photoIds: string[];
let albumId: string;
let backupDirectory: string;

interface Target {
  env: Record<string, string>;
  dataDirectory: string;
  databaseUrl: string;
}

/** A fresh, empty place to restore into: a new data folder and, on PostgreSQL, a new empty database. */
async function freshTarget(): Promise<Target> {
  const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), "contact-sheet-restore-"));
  const databaseUrl = databaseKind === "postgres" ? await createFreshPostgresDatabase(adminUrl, "cs_restore") : "";
  cleanups.push(async () => {
    fs.rmSync(dataDirectory, { recursive: true, force: true });
    if (databaseUrl) await dropDatabasesNamedLike(databaseUrl);
  });
  const env = { ...testAppEnvironment(), DATA_DIR: dataDirectory, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
  return { env, dataDirectory, databaseUrl };
}

/** The restored database and any copies a restore set aside or left beside it. */
async function dropDatabasesNamedLike(databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  const pool = new Pool({ connectionString: adminUrl, max: 1 });
  try {
    const { rows } = await pool.query<{ datname: string }>("select datname from pg_database where datname = $1 or datname like $2", [name, `${name.slice(0, 40)}\\_%`]);
    for (const row of rows) await dropPostgresDatabase(adminUrl, Object.assign(new URL(databaseUrl), { pathname: `/${row.datname}` }).toString());
  } finally {
    await pool.end();
  }
}


async function json<T>(client: TestClient, url: string): Promise<T> {
  const response = await client.request(url);
  expect(response.status, `${url}: ${await response.clone().text()}`).toBe(200);
  return (await response.json()) as T;
}

async function bytesOf(client: TestClient, url: string): Promise<string> {
  const response = await client.request(url);
  expect(response.status, url).toBe(200);
  return createHash("sha256").update(new Uint8Array(await response.arrayBuffer())).digest("hex");
}

async function startRestoredApp(target: Target): Promise<RunningServer> {
  const port = await findFreePort();
  const server = spawnServer(port, { ...target.env, NEXTAUTH_URL: `http://127.0.0.1:${port}`, TRUST_PROXY: "true" });
  cleanups.push(() => server.stop());
  await waitUntilHealthy(server);
  return server;
}

function backupOf(output: string): string {
  const match = /to (\S+contact-sheet-backup-\S+)$/m.exec(output);
  expect(match, output).not.toBeNull();
  return match![1];
}

beforeAll(async () => {
  const admin = await signedInAdmin();
  const editor = await createTestUser(admin, "editor", "Backup editor");
  source = new TestClient();
  await source.signIn(editor.email, editor.password);
  photoIds = [];
  for (const file of ["exif-samples/jpg/Canon_PowerShot_S40.jpg", "exif-samples/jpg/Kodak_CX7530.jpg"]) photoIds.push((await uploadCorpusFile(source, file)).id);
  for (const id of photoIds) await waitForEveryVariant(source, id);
  const response = await source.request("/api/albums", { body: { json: { title: "Backed up", description: "Kept safe" } } });
  expect(response.status, await response.clone().text()).toBe(201);
  albumId = ((await response.json()) as { album: { id: string } }).album.id;
  expect((await source.request(`/api/albums/${albumId}/photos`, { body: { json: { photoIds } } })).status).toBeLessThan(300);
  backupDirectory = fs.mkdtempSync(path.join(os.tmpdir(), "contact-sheet-backups-"));
  cleanups.push(() => fs.rmSync(backupDirectory, { recursive: true, force: true }));
}, 180_000);

afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("contact-sheet backup and restore", () => {
  let backupPath: string;
  let target: Target;

  it("backs up while an upload runs, and a restore into a fresh site gives back every photo and row", async () => {
    const uploading = uploadCorpusFile(source, "exif-samples/jpg/Nikon_D70.jpg");
    const backup = await runContactSheet(["backup", backupDirectory], testAppEnvironment());
    const during = await uploading;
    expect(backup.code, backup.output).toBe(0);
    backupPath = backupOf(backup.stdout);
    const manifest = JSON.parse(fs.readFileSync(path.join(backupPath, "manifest.json"), "utf8")) as {
      counts: { photos: number };
      files: Array<{ path: string; sha256: string }>;
      missingMedia: string[];
      schemaVersion: string;
    };
    expect(manifest.schemaVersion).toMatch(/^2026-/);
    // Every photo row's original is in the backup, or named as missing: rows other tests wrote
    // straight into this shared database have no file.
    if (storageKind === "local") {
      const originals = manifest.files.filter((file) => file.path.startsWith("media/originals/")).length;
      expect(originals + manifest.missingMedia.filter((key) => key.startsWith("originals/")).length).toBe(manifest.counts.photos);
    }

    // A second backup shares every unchanged file with the first (hard links), copying none of them again.
    const second = await runContactSheet(["backup", backupDirectory], testAppEnvironment());
    expect(second.code, second.output).toBe(0);
    if (storageKind === "local") {
      const secondPath = backupOf(second.stdout);
      const original = (await json<{ photo: { id: string } }>(source, `/api/photos/${photoIds[0]}`)).photo.id;
      const relative = manifest.files.find((file) => file.path.includes(original))!.path;
      expect(fs.statSync(path.join(secondPath, relative)).ino).toBe(fs.statSync(path.join(backupPath, relative)).ino);
    }

    target = await freshTarget();
    const restore = await runContactSheet(["restore", backupPath], target.env);
    expect(restore.code, restore.output).toBe(0);
    expect(restore.stdout).toMatch(new RegExp(`Restored \\d+ users, ${manifest.counts.photos} photos, \\d+ albums, .* of media \\(\\d+ bytes\\)`));

    const server = await startRestoredApp(target);
    const restoredAdmin = new TestClient(server.url);
    await restoredAdmin.signIn(TEST_ADMIN.email, TEST_ADMIN.password);
    expect(restoredAdmin.sessionToken).toBeTruthy();
    const sourceAdmin = await signedInAdmin();
    for (const id of photoIds) {
      const [before, after] = [await json<{ photo: unknown }>(sourceAdmin, `/api/photos/${id}`), await json<{ photo: unknown }>(restoredAdmin, `/api/photos/${id}`)];
      expect(after).toEqual(before);
      expect(await bytesOf(restoredAdmin, `/api/photos/${id}/original`)).toBe(await bytesOf(sourceAdmin, `/api/photos/${id}/original`));
      for (const variant of (before as { photo: { variants: Array<{ url: string }> } }).photo.variants) {
        expect(await bytesOf(restoredAdmin, variant.url)).toBe(await bytesOf(sourceAdmin, variant.url));
      }
    }
    expect(await json(restoredAdmin, `/api/albums/${albumId}`)).toEqual(await json(sourceAdmin, `/api/albums/${albumId}`));
    expect(await json(restoredAdmin, `/api/albums/${albumId}/photos`)).toEqual(await json(sourceAdmin, `/api/albums/${albumId}/photos`));
    // The upload that ran during the backup is either wholly in it (its original's bytes back) or not at all.
    const duringResponse = await restoredAdmin.request(`/api/photos/${during.id}/original`);
    if (duringResponse.status === 200) {
      expect(createHash("sha256").update(new Uint8Array(await duringResponse.arrayBuffer())).digest("hex")).toBe(await bytesOf(sourceAdmin, `/api/photos/${during.id}/original`));
    } else {
      expect(duringResponse.status).toBe(404);
    }
    await server.stop();
  }, 240_000);

  it("refuses a site with data unless --force, which keeps what it replaced", async () => {
    const refused = await runContactSheet(["restore", backupPath], target.env);
    expect(refused.code, refused.output).toBe(1);
    expect(refused.stderr).toContain("already has users, photos or albums");
    const forced = await runContactSheet(["restore", "--force", backupPath], target.env);
    expect(forced.code, forced.output).toBe(0);
    const kept = /What this replaced is kept at (\S+?)(?:\.$| )/m.exec(forced.stdout);
    expect(kept, forced.output).not.toBeNull();
    if (databaseKind === "sqlite") expect(fs.existsSync(path.join(kept![1], "contact-sheet.sqlite"))).toBe(true);
  }, 120_000);

  /** The photos in a site's live database, read straight from it (no app needed). */
  async function livePhotoCount(site: Target): Promise<number> {
    const db = openTestDatabase({ dataDirectory: site.dataDirectory, databaseUrl: site.databaseUrl || undefined });
    try {
      const row = await db.selectFrom("photos").select((eb) => eb.fn.countAll<number | string>().as("count")).executeTakeFirstOrThrow();
      return Number(row.count);
    } finally {
      await db.destroy();
    }
  }

  it("leaves the live site as it was when a restore is killed part way, and the next restore finishes", async () => {
    const before = await livePhotoCount(target);
    expect(before).toBeGreaterThan(0);
    // Killed once its copy of the database is made, while the media are copied beside the live ones.
    const killed = await runContactSheet(["restore", "--force", backupPath], target.env, undefined, /^Database: restored into/m);
    expect(killed.signal, killed.output).toBe("SIGKILL");
    expect(await livePhotoCount(target)).toBe(before);
    if (databaseKind === "sqlite") {
      expect(fs.existsSync(path.join(target.dataDirectory, SQLITE_FILE_NAME))).toBe(true);
      expect(fs.existsSync(path.join(target.dataDirectory, "media"))).toBe(storageKind === "local");
    }
    const rerun = await runContactSheet(["restore", "--force", backupPath], target.env);
    expect(rerun.code, rerun.output).toBe(0);
    expect(await livePhotoCount(target)).toBe(before);
    // Nothing the killed run began is left behind: no copy half made, on disk or as a database.
    expect(fs.readdirSync(target.dataDirectory).filter((name) => name.includes(".restoring"))).toEqual([]);
    if (target.databaseUrl) {
      const pool = new Pool({ connectionString: adminUrl, max: 1 });
      const name = new URL(target.databaseUrl).pathname.slice(1);
      const { rows } = await pool.query("select datname from pg_database where datname like $1", [`${name.slice(0, 40).replaceAll("_", "\\_")}\\_restoring\\_%`]);
      await pool.end();
      expect(rows).toEqual([]);
    }
  }, 180_000);

  it("finishes a SQLite restore killed between the switch's renames when the data folder is next opened, never leaving it without a database", async () => {
    if (databaseKind !== "sqlite") return;
    const before = await livePhotoCount(target);
    // Held still right after its first rename (the live database moved aside) and killed on that line.
    const env = { ...target.env, CONTACT_SHEET_TEST_PAUSE_AFTER_SWITCH_STEP: "1" };
    const killed = await runContactSheet(["restore", "--force", backupPath], env, undefined, /^Switch: 1 of \d+: contact-sheet\.sqlite is now replaced-/m);
    expect(killed.signal, killed.output).toBe("SIGKILL");
    // The window: no live database, and the record of the switch beside where it was.
    expect(fs.existsSync(path.join(target.dataDirectory, SQLITE_FILE_NAME))).toBe(false);
    expect(fs.existsSync(path.join(target.dataDirectory, "restore-switch.json"))).toBe(true);
    // The next command that opens the data folder finishes the switch instead of finding no database.
    const next = await runContactSheet(["users", "list"], target.env);
    expect(next.code, next.output).toBe(0);
    expect(next.stdout).toContain("Finished the switch of a restore that was stopped part way");
    expect(next.stdout).toContain(TEST_ADMIN.email);
    expect(await livePhotoCount(target)).toBe(before);
    expect(fs.readdirSync(target.dataDirectory).filter((name) => name.includes(".restoring") || name === "restore-switch.json")).toEqual([]);
  }, 120_000);

  /** The name of the admin (TEST_ADMIN) in the database at `databaseUrl`. */
  async function adminNameIn(databaseUrl: string): Promise<string> {
    const db = openTestDatabase({ dataDirectory: target.dataDirectory, databaseUrl });
    try {
      return (await db.selectFrom("users").select("name").where("email", "=", TEST_ADMIN.email).executeTakeFirstOrThrow()).name;
    } finally {
      await db.destroy();
    }
  }

  it("leaves a whole PostgreSQL site when a restore is killed right after its database switch: on local disk the next opener finishes the media's switch, on S3 there is none", async () => {
    // On S3 the media are not switched: the database's one rename transaction is the whole switch
    // (killed before it commits, the earlier test's side: the live site as it was).
    if (databaseKind !== "postgres") return;
    const before = await livePhotoCount(target);
    // Marks only the live database and media folder have, to tell afterwards which are live.
    const liveMark = "Live before the killed restore";
    const mark = openTestDatabase({ dataDirectory: target.dataDirectory, databaseUrl: target.databaseUrl });
    await mark.updateTable("users").set({ name: liveMark }).where("email", "=", TEST_ADMIN.email).execute();
    await mark.destroy();
    const marker = path.join(target.dataDirectory, "media", "kept-from-before-the-restore");
    if (storageKind === "local") fs.writeFileSync(marker, "old");
    // Held still right after the database's rename transaction committed, and killed on that line.
    const env = { ...target.env, CONTACT_SHEET_TEST_PAUSE_AFTER_SWITCH_STEP: "1" };
    const killed = await runContactSheet(["restore", "--force", backupPath], env, undefined, /^Switch: 1 of \d+: the database \S+ is now /m);
    expect(killed.signal, killed.output).toBe("SIGKILL");
    // The window: on local disk the restored database is live beside the media it replaced, with
    // the record of the switch; on S3 there is nothing left to finish.
    expect(fs.existsSync(path.join(target.dataDirectory, "restore-switch.json"))).toBe(storageKind === "local");
    if (storageKind === "local") expect(fs.existsSync(marker)).toBe(true);
    if (storageKind === "local") {
      // The next command that opens the site finishes the media's switch before its first query
      // (on S3 there is nothing to finish: the databases are looked at directly, a command's start spared).
      const next = await runContactSheet(["users", "list"], target.env);
      expect(next.code, next.output).toBe(0);
      expect(next.output).toContain("Finished the switch of a restore that was stopped part way");
      expect(next.stdout).toContain(TEST_ADMIN.email);
    }
    // The restored database is live, and the one it replaced is kept whole beside it.
    expect(await adminNameIn(target.databaseUrl)).not.toBe(liveMark);
    const pool = new Pool({ connectionString: adminUrl, max: 1 });
    const name = new URL(target.databaseUrl).pathname.slice(1);
    const { rows } = await pool.query<{ datname: string }>("select datname from pg_database where datname like $1 order by datname desc", [`${name.slice(0, 40).replaceAll("_", "\\_")}\\_replaced\\_%`]);
    const restoring = await pool.query("select datname from pg_database where datname like $1", [`${name.slice(0, 40).replaceAll("_", "\\_")}\\_restoring\\_%`]);
    await pool.end();
    expect(await adminNameIn(Object.assign(new URL(target.databaseUrl), { pathname: `/${rows[0].datname}` }).toString())).toBe(liveMark);
    expect(restoring.rows).toEqual([]);
    if (storageKind === "local") {
      expect(fs.existsSync(marker)).toBe(false);
      const aside = fs.readdirSync(target.dataDirectory).filter((entry) => entry.startsWith("replaced-") && fs.existsSync(path.join(target.dataDirectory, entry, "media", path.basename(marker))));
      expect(aside, fs.readdirSync(target.dataDirectory).join(", ")).toHaveLength(1);
    }
    expect(await livePhotoCount(target)).toBe(before);
    expect(fs.readdirSync(target.dataDirectory).filter((entry) => entry.includes(".restoring") || entry === "restore-switch.json")).toEqual([]);
  }, 120_000);

  it("leaves no backup a restore would take when a backup is killed part way, and the next backup removes its remains", async () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), "contact-sheet-killed-backup-"));
    cleanups.push(() => fs.rmSync(directory, { recursive: true, force: true }));
    const killed = await runContactSheet(["backup", directory], testAppEnvironment(), undefined, /^Database: /m);
    expect(killed.signal, killed.output).toBe("SIGKILL");
    // Its lock names a dead process, which the next backup takes over (once the kill has taken
    // it: the command's own child may take a moment longer than the launcher to go).
    const lockHolder = Number(fs.readFileSync(path.join(directory, ".backup.lock"), "utf8"));
    for (const deadline = Date.now() + 10_000; isProcessRunning(lockHolder) && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 50));
    const left = fs.readdirSync(directory).filter((name) => name !== ".backup.lock");
    expect(left.every((name) => name.endsWith(".partial")), left.join(", ")).toBe(true);
    const next = await runContactSheet(["backup", directory], testAppEnvironment());
    expect(next.code, next.output).toBe(0);
    for (const name of left) expect(next.stdout).toContain(`Removed ${name}, left by a backup that did not finish.`);
    expect(fs.readdirSync(directory).filter((name) => name.endsWith(".partial") || name === ".backup.lock")).toEqual([]);
    const verified = await runContactSheet(["restore", "--dry-run", backupOf(next.stdout)], (await freshTarget()).env);
    expect(verified.code, verified.output).toBe(0);
  }, 180_000);

  it("verifies with --dry-run and changes nothing", async () => {
    const empty = await freshTarget();
    const result = await runContactSheet(["restore", "--dry-run", backupPath], empty.env);
    expect(result.code, result.output).toBe(0);
    expect(result.stdout).toContain("Dry run: the backup is whole");
    expect(fs.readdirSync(empty.dataDirectory)).toEqual([]);
  }, 60_000);

  /** A copy of the backup, damaged by `damage`, restored into an empty site: refused, nothing written. */
  async function refusedAfter(damage: (copy: string) => void): Promise<string> {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), "contact-sheet-damaged-"));
    cleanups.push(() => fs.rmSync(copy, { recursive: true, force: true }));
    fs.cpSync(backupPath, copy, { recursive: true });
    damage(copy);
    const empty = await freshTarget();
    const result = await runContactSheet(["restore", copy], empty.env);
    expect(result.code, result.output).toBe(1);
    expect(fs.readdirSync(empty.dataDirectory)).toEqual([]);
    if (empty.databaseUrl) {
      const db = openTestDatabase({ dataDirectory: empty.dataDirectory, databaseUrl: empty.databaseUrl });
      expect(await db.introspection.getTables()).toEqual([]);
      await db.destroy();
    }
    return result.stderr;
  }

  const editManifest = (copy: string, edit: (manifest: Record<string, unknown> & { files: Array<{ path: string }> }) => void) => {
    const file = path.join(copy, "manifest.json");
    const manifest = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown> & { files: Array<{ path: string }> };
    edit(manifest);
    fs.writeFileSync(file, JSON.stringify(manifest));
  };

  it("refuses a backup with one byte flipped", async () => {
    const stderr = await refusedAfter((copy) => {
      const manifest = JSON.parse(fs.readFileSync(path.join(copy, "manifest.json"), "utf8")) as { files: Array<{ path: string }> };
      const victim = path.join(copy, manifest.files.at(-1)!.path);
      const bytes = fs.readFileSync(victim);
      bytes[bytes.length >> 1] ^= 0x01;
      fs.writeFileSync(victim, bytes);
    });
    expect(stderr).toMatch(/The backup is damaged: \S+ does not match its SHA-256\. Nothing was changed\./);
  }, 60_000);

  it("refuses a truncated database", async () => {
    const stderr = await refusedAfter((copy) => {
      const file = path.join(copy, databaseKind === "sqlite" ? "database.sqlite" : "database.pgdump");
      fs.truncateSync(file, Math.floor(fs.statSync(file).size / 2));
    });
    expect(stderr).toMatch(/The backup is damaged: database\.\w+ has \d+ bytes, the manifest says \d+/);
  }, 60_000);

  it("refuses a manifest naming a file outside the backup", async () => {
    const stderr = await refusedAfter((copy) => editManifest(copy, (manifest) => manifest.files.push({ ...manifest.files[0], path: "../../etc/passwd" })));
    expect(stderr).toContain('The manifest names a file outside the backup ("../../etc/passwd")');
  }, 60_000);

  it("refuses a backup of a newer schema", async () => {
    const stderr = await refusedAfter((copy) => editManifest(copy, (manifest) => (manifest.schemaVersion = "2099-01-01T0000-from-the-future")));
    expect(stderr).toMatch(/This backup's schema \(2099-01-01T0000-from-the-future\) is newer than this Contact Sheet's \(2026-[^)]+\)\. Upgrade Contact Sheet/);
  }, 60_000);
});
