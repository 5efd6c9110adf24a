import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * A PostgreSQL cluster of the bench's own (initdb + pg_ctl on a free port), so the fault row may
 * restart it under load: the shared server other people's tests use is never touched.
 */
export interface BenchPostgres {
  /** The bench's database in this cluster. */
  databaseUrl: string;
  port: number;
  /** `pg_ctl stop -m fast`: every connection is cut, as a failover or a package upgrade does. */
  pause(): void;
  /** Starts it again on the same data and port. */
  resume(): void;
  stop(): void;
}

function findPostgresBinaries(): string {
  const root = "/usr/lib/postgresql";
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((left, right) => Number(right) - Number(left)) : [];
  for (const version of versions) {
    const directory = path.join(root, version, "bin");
    if (fs.existsSync(path.join(directory, "pg_ctl"))) return directory;
  }
  throw new Error("bench:load starts a PostgreSQL cluster of its own and needs initdb and pg_ctl (Debian: apt-get install -y postgresql).");
}

/** PostgreSQL refuses to run as root: as root, its commands run as the `postgres` user. */
function asClusterOwner(command: string, args: string[]): void {
  const isRoot = process.getuid?.() === 0;
  const [file, fileArgs] = isRoot ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
  execFileSync(file, fileArgs, { stdio: ["ignore", "ignore", "inherit"] });
}

export function startBenchPostgres(port: number): BenchPostgres {
  const bin = findPostgresBinaries();
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "contact-sheet-load-pg-"));
  if (process.getuid?.() === 0) execFileSync("chown", ["postgres:postgres", directory]);
  const dataDirectory = path.join(directory, "data");
  const logFile = path.join(directory, "postgres.log");
  asClusterOwner(path.join(bin, "initdb"), ["-D", dataDirectory, "-A", "trust", "-U", "postgres", "--no-sync"]);
  // Enough connections for two instances' pools, the worker's and the bench's own, and no fsync:
  // the bench measures the app, not this disk.
  const options = `-c port=${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${directory} -c max_connections=200 -c fsync=off -c synchronous_commit=off`;
  const pgCtl = (...args: string[]) => asClusterOwner(path.join(bin, "pg_ctl"), ["-D", dataDirectory, "-l", logFile, "-w", "-o", options, ...args]);
  pgCtl("start");
  execFileSync(path.join(bin, "createdb"), ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "bench"]);
  return {
    databaseUrl: `postgres://postgres@127.0.0.1:${port}/bench`,
    port,
    pause: () => pgCtl("stop", "-m", "fast"),
    resume: () => pgCtl("start"),
    stop: () => {
      try {
        pgCtl("stop", "-m", "immediate");
      } finally {
        fs.rmSync(directory, { recursive: true, force: true });
      }
    },
  };
}
