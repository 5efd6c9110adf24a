import path from "node:path";
import type { Command } from "commander";
import { BackupError } from "@/src/backup/backup-error";
import { formatByteSize } from "@/src/photos/byte-size";
import { CommandFailure } from "../command-failure";
import { loadServer } from "../load-server";

interface BackupCommandOptions {
  keep?: string;
  scheduled?: boolean;
}

/**
 * `contact-sheet backup <dir>`: a consistent backup of the running site in a new folder inside
 * `dir`. Its outcome, worked or failed, is recorded for the admin dashboard.
 */
export function addBackupCommand(program: Command): void {
  program
    .command("backup")
    .description("Back up the database and media (local disk; S3 is listed) into a new folder inside <dir>, while the site runs.")
    .argument("<dir>", "the backup directory; each backup is a folder in it, sharing unchanged files with the previous one by hard links")
    .option("--keep <count>", "afterwards, delete the oldest backups in <dir> beyond this many")
    .option("--scheduled", "recorded as the scheduled backup (the server's BACKUP_DIR job runs it so)")
    .action(async (directory: string, options: BackupCommandOptions) => {
      const keep = options.keep === undefined ? null : Number(options.keep);
      if (keep !== null && (!Number.isInteger(keep) || keep < 1)) throw new CommandFailure("--keep must be a whole number of at least 1.", 2);
      const { openServerDatabase, closeServerDatabase, backup, backupFolder, backupStatus } = await loadServer();
      const { createBackup } = backup;
      const { pruneBackups } = backupFolder;
      const { recordBackupStatus } = backupStatus;
      const site = await openServerDatabase();
      const trigger = options.scheduled ? "scheduled" : "command";
      try {
        const result = await createBackup(site, path.resolve(directory), (line) => console.log(line));
        const { counts, files, missingMedia } = result.manifest;
        console.log(
          `Backed up ${counts.users} users, ${counts.photos} photos, ${counts.albums} albums and ${counts.variants} variants ` +
            `(${formatByteSize(counts.mediaBytes)} of media; ${result.copied} files copied, ${result.linked} linked from the previous backup) ` +
            `to ${result.path}`,
        );
        console.log(`The manifest lists ${files.length} files with their SHA-256.`);
        if (missingMedia.length > 0) {
          console.log(`${missingMedia.length} files were deleted while the backup ran (their photos were removed meanwhile): ${missingMedia.join(", ")}`);
        }
        if (keep !== null) for (const removed of pruneBackups(path.resolve(directory), keep)) console.log(`Removed the older backup ${removed} (keeping ${keep}).`);
        await recordBackupStatus(site.db, {
          finishedAt: new Date().toISOString(),
          ok: true,
          trigger,
          detail: result.path,
          photos: counts.photos,
          mediaBytes: counts.mediaBytes,
        });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await recordBackupStatus(site.db, { finishedAt: new Date().toISOString(), ok: false, trigger, detail: message }).catch(() => undefined);
        if (error instanceof BackupError) throw new CommandFailure(message);
        throw error;
      } finally {
        await closeServerDatabase();
      }
    });
}
