import path from "node:path";
import type { Command } from "commander";
import { BackupError } from "@/src/backup/backup-error";
import { EnvironmentError, getEnv } from "@/src/config/env";
import { formatByteSize } from "@/src/photos/byte-size";
import { CommandFailure } from "../command-failure";
import { loadServer } from "../load-server";

interface RestoreCommandOptions {
  dryRun?: boolean;
  force?: boolean;
}

/**
 * `contact-sheet restore <backup>`: the site's database and media from one backup folder. It does
 * not open the live database through the app's client, which would create an empty SQLite file
 * where there was none; the service looks at what is there itself.
 */
export function addRestoreCommand(program: Command): void {
  program
    .command("restore")
    .description("Restore a backup folder made by `contact-sheet backup` (stop the site first). Every checksum is verified before anything changes.")
    .argument("<backup>", "a backup folder (the one holding manifest.json)")
    .option("--dry-run", "verify the backup only; change nothing")
    .option("--force", "restore onto a site that has data; what it replaces is kept aside")
    .action(async (backup: string, options: RestoreCommandOptions) => {
      let env;
      try {
        env = getEnv();
      } catch (error) {
        if (error instanceof EnvironmentError) throw new CommandFailure(error.message.replace("Contact Sheet cannot start", "The site's settings are incomplete"));
        throw error;
      }
      const { restoreBackup } = (await loadServer()).restore;
      try {
        const result = await restoreBackup(path.resolve(backup), {
          env,
          kind: env.DATABASE_URL ? "postgres" : "sqlite",
          dryRun: options.dryRun,
          force: options.force,
          progress: (line) => console.log(line),
        });
        const { counts } = result;
        const what = `${counts.users} users, ${counts.photos} photos, ${counts.albums} albums, ${formatByteSize(result.mediaBytes)} of media (${result.mediaBytes} bytes)`;
        if (result.dryRun) {
          console.log(`Dry run: the backup is whole (schema ${result.manifest.schemaVersion}, made ${result.manifest.createdAt}) and holds ${what}. Nothing was changed.`);
          return;
        }
        console.log(`Restored ${what}.`);
        if (result.migrated.length > 0) console.log(`The backup's schema was older; ran ${result.migrated.length} migrations.`);
        if (result.replacedAt) console.log(`What this replaced is kept at ${result.replacedAt}.`);
        if (result.missingObjects > 0) {
          console.log(`${result.missingObjects} media objects the backup lists are not in the bucket: copy the bucket back (README, "Backups"), then run contact-sheet verify.`);
          process.exitCode = 1;
        }
      } catch (error) {
        if (error instanceof BackupError) throw new CommandFailure(error.message);
        throw error;
      }
    });
}
