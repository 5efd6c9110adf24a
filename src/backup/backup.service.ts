import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import type { Environment } from "@/src/config/env";
import type { DatabaseHandle, DatabaseKind } from "@/src/db/client";
import { getStorage } from "@/src/storage/app-storage";
import { type BackupFile, BACKUP_FORMAT, BACKUP_FORMAT_VERSION, type BackupManifest, MANIFEST_FILE_NAME } from "./backup-manifest";
import { BackupError } from "./backup-error";
import { listFinishedBackups, lockBackupDirectory, partialPathOf, readManifestIfValid, removeUnfinishedBackups, snapshotName } from "./backup-folder";
import { checksumOfFile, copyFileWithChecksumSync, copyWithChecksum } from "./file-checksum";
import { assertToolMatchesServer, connectionArguments, runPostgresTool } from "./postgres-tools";
import { countSnapshotRows, latestMigrationName, listNamedFiles, type NamedFile } from "./snapshot-contents.repository";
import { openSqliteFile, snapshotSqlite } from "./sqlite-snapshot";

export interface Site {
  db: DatabaseHandle;
  kind: DatabaseKind;
  env: Environment;
}

export interface BackupResult {
  path: string;
  manifest: BackupManifest;
  /** Media files hard-linked from the previous backup instead of copied. */
  linked: number;
  copied: number;
}

const SQLITE_BACKUP_FILE = "database.sqlite";
const POSTGRES_BACKUP_FILE = "database.pgdump";
const PROGRESS_EVERY_MS = 2000;
/**
 * Files whose stored path is looked up at once (the one step of a file's copy that goes through the
 * thread pool): one at a time, each copy waited for the process to be scheduled again.
 */
const FILES_AT_ONCE = 64;

/**
 * Makes a consistent backup of a running site in a new folder inside `directory`: the database as
 * one snapshot, then exactly the files that snapshot names (local disk: copied, or hard-linked from
 * the previous backup when it already holds the same file, since stored names never change their
 * content; S3: listed, the bucket is copied with rclone or aws s3 sync), and last a manifest with
 * every file's SHA-256. The folder is written as `<name>.partial` and renamed when whole, so a
 * killed backup leaves nothing that looks finished (and the next run removes it).
 */
export async function createBackup(site: Site, directory: string, progress: (line: string) => void = () => undefined): Promise<BackupResult> {
  if (fs.existsSync(directory) && !fs.statSync(directory).isDirectory()) throw new BackupError(`${directory} is not a directory.`);
  fs.mkdirSync(directory, { recursive: true });
  const release = lockBackupDirectory(directory);
  try {
    const finalPath = path.join(directory, snapshotName(new Date()));
    // Said before any work, so a person (and bench:backup, which times the command's own start up
    // to its first line) sees the snapshot's seconds as the backup's, not as the command starting.
    progress(`Backing up the database and media; the new backup: ${finalPath}`);
    for (const name of removeUnfinishedBackups(directory)) progress(`Removed ${name}, left by a backup that did not finish.`);
    const previousPath = listFinishedBackups(directory).at(-1) ?? null;
    const previous = previousPath ? readManifestIfValid(previousPath) : null;
    const workPath = partialPathOf(finalPath);
    fs.mkdirSync(workPath);
    try {
      const result = await withDatabaseSnapshot(site, workPath, progress, async (snapshotDb, databaseFile) => {
        const schemaVersion = await latestMigrationName(snapshotDb);
        if (!schemaVersion) throw new BackupError("The database has no schema yet: run `npm run db:migrate` (or start the site once) first.");
        const counts = await countSnapshotRows(snapshotDb);
        const media =
          site.env.STORAGE === "local"
            ? await copyMedia(snapshotDb, workPath, previous && previousPath ? { path: previousPath, manifest: previous } : null, progress)
            : await listBucket(snapshotDb, progress);
        const manifest: BackupManifest = {
          format: BACKUP_FORMAT,
          formatVersion: BACKUP_FORMAT_VERSION,
          schemaVersion,
          createdAt: new Date().toISOString(),
          database: { kind: site.kind, path: databaseFile.path },
          storage: site.env.STORAGE === "s3" ? { kind: "s3", bucket: site.env.S3_BUCKET } : { kind: "local" },
          counts: { ...counts, mediaBytes: media.namedBytes },
          files: [databaseFile, ...media.files].sort((a, b) => (a.path < b.path ? -1 : 1)),
          missingMedia: media.missing,
          ...(media.objects ? { objects: media.objects } : {}),
        };
        return { manifest, linked: media.linked, copied: media.copied };
      });
      const manifestPath = path.join(workPath, MANIFEST_FILE_NAME);
      const handle = fs.openSync(manifestPath, "wx");
      fs.writeSync(handle, `${JSON.stringify(result.manifest, null, 1)}\n`);
      fs.fsyncSync(handle);
      fs.closeSync(handle);
      fs.renameSync(workPath, finalPath);
      return { path: finalPath, ...result };
    } catch (error) {
      fs.rmSync(workPath, { recursive: true, force: true });
      throw error;
    }
  } finally {
    release();
  }
}

/**
 * Writes the database's snapshot into `workPath` and runs `work` against that same snapshot, so the
 * files the backup copies are exactly those its database names. SQLite: the snapshot file itself,
 * opened read-only. PostgreSQL: a repeatable-read transaction whose snapshot pg_dump shares
 * (`pg_export_snapshot`, `pg_dump --snapshot`), held open until the media are copied.
 */
async function withDatabaseSnapshot<T>(
  site: Site,
  workPath: string,
  progress: (line: string) => void,
  work: (snapshotDb: DatabaseHandle, databaseFile: BackupFile) => Promise<T>,
): Promise<T> {
  const started = Date.now();
  if (site.kind === "sqlite") {
    const file = path.join(workPath, SQLITE_BACKUP_FILE);
    await snapshotSqlite(site.db, file);
    const databaseFile = { path: SQLITE_BACKUP_FILE, ...(await checksumOfFile(file)) };
    progress(`Database: SQLite snapshot of ${databaseFile.size} bytes in ${Date.now() - started} ms.`);
    const snapshotDb = openSqliteFile(file, { readonly: true });
    try {
      return await work(snapshotDb, databaseFile);
    } finally {
      await snapshotDb.destroy();
    }
  }
  const databaseUrl = site.env.DATABASE_URL ?? "";
  const { rows } = await sql<{ version: string }>`select current_setting('server_version_num') as version`.execute(site.db);
  await assertToolMatchesServer(site.env.PG_DUMP_PATH, Math.floor(Number(rows[0].version) / 10000));
  return site.db
    .transaction()
    .setIsolationLevel("repeatable read")
    .execute(async (transaction) => {
      const snapshot = (await sql<{ id: string }>`select pg_export_snapshot() as id`.execute(transaction)).rows[0].id;
      const file = path.join(workPath, POSTGRES_BACKUP_FILE);
      const connection = connectionArguments(databaseUrl);
      await runPostgresTool(site.env.PG_DUMP_PATH, ["--format=custom", `--snapshot=${snapshot}`, `--file=${file}`, `--dbname=${connection.dbname}`], connection.env);
      const databaseFile = { path: POSTGRES_BACKUP_FILE, ...(await checksumOfFile(file)) };
      progress(`Database: pg_dump of ${databaseFile.size} bytes in ${Date.now() - started} ms.`);
      return work(transaction, databaseFile);
    });
}

interface MediaOutcome {
  files: BackupFile[];
  missing: string[];
  namedBytes: number;
  linked: number;
  copied: number;
  objects?: BackupManifest["objects"];
}

async function copyMedia(
  snapshotDb: DatabaseHandle,
  workPath: string,
  previous: { path: string; manifest: BackupManifest } | null,
  progress: (line: string) => void,
): Promise<MediaOutcome> {
  const storage = getStorage();
  const previousFiles = new Map((previous?.manifest.files ?? []).map((file) => [file.path, file]));
  const outcome: MediaOutcome = { files: [], missing: [], namedBytes: 0, linked: 0, copied: 0 };
  const createdFolders = new Set<string>();
  let bytes = 0;
  let lastProgress = Date.now();
  const report = () => progress(`Media: ${outcome.files.length} files, ${bytes} bytes (${outcome.linked} linked from the previous backup).`);
  const backUpOne = async (named: NamedFile) => {
    const relative = `media/${named.key}`;
    const target = path.join(workPath, ...relative.split("/"));
    const folder = path.dirname(target);
    if (!createdFolders.has(folder)) {
      fs.mkdirSync(folder, { recursive: true });
      createdFolders.add(folder);
    }
    const file = linkFromPrevious(previous?.path, previousFiles.get(relative), named, target) ?? (await copyFromStorage(storage, named, target));
    return { named, relative, file };
  };
  for await (const page of listNamedFiles(snapshotDb)) {
    for (let start = 0; start < page.length; start += FILES_AT_ONCE) {
      for (const { named, relative, file } of await Promise.all(page.slice(start, start + FILES_AT_ONCE).map(backUpOne))) {
        outcome.namedBytes += named.size;
        if (!file) {
          outcome.missing.push(named.key);
          continue;
        }
        if (file.linked) outcome.linked += 1;
        else outcome.copied += 1;
        outcome.files.push({ path: relative, size: file.size, sha256: file.sha256 });
        bytes += file.size;
      }
      if (Date.now() - lastProgress > PROGRESS_EVERY_MS) {
        report();
        lastProgress = Date.now();
      }
    }
  }
  report();
  return outcome;
}

/** The previous backup's copy of the same stored file, hard-linked, when it is there at the right size. */
function linkFromPrevious(
  previousPath: string | undefined,
  previousFile: BackupFile | undefined,
  named: NamedFile,
  target: string,
): { size: number; sha256: string; linked: true } | null {
  if (!previousPath || !previousFile || previousFile.size !== named.size) return null;
  const source = path.join(previousPath, ...previousFile.path.split("/"));
  try {
    if (fs.statSync(source).size !== previousFile.size) return null;
    fs.linkSync(source, target);
    return { size: previousFile.size, sha256: previousFile.sha256, linked: true };
  } catch {
    // Gone, or on another filesystem (hard links cannot cross one): copy it instead.
    return null;
  }
}

async function copyFromStorage(storage: ReturnType<typeof getStorage>, named: NamedFile, target: string): Promise<{ size: number; sha256: string; linked: false } | null> {
  // Local disk: the file itself, copied with a few system calls in a row (copyFileWithChecksumSync).
  if (storage.kind === "local") {
    const sourcePath = await storage.localPathOf(named.key);
    try {
      if (sourcePath) return { ...copyFileWithChecksumSync(sourcePath, target), linked: false };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    // Deleted after the snapshot (its photo was removed meanwhile): recorded, not fatal.
    return null;
  }
  let stream;
  try {
    stream = await storage.read(named.key);
  } catch (error) {
    // Deleted after the snapshot (its photo was removed meanwhile): recorded, not fatal.
    if ((error as { code?: unknown }).code === "NOT_FOUND") return null;
    throw error;
  }
  return { ...(await copyWithChecksum(stream.body, target)), linked: false };
}

async function listBucket(snapshotDb: DatabaseHandle, progress: (line: string) => void): Promise<MediaOutcome> {
  let namedBytes = 0;
  for await (const page of listNamedFiles(snapshotDb)) for (const named of page) namedBytes += named.size;
  const objects: NonNullable<BackupManifest["objects"]> = [];
  for await (const object of getStorage().list("")) objects.push({ key: object.key, size: object.size, ...(object.etag ? { etag: object.etag } : {}) });
  objects.sort((a, b) => (a.key < b.key ? -1 : 1));
  progress(`Media: the bucket holds ${objects.length} objects; copy it with rclone or aws s3 sync (README, "Backups").`);
  return { files: [], missing: [], namedBytes, linked: 0, copied: 0, objects };
}
