import fs from "node:fs";
import path from "node:path";
import { isProcessRunning } from "@/src/storage/process-liveness";
import { backupManifestSchema, type BackupManifest, MANIFEST_FILE_NAME } from "./backup-manifest";
import { BackupError } from "./backup-error";

/** Each backup is a folder of its own inside the backup directory, named by when it was made. */
const SNAPSHOT_NAME = /^contact-sheet-backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;
const PARTIAL_SUFFIX = ".partial";
const LOCK_FILE = ".backup.lock";

export function snapshotName(now: Date): string {
  return `contact-sheet-backup-${now.toISOString().replace(/[:.]/g, "-")}`;
}

/** Finished backups in `directory` (a manifest is written last), oldest first. */
export function listFinishedBackups(directory: string): string[] {
  if (!fs.existsSync(directory)) return [];
  return fs
    .readdirSync(directory)
    .filter((name) => SNAPSHOT_NAME.test(name) && fs.existsSync(path.join(directory, name, MANIFEST_FILE_NAME)))
    .sort()
    .map((name) => path.join(directory, name));
}

/** A backup's manifest, or null when it is missing or not one this version reads. */
export function readManifestIfValid(backupPath: string): BackupManifest | null {
  try {
    const parsed = backupManifestSchema.safeParse(JSON.parse(fs.readFileSync(path.join(backupPath, MANIFEST_FILE_NAME), "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Removes folders a killed backup left half-written (never a finished backup). */
export function removeUnfinishedBackups(directory: string): string[] {
  const removed: string[] = [];
  for (const name of fs.readdirSync(directory)) {
    if (name.endsWith(PARTIAL_SUFFIX) && SNAPSHOT_NAME.test(name.slice(0, -PARTIAL_SUFFIX.length))) {
      fs.rmSync(path.join(directory, name), { recursive: true, force: true });
      removed.push(name);
    }
  }
  return removed;
}

export function partialPathOf(finalPath: string): string {
  return `${finalPath}${PARTIAL_SUFFIX}`;
}

/**
 * Holds the backup directory for one backup at a time (the scheduled one and a command run by hand
 * may meet). A lock whose process is gone (killed) is taken over. Answers the release.
 */
export function lockBackupDirectory(directory: string): () => void {
  const lockPath = path.join(directory, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: "wx" });
      return () => fs.rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number(fs.readFileSync(lockPath, "utf8"));
      if (Number.isInteger(holder) && holder > 0 && isProcessRunning(holder)) {
        throw new BackupError(`Another backup (process ${holder}) is writing to ${directory}; wait for it to finish.`);
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new BackupError(`Could not lock ${directory} for the backup.`);
}

/** Deletes the oldest finished backups beyond `keep`; answers their paths. Shared files live on in the newer ones (hard links). */
export function pruneBackups(directory: string, keep: number): string[] {
  const finished = listFinishedBackups(directory);
  const removed = finished.slice(0, Math.max(0, finished.length - keep));
  for (const backup of removed) fs.rmSync(backup, { recursive: true, force: true });
  return removed;
}
