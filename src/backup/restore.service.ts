import fs from "node:fs";
import path from "node:path";
import { Kysely, PostgresDialect, sql } from "kysely";
import { Pool } from "pg";
import type { Environment } from "@/src/config/env";
import { SQLITE_FILE_NAME, type DatabaseHandle, type DatabaseKind } from "@/src/db/client";
import type { Database } from "@/src/db/database";
import { describeSwitchOutcome } from "@/src/db/postgres-restore-switch";
import { type DatabaseSwitchOutcome, finishDatabaseRestoreSwitch, finishRestoreSwitch, RestoreSwitchError, type SwitchStep, writeSwitchJournal } from "@/src/db/restore-switch";
import { migrateToLatest } from "@/src/db/migrate";
import { migrationProvider } from "@/src/db/migrations";
import { getStorage } from "@/src/storage/app-storage";
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, type BackupManifest, backupManifestSchema, isSafeBackupPath, MANIFEST_FILE_NAME } from "./backup-manifest";
import { BackupError } from "./backup-error";
import { listFinishedBackups } from "./backup-folder";
import { checksumOfFile, copyWithChecksum } from "./file-checksum";
import { assertToolMatchesServer, connectionArguments, runPostgresTool } from "./postgres-tools";
import { countSnapshotRows, hasSiteData, type SnapshotCounts } from "./snapshot-contents.repository";
import { openSqliteFile } from "./sqlite-snapshot";

export interface RestoreOptions {
  env: Environment;
  kind: DatabaseKind;
  dryRun?: boolean;
  force?: boolean;
  progress?: (line: string) => void;
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** What the restored database holds, counted after any migration (the manifest's counts on a dry run). */
  counts: SnapshotCounts;
  mediaBytes: number;
  /** Migrations run on the restored copy because the backup was older than this version. */
  migrated: string[];
  /** Where what the restore replaced is kept (--force), or null when there was nothing. */
  replacedAt: string | null;
  /** S3: objects the manifest lists that the bucket lacks (copy the bucket back, README "Backups"). */
  missingObjects: number;
  dryRun: boolean;
}

/**
 * Restores a backup made by createBackup. Nothing live is touched until the backup has proved whole:
 * its manifest is of a format and schema this version reads, names no file outside the backup, and
 * every file matches its size and SHA-256. The copy is then made beside the live data (a new SQLite
 * file and media folder, or a new PostgreSQL database), migrated when the backup is older, checked
 * again, and only then switched in by renames; what it replaces is kept aside, never deleted. A site
 * that has users, photos or albums is refused unless `force`.
 */
export async function restoreBackup(backupPath: string, options: RestoreOptions): Promise<RestoreResult> {
  const progress = options.progress ?? (() => undefined);
  const manifest = readManifest(backupPath);
  checkCompatibility(manifest, options);
  await checkSchemaVersion(manifest.schemaVersion);
  await verifyEveryFile(backupPath, manifest, progress);
  const base = { manifest, mediaBytes: manifest.counts.mediaBytes, migrated: [] as string[], missingObjects: 0 };
  if (options.dryRun) return { ...base, counts: manifest.counts, replacedAt: null, dryRun: true };
  const restored = options.kind === "sqlite" ? await restoreSqlite(backupPath, manifest, options, progress) : await restorePostgres(backupPath, manifest, options, progress);
  const missingObjects = manifest.storage.kind === "s3" ? await countMissingObjects(manifest) : 0;
  return { ...base, ...restored, missingObjects, dryRun: false };
}

function readManifest(backupPath: string): BackupManifest {
  const manifestPath = path.join(backupPath, MANIFEST_FILE_NAME);
  if (!fs.existsSync(manifestPath)) {
    const inside = listFinishedBackups(backupPath);
    if (inside.length > 0) throw new BackupError(`${backupPath} holds several backups; name one of them, e.g. ${inside.at(-1)}`);
    throw new BackupError(`${backupPath} is not a backup: it has no ${MANIFEST_FILE_NAME}.`);
  }
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(manifestPath, "utf8"));
  } catch {
    throw new BackupError(`${manifestPath} is not valid JSON: the backup is damaged.`);
  }
  const format = (json as { format?: unknown; formatVersion?: unknown } | null) ?? {};
  if (format.format !== BACKUP_FORMAT) throw new BackupError(`${manifestPath} is not a Contact Sheet backup manifest.`);
  if (typeof format.formatVersion === "number" && format.formatVersion > BACKUP_FORMAT_VERSION) {
    throw new BackupError(`This backup is in format ${format.formatVersion}, made by a newer Contact Sheet; this version reads format ${BACKUP_FORMAT_VERSION}. Upgrade Contact Sheet first.`);
  }
  const parsed = backupManifestSchema.safeParse(json);
  if (!parsed.success || parsed.data.formatVersion !== BACKUP_FORMAT_VERSION) throw new BackupError(`${manifestPath} is not a manifest this version reads: the backup is damaged.`);
  const manifest = parsed.data;
  for (const file of manifest.files) {
    if (!isSafeBackupPath(file.path)) throw new BackupError(`The manifest names a file outside the backup (${JSON.stringify(file.path)}); refusing it.`);
  }
  if (!manifest.files.some((file) => file.path === manifest.database.path)) throw new BackupError("The manifest does not list the database's file: the backup is damaged.");
  return manifest;
}

function checkCompatibility(manifest: BackupManifest, options: RestoreOptions): void {
  if (manifest.database.kind !== options.kind) {
    throw new BackupError(
      `This is a ${manifest.database.kind === "sqlite" ? "SQLite" : "PostgreSQL"} backup and this site uses ${options.kind === "sqlite" ? "SQLite" : "PostgreSQL"}` +
        " (DATABASE_URL decides). Restore it into a site of the same kind.",
    );
  }
  if (manifest.storage.kind !== options.env.STORAGE) {
    throw new BackupError(`This backup's media are on ${manifest.storage.kind === "s3" ? "S3" : "local disk"} and this site uses STORAGE=${options.env.STORAGE}.`);
  }
}

async function checkSchemaVersion(schemaVersion: string): Promise<void> {
  const known = Object.keys(await migrationProvider.getMigrations()).sort();
  if (known.includes(schemaVersion)) return;
  const latest = known.at(-1) ?? "";
  if (schemaVersion > latest) {
    throw new BackupError(`This backup's schema (${schemaVersion}) is newer than this Contact Sheet's (${latest}). Upgrade Contact Sheet, then restore.`);
  }
  throw new BackupError(`This backup's schema version (${schemaVersion}) is not one this Contact Sheet knows.`);
}

async function verifyEveryFile(backupPath: string, manifest: BackupManifest, progress: (line: string) => void): Promise<void> {
  let checked = 0;
  let lastProgress = Date.now();
  for (const file of manifest.files) {
    const filePath = path.join(backupPath, ...file.path.split("/"));
    const stat = fs.statSync(filePath, { throwIfNoEntry: false });
    if (!stat?.isFile()) throw new BackupError(`The backup is damaged: ${file.path} is missing. Nothing was changed.`);
    if (stat.size !== file.size) throw new BackupError(`The backup is damaged: ${file.path} has ${stat.size} bytes, the manifest says ${file.size}. Nothing was changed.`);
    if ((await checksumOfFile(filePath)).sha256 !== file.sha256) throw new BackupError(`The backup is damaged: ${file.path} does not match its SHA-256. Nothing was changed.`);
    checked += 1;
    if (Date.now() - lastProgress > 2000) {
      progress(`Verified ${checked} of ${manifest.files.length} files.`);
      lastProgress = Date.now();
    }
  }
  progress(`Verified all ${manifest.files.length} files against their SHA-256.`);
}

/** A name for what a restore sets aside, sortable and unique enough: one restore per site at a time. */
function stamp(): string {
  return new Date().toISOString().replace(/[-:.]/g, "").toLowerCase();
}

async function restoreSqlite(backupPath: string, manifest: BackupManifest, options: RestoreOptions, progress: (line: string) => void) {
  const dataDirectory = options.env.dataDirectory;
  fs.mkdirSync(dataDirectory, { recursive: true });
  // An earlier restore stopped while switching: its verified copies are finished into place first, so
  // what is live (and what --force would replace) is whole.
  finishInterruptedSwitch(dataDirectory, progress);
  const liveFile = path.join(dataDirectory, SQLITE_FILE_NAME);
  if (fs.existsSync(liveFile)) {
    const live = openSqliteFile(liveFile, { readonly: true });
    try {
      await refuseUnlessForced(live, options);
    } finally {
      await live.destroy();
    }
  }
  const restoringFile = `${liveFile}.restoring`;
  fs.rmSync(restoringFile, { force: true });
  await copyVerified(backupPath, manifest, manifest.database.path, restoringFile);
  const copy = openSqliteFile(restoringFile, { readonly: false });
  let counts: SnapshotCounts;
  let migrated: string[];
  try {
    const { rows } = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(copy);
    if (rows[0]?.integrity_check !== "ok") throw new BackupError(`The backup's database fails SQLite's integrity check (${rows[0]?.integrity_check}). Nothing was changed.`);
    migrated = await migrateToLatest(copy);
    counts = await countSnapshotRows(copy);
  } finally {
    await copy.destroy();
  }
  progress(`Database: restored into ${restoringFile}${migrated.length > 0 ? `, migrated (${migrated.join(", ")})` : ""}.`);
  const media = await restoreMediaBeside(backupPath, manifest, options, progress);
  // The switch: what is live moves aside, then the verified copies take its place. Written down
  // first (src/db/restore-switch.ts): killed between two renames, it is finished by whoever opens
  // the data folder next, never left without a database.
  const replacedName = `replaced-${stamp()}`;
  const live = [SQLITE_FILE_NAME, `${SQLITE_FILE_NAME}-wal`, `${SQLITE_FILE_NAME}-shm`, ...(media ? ["media"] : [])].filter((name) => fs.existsSync(path.join(dataDirectory, name)));
  const steps: SwitchStep[] = [
    ...live.map((name) => ({ from: name, to: `${replacedName}/${name}` })),
    ...(media ? [{ from: path.basename(media), to: "media" }] : []),
    { from: path.basename(restoringFile), to: SQLITE_FILE_NAME },
  ];
  writeSwitchJournal(dataDirectory, steps);
  finishRestoreSwitch(dataDirectory, (step, index, count) => {
    progress(`Switch: ${index + 1} of ${count}: ${step.from} is now ${step.to}.`);
    pauseForTestAfterSwitchStep(index + 1);
  });
  return { counts, migrated, replacedAt: live.length > 0 ? path.join(dataDirectory, replacedName) : null };
}

/** Finishes the switch of a restore that was stopped part way, telling it; a record it cannot follow is a BackupError. */
function finishInterruptedSwitch(dataDirectory: string, progress: (line: string) => void): void {
  try {
    const made = finishRestoreSwitch(dataDirectory);
    if (made) progress(`Finished the switch of an earlier restore that was stopped part way (${made.length} rename${made.length === 1 ? "" : "s"} left): its restored database and media are live.`);
  } catch (error) {
    if (error instanceof RestoreSwitchError) throw new BackupError(error.message);
    throw error;
  }
}

/**
 * Tests only: CONTACT_SHEET_TEST_PAUSE_AFTER_SWITCH_STEP=n holds the restore still for a minute right
 * after the switch's n-th rename (and its progress line), so a test's SIGKILL on that line lands
 * inside the switch rather than after its last rename, which follows within microseconds.
 */
function pauseForTestAfterSwitchStep(step: number): void {
  if (process.env.CONTACT_SHEET_TEST_PAUSE_AFTER_SWITCH_STEP !== String(step)) return;
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
}

async function refuseUnlessForced(live: DatabaseHandle, options: RestoreOptions): Promise<void> {
  if (!options.force && (await hasSiteData(live))) {
    throw new BackupError("This site already has users, photos or albums. Restore onto it only with --force, which keeps what it replaces aside. Nothing was changed.");
  }
}

/** Copies one file out of the backup and checks the copy's SHA-256 against the manifest once more. */
async function copyVerified(backupPath: string, manifest: BackupManifest, relative: string, target: string): Promise<void> {
  const expected = manifest.files.find((file) => file.path === relative);
  const copied = await copyWithChecksum(fs.createReadStream(path.join(backupPath, ...relative.split("/"))), target);
  if (!expected || copied.sha256 !== expected.sha256) throw new BackupError(`The copy of ${relative} does not match its SHA-256 (the backup changed while it was read). Nothing was changed.`);
}

/** Local disk: the backup's media copied and checked into `media.restoring` beside the live folder; null for S3. */
async function restoreMediaBeside(backupPath: string, manifest: BackupManifest, options: RestoreOptions, progress: (line: string) => void): Promise<string | null> {
  if (manifest.storage.kind !== "local") return null;
  const target = path.join(options.env.dataDirectory, "media.restoring");
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(target, { recursive: true });
  const mediaFiles = manifest.files.filter((file) => file.path.startsWith("media/"));
  let lastProgress = Date.now();
  for (const [index, file] of mediaFiles.entries()) {
    const destination = path.join(target, ...file.path.slice("media/".length).split("/"));
    fs.mkdirSync(path.dirname(destination), { recursive: true });
    await copyVerified(backupPath, manifest, file.path, destination);
    if (Date.now() - lastProgress > 2000) {
      progress(`Media: ${index + 1} of ${mediaFiles.length} files restored.`);
      lastProgress = Date.now();
    }
  }
  progress(`Media: ${mediaFiles.length} files restored and checked.`);
  return target;
}

async function restorePostgres(backupPath: string, manifest: BackupManifest, options: RestoreOptions, progress: (line: string) => void) {
  const databaseUrl = options.env.DATABASE_URL ?? "";
  const target = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(target)) throw new BackupError(`Restore needs a plain database name in DATABASE_URL (lower-case letters, digits, _), not "${target}".`);
  const maintenanceUrl = Object.assign(new URL(databaseUrl), { pathname: "/postgres" }).toString();
  const maintenance = new Pool({ connectionString: maintenanceUrl, max: 1 });
  maintenance.on("error", () => undefined);
  try {
    const { rows } = await maintenance.query<{ version: string; exists: boolean }>(
      "select current_setting('server_version_num') as version, exists (select 1 from pg_database where datname = $1) as exists",
      [target],
    );
    await assertToolMatchesServer(options.env.PG_RESTORE_PATH, Math.floor(Number(rows[0].version) / 10000));
    // An earlier restore stopped between its database switch and its media switch is finished first,
    // so what is live (and what --force would replace) belongs together.
    fs.mkdirSync(options.env.dataDirectory, { recursive: true });
    await finishInterruptedPostgresSwitch(options.env.dataDirectory, maintenance, progress);
    const targetExists = rows[0].exists;
    if (targetExists) {
      const live = postgresHandle(databaseUrl);
      try {
        await refuseUnlessForced(live, options);
      } finally {
        await live.destroy();
      }
    }
    const restoringName = `${target.slice(0, 40)}_restoring_${stamp().replace(/[^0-9a-z]/g, "")}`.slice(0, 63);
    const restoringUrl = Object.assign(new URL(databaseUrl), { pathname: `/${restoringName}` }).toString();
    // A restore killed part way left its new database behind; it was never live, so it goes.
    const stale = await maintenance.query<{ datname: string }>("select datname from pg_database where datname like $1", [`${target.slice(0, 40).replaceAll("_", "\\_")}\\_restoring\\_%`]);
    for (const row of stale.rows) await maintenance.query(`drop database if exists "${row.datname}" with (force)`);
    await maintenance.query(`create database "${restoringName}"`);
    let counts: SnapshotCounts;
    let migrated: string[];
    try {
      const connection = connectionArguments(restoringUrl);
      await runPostgresTool(
        options.env.PG_RESTORE_PATH,
        ["--no-owner", "--no-acl", "--exit-on-error", `--dbname=${connection.dbname}`, path.join(backupPath, ...manifest.database.path.split("/"))],
        connection.env,
      );
      const copy = postgresHandle(restoringUrl);
      try {
        migrated = await migrateToLatest(copy);
        counts = await countSnapshotRows(copy);
      } finally {
        await copy.destroy();
      }
      progress(`Database: restored into the new database ${restoringName}${migrated.length > 0 ? `, migrated (${migrated.join(", ")})` : ""}.`);
    } catch (error) {
      await maintenance.query(`drop database if exists "${restoringName}" with (force)`);
      throw error;
    }
    const media = await restoreMediaBeside(backupPath, manifest, options, progress);
    // The switch: renaming needs the live database free of connections (the site stopped).
    const stampText = stamp().replace(/[^0-9a-z]/g, "");
    let replacedAt: string | null = null;
    const renames: string[] = [];
    if (targetExists) {
      const busy = await maintenance.query<{ count: string }>("select count(*) as count from pg_stat_activity where datname = $1", [target]);
      if (Number(busy.rows[0].count) > 0) {
        await maintenance.query(`drop database if exists "${restoringName}" with (force)`);
        if (media) fs.rmSync(media, { recursive: true, force: true });
        throw new BackupError(`The database ${target} has ${busy.rows[0].count} open connections: stop the site (and its workers), then restore again. Nothing was changed.`);
      }
      replacedAt = `${target.slice(0, 40)}_replaced_${stampText}`.slice(0, 63);
      renames.push(`alter database "${target}" rename to "${replacedAt}"`);
    }
    renames.push(`alter database "${restoringName}" rename to "${target}"`);
    // The media folder follows the database (local disk; on S3 the database's rename is the whole
    // switch). Written down first, with the restored copy's oid (src/db/restore-switch.ts): killed
    // after the database's renames committed and before the media's, whoever opens the site next
    // finishes the media's; killed before they committed, the journal is dropped. So the live
    // database and media folder always belong together.
    const dataDirectory = options.env.dataDirectory;
    const asideName = `replaced-${stampText}`;
    const liveMediaThere = fs.existsSync(path.join(dataDirectory, "media"));
    const mediaSteps: SwitchStep[] = media ? [...(liveMediaThere ? [{ from: "media", to: `${asideName}/media` }] : []), { from: path.basename(media), to: "media" }] : [];
    const restoredOid = await databaseOid(maintenance, restoringName);
    if (restoredOid === null) throw new BackupError(`The new database ${restoringName} is gone: another restore may be running. Nothing was changed.`);
    if (mediaSteps.length > 0) writeSwitchJournal(dataDirectory, mediaSteps, { name: target, restoredOid });
    const finishMedia = () =>
      finishDatabaseRestoreSwitch(
        dataDirectory,
        (name) => databaseOid(maintenance, name),
        (step, index, count) => progress(`Switch: ${index + 2} of ${count + 1}: ${step.from} is now ${step.to}.`),
      );
    try {
      // Both renames in one transaction: a restore killed between them would leave no live database
      // at all (the clean-clone CI run caught it); killed now, the transaction dies with its connection.
      await maintenance.query(`begin; ${renames.join("; ")}; commit`);
    } catch (error) {
      // Whether it committed is asked of the server, which finishes or drops the journal; unreachable, the journal waits for the next opener.
      await finishMedia().catch(() => undefined);
      throw error;
    }
    progress(`Switch: 1 of ${mediaSteps.length + 1}: the database ${restoringName} is now ${target}${targetExists ? ` (the one it replaced is ${replacedAt})` : ""}.`);
    pauseForTestAfterSwitchStep(1);
    const outcome = await finishMedia();
    if (outcome && !("finished" in outcome)) throw new BackupError(`The database switch did not take (${target} is not the restored copy). Look at the databases by hand.`);
    if (liveMediaThere && media) {
      const aside = path.join(dataDirectory, asideName);
      replacedAt = replacedAt ? `${replacedAt} (database) and ${aside} (media)` : aside;
    }
    return { counts, migrated, replacedAt };
  } finally {
    await maintenance.end();
  }
}

/** The oid of the database called `name` (kept by a rename), or null when there is none. */
async function databaseOid(maintenance: Pool, name: string): Promise<number | null> {
  const { rows } = await maintenance.query<{ oid: string }>("select oid::text as oid from pg_database where datname = $1", [name]);
  return rows[0] ? Number(rows[0].oid) : null;
}

/** Finishes (or drops) the switch of an earlier PostgreSQL restore that was stopped part way, telling it. */
async function finishInterruptedPostgresSwitch(dataDirectory: string, maintenance: Pool, progress: (line: string) => void): Promise<void> {
  let outcome: DatabaseSwitchOutcome | null;
  try {
    outcome = await finishDatabaseRestoreSwitch(dataDirectory, (name) => databaseOid(maintenance, name));
  } catch (error) {
    if (error instanceof RestoreSwitchError) throw new BackupError(error.message);
    throw error;
  }
  if (outcome) progress(describeSwitchOutcome(outcome, dataDirectory));
}

function postgresHandle(url: string): DatabaseHandle {
  const pool = new Pool({ connectionString: url, max: 1 });
  pool.on("error", () => undefined);
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

async function countMissingObjects(manifest: BackupManifest): Promise<number> {
  const present = new Map<string, number>();
  for await (const object of getStorage().list("")) present.set(object.key, object.size);
  return (manifest.objects ?? []).filter((object) => present.get(object.key) !== object.size).length;
}
