import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { removeAbandonedTusUploads } from "./tus-upload-expiry";

const HOUR = 60 * 60 * 1000;
let directory: string;

beforeEach(async () => {
  directory = await fs.mkdtemp(path.join(os.tmpdir(), "tus-expiry-"));
});
afterEach(async () => {
  await fs.rm(directory, { recursive: true, force: true });
});

async function writeAged(name: string, ageMs: number, now: number): Promise<void> {
  const file = path.join(directory, name);
  await fs.writeFile(file, "x");
  const time = new Date(now - ageMs);
  await fs.utimes(file, time, time);
}

describe("removeAbandonedTusUploads", () => {
  it("removes uploads last written before the cut-off, with their metadata, and keeps moving ones", async () => {
    const now = Date.now();
    await writeAged("old", 25 * HOUR, now);
    await writeAged("old.json", 25 * HOUR, now);
    await writeAged("slow", 1 * HOUR, now);
    await writeAged("slow.json", 30 * HOUR, now);
    await writeAged("orphan.json", 48 * HOUR, now);

    const removed = await removeAbandonedTusUploads(directory, 24 * HOUR, now);

    expect(removed.sort()).toEqual(["old", "orphan"]);
    expect((await fs.readdir(directory)).sort()).toEqual(["slow", "slow.json"]);
  });

  it("answers nothing when the folder does not exist yet", async () => {
    expect(await removeAbandonedTusUploads(path.join(directory, "missing"), HOUR)).toEqual([]);
  });
});
