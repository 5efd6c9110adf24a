import { spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ownedTemporaryName, removeAbandonedTemporaryFiles, STALE_TEMPORARY_FILE_MS } from "./temporary-files";

let directory: string;

beforeEach(async () => {
  directory = await fs.mkdtemp(path.join(os.tmpdir(), "contact-sheet-temporary-files-"));
});

afterEach(async () => {
  await fs.rm(directory, { recursive: true, force: true });
});

/** The pid of a process that has exited (and, moments later, is not reused). */
function exitedPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(child.stdout.toString());
}

async function write(name: string, modifiedAt = new Date()): Promise<void> {
  await fs.writeFile(path.join(directory, name), "partial");
  await fs.utimes(path.join(directory, name), modifiedAt, modifiedAt);
}

describe("removeAbandonedTemporaryFiles", () => {
  it("removes what an exited process on this host left, and keeps what a live one is writing", async () => {
    const mine = ownedTemporaryName("upload");
    const deadWriters = ownedTemporaryName("upload").replace(/^\d+/, String(exitedPid()));
    await write(mine);
    await write(deadWriters);

    expect(await removeAbandonedTemporaryFiles(directory)).toBe(1);
    expect(await fs.readdir(directory)).toEqual([mine]);
  });

  it("removes a file named with this process's pid that is older than this process (a container restarted as pid 1)", async () => {
    const pastLife = ownedTemporaryName("original");
    await write(pastLife, new Date(Date.now() - process.uptime() * 1000 - 60_000));
    expect(await removeAbandonedTemporaryFiles(directory)).toBe(1);
  });

  it("keeps another host's file until it is stale, and removes any file once it is", async () => {
    const otherHost = `1.${crypto.randomUUID()}.some-other-host.upload`;
    const oldUnknown = "leftover-from-an-older-version.upload";
    await write(otherHost);
    await write(oldUnknown, new Date(Date.now() - STALE_TEMPORARY_FILE_MS - 60_000));

    expect(await removeAbandonedTemporaryFiles(directory)).toBe(1);
    expect(await fs.readdir(directory)).toEqual([otherHost]);
  });

  it("leaves subdirectories alone (tus keeps resumable uploads in one) and accepts a missing directory", async () => {
    await fs.mkdir(path.join(directory, "tus"));
    await fs.utimes(path.join(directory, "tus"), new Date(0), new Date(0));
    expect(await removeAbandonedTemporaryFiles(directory)).toBe(0);
    expect(await fs.readdir(directory)).toEqual(["tus"]);
    expect(await removeAbandonedTemporaryFiles(path.join(directory, "missing"))).toBe(0);
  });
});
