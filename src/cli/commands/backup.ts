import path from "node:path";
import type { Command } from "commander";
import { BackupError } from "@/src/backup/backup-error";
import { createBackup } from "@/src/backup/backup.service";
import { formatByteSize } from "@/src/photos/byte-size";
import { CommandFailure } from "../command-failure";
import { closeSiteDatabase, openSiteDatabase } from "../site-database";

/** `contact-sheet backup <dir>`: a consistent backup of the running site in a new folder inside `dir`. */
export function addBackupCommand(program: Command): void {
  program
    .command("backup")
    .description("Back up the database and media (local disk; S3 is listed) into a new folder inside <dir>, while the site runs.")
    .argument("<dir>", "the backup directory; each backup is a folder in it, sharing unchanged files with the previous one by hard links")
    .action(async (directory: string) => {
      const site = await openSiteDatabase();
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
      } catch (error) {
        if (error instanceof BackupError) throw new CommandFailure(error.message);
        throw error;
      } finally {
        await closeSiteDatabase();
      }
    });
}
