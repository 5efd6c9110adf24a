// The server's modules (database, services), loaded only when a server command runs: every command
// module is loaded to build --help, and `contact-sheet import` runs on a laptop, where it must not
// load (or need) the database drivers, sharp or the services. src/cli/cli-imports.test.ts checks it.
export async function loadServer() {
  const [serverDatabase, users, reprocess] = await Promise.all([
    import("./server-database"),
    import("@/src/users/users.service"),
    import("@/src/photos/reprocess.service"),
  ]);
  return { ...serverDatabase, users, reprocess };
}
