import { spawn } from "node:child_process";
import { BackupError } from "./backup-error";

/**
 * pg_dump and pg_restore, run with the connection's password in the environment rather than on the
 * command line (where `ps` would show it to every user of the machine).
 */
export function connectionArguments(databaseUrl: string): { dbname: string; env: Record<string, string> } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = "";
  return { dbname: url.toString(), env: password ? { PGPASSWORD: password } : {} };
}

/** The major version a PostgreSQL tool reports (`pg_dump (PostgreSQL) 15.18 (Debian …)` is 15). */
export function majorVersionOf(versionLine: string): number | null {
  const match = /\(PostgreSQL\)\s+(\d+)/.exec(versionLine);
  return match ? Number(match[1]) : null;
}

/** Runs a PostgreSQL tool to its end; a failure names the tool and what it printed. */
export function runPostgresTool(toolPath: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(toolPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new BackupError(
          error.code === "ENOENT"
            ? `${toolPath} was not found. Install PostgreSQL's client tools (Debian/Ubuntu: apt-get install postgresql-client) or set PG_DUMP_PATH and PG_RESTORE_PATH.`
            : `${toolPath} could not be started: ${error.message}`,
        ),
      ),
    );
    child.once("exit", (code, signal) => {
      if (code === 0) resolve(stdout);
      else reject(new BackupError(`${toolPath} failed (${signal ?? `exit code ${code}`}): ${stderr.trim() || stdout.trim()}`));
    });
  });
}

/**
 * Refuses a tool older than the server: pg_dump cannot dump a newer server, and pg_restore cannot
 * read a dump from a newer pg_dump.
 */
export async function assertToolMatchesServer(toolPath: string, serverMajor: number): Promise<void> {
  const versionLine = await runPostgresTool(toolPath, ["--version"]);
  const toolMajor = majorVersionOf(versionLine);
  if (toolMajor === null) throw new BackupError(`Could not tell ${toolPath}'s version from "${versionLine.trim()}".`);
  if (toolMajor < serverMajor) {
    throw new BackupError(
      `${toolPath} is PostgreSQL ${toolMajor}, the server is PostgreSQL ${serverMajor}: install postgresql-client-${serverMajor} ` +
        `(https://www.postgresql.org/download/) and point PG_DUMP_PATH and PG_RESTORE_PATH at it.`,
    );
  }
}
