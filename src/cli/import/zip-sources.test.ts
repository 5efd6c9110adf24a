import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import { afterEach, describe, expect, it } from "vitest";
import { handMadeZip } from "../../../tests/helpers/hand-made-zip";
import { listZipSources, unsafeZipEntryName } from "./zip-sources";

describe("unsafeZipEntryName", () => {
  it.each(["../evil.jpg", "a/../../evil.jpg", "a\\..\\evil.jpg", "/etc/evil.jpg", "C:/evil.jpg", "a\0.jpg"])("refuses %j", (name) => {
    expect(unsafeZipEntryName(name)).not.toBeNull();
  });

  it.each(["photo.jpg", "Takeout/Google Photos/2019/IMG_1.jpg", "a..b.jpg", "..hidden.jpg"])("takes %j", (name) => {
    expect(unsafeZipEntryName(name)).toBeNull();
  });
});

describe("listZipSources", () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
  });

  function writeZip(entries: Parameters<typeof handMadeZip>[0]): string {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "cs-zip-"));
    folders.push(folder);
    const zipPath = path.join(folder, "Holiday.zip");
    fs.writeFileSync(zipPath, handMadeZip(entries));
    return zipPath;
  }

  it("lists the photos in place with their folders, and refuses ../ names, bombs and other types with why", async () => {
    const zipPath = writeZip([
      { name: "Day 1/a.jpg", bytes: Buffer.from("photo a") },
      { name: "../evil.jpg", bytes: Buffer.from("x") },
      { name: "notes.txt", bytes: Buffer.from("x") },
      { name: "bomb.jpg", bytes: Buffer.alloc(200_000), deflate: true },
    ]);
    const listing = await listZipSources(zipPath, 1_000_000, ["Trips"]);
    try {
      expect(listing.sources.map((source) => [source.name, source.folders, source.size])).toEqual([["a.jpg", ["Trips", "Holiday", "Day 1"], 7]]);
      expect(listing.skipped.map((skipped) => [skipped.path.split("!/")[1], skipped.reason.split(" (")[0].split(":")[0]])).toEqual([
        ["../evil.jpg", "refused"],
        ["notes.txt", "unsupported type"],
        ["bomb.jpg", "refused"],
      ]);
      const bytes = await buffer(await listing.sources[0].open());
      expect(bytes.toString()).toBe("photo a");
    } finally {
      listing.close();
    }
  });

  it("stops an entry whose header lies about its size as it inflates, past the declared size, and says why", async () => {
    // 16 MB of zeros deflate to 16 KB: under the 100x rule for what it claims (1,000 bytes), so only counting can catch it.
    const zipPath = writeZip([
      { name: "liar.jpg", bytes: Buffer.alloc(16 * 1024 * 1024), deflate: true, declaredSize: 1000 },
      { name: "short.jpg", bytes: randomBytes(500), deflate: true, declaredSize: 1000 },
      { name: "honest.jpg", bytes: randomBytes(5000), deflate: true },
    ]);
    const listing = await listZipSources(zipPath, 100_000_000);
    try {
      expect(listing.sources.map((source) => source.name)).toEqual(["liar.jpg", "short.jpg", "honest.jpg"]);
      let bytesOut = 0;
      const liar = await listing.sources[0].open();
      await expect(
        (async () => {
          for await (const chunk of liar as AsyncIterable<Buffer>) bytesOut += chunk.length;
        })(),
      ).rejects.toThrow(/^refused: it inflates past the 1000 bytes its zip header declares \(a zip bomb\?\)/);
      expect(bytesOut).toBeLessThanOrEqual(1000);
      await expect(buffer(await listing.sources[1].open())).rejects.toThrow(/ends after 500 of the 1000 bytes/);
      // The zip goes on being read after both.
      expect((await buffer(await listing.sources[2].open())).length).toBe(5000);
    } finally {
      listing.close();
    }
  });
});
