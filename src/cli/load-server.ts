// The server's modules (database, services), loaded only when a server command runs: every command
// module is loaded to build --help, and `contact-sheet import` runs on a laptop, where it must not
// load (or need) the database drivers, sharp or the services. src/cli/cli-imports.test.ts checks it.
export async function loadServer() {
  const [serverDatabase, users, reprocess, backup, backupFolder, backupStatus, restore, verification, placeBackfill] = await Promise.all([
    import("./server-database"),
    import("@/src/users/users.service"),
    import("@/src/photos/reprocess.service"),
    import("@/src/backup/backup.service"),
    import("@/src/backup/backup-folder"),
    import("@/src/backup/backup-status"),
    import("@/src/backup/restore.service"),
    import("@/src/photos/library-verification.service"),
    import("@/src/photos/place-backfill.job"),
  ]);
  return { ...serverDatabase, users, reprocess, backup, backupFolder, backupStatus, restore, verification, placeBackfill };
}
