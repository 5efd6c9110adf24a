import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { getEnv } from "@/src/config/env";
import { isProcessRunning } from "./process-liveness";

/**
 * Temporary files (uploads arriving, originals copied out of S3, writes about to be renamed into
 * place) carry their writer's process id and host in their name, `<pid>.<random>.<host>.<suffix>`,
 * so that after a crash or a SIGKILL the next start can tell which leftovers nobody will finish.
 */
const OWNED_NAME = /^(\d+)\.[0-9a-f-]{36}\.(.+)\.[a-z]+$/;

/**
 * A leftover whose writer is not known to be gone (another host on a shared volume, or a name from
 * before this scheme) is removed only once it is this old: its writer may still be at work.
 */
export const STALE_TEMPORARY_FILE_MS = 60 * 60 * 1000;

/** Where files wait while they are worked on: uploads arriving, originals copied out of S3. */
export function getTemporaryDirectory(): string {
  return path.join(getEnv().dataDirectory, "tmp");
}

/** When this process started: a file named with our own pid but older than this is a past life's. */
const processStartedAt = Date.now() - process.uptime() * 1000;

/** A new temporary file name owned by this process; `suffix` says what it holds (letters only). */
export function ownedTemporaryName(suffix: string): string {
  return `${process.pid}.${randomUUID()}.${os.hostname()}.${suffix}`;
}

/** Runs `work` with a path for a new temporary file of this process, removed afterwards whatever happens. */
export async function withTemporaryFile<T>(suffix: string, work: (filePath: string) => Promise<T>): Promise<T> {
  const directory = getTemporaryDirectory();
  await fs.mkdir(directory, { recursive: true });
  const filePath = path.join(directory, ownedTemporaryName(suffix));
  try {
    return await work(filePath);
  } finally {
    await fs.rm(filePath, { force: true });
  }
}

/**
 * Removes the files in `directory` that no running process will finish: those whose writer on this
 * host has exited, and any older than STALE_TEMPORARY_FILE_MS. Subdirectories are left alone (tus
 * keeps resumable uploads in one, with its own expiry). Returns how many files it removed.
 */
export async function removeAbandonedTemporaryFiles(directory: string): Promise<number> {
  const staleBefore = Date.now() - STALE_TEMPORARY_FILE_MS;
  let removed = 0;
  const names = await fs.readdir(directory).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  });
  for (const name of names) {
    const filePath = path.join(directory, name);
    const stats = await fs.lstat(filePath).catch(() => null); // gone while we looked: nothing to do
    if (!stats?.isFile()) continue;
    if (isAbandoned(name, stats.mtimeMs) || stats.mtimeMs < staleBefore) {
      await fs.rm(filePath, { force: true });
      removed += 1;
    }
  }
  return removed;
}

function isAbandoned(name: string, modifiedAt: number): boolean {
  const owner = OWNED_NAME.exec(name);
  if (!owner || owner[2] !== os.hostname()) return false;
  const pid = Number(owner[1]);
  // In a container the server is often pid 1 on every start, so our own pid proves nothing by itself.
  if (pid === process.pid) return modifiedAt < processStartedAt;
  return !isProcessRunning(pid);
}
