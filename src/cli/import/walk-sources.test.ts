import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { walkSources } from "./walk-sources";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "cs-walk-"));
  folders.push(root);
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), content);
  }
  return root;
}

describe("walkSources", () => {
  it("walks folders in name order with their folder path, and skips hidden, unsupported, empty and oversized files with why", async () => {
    const root = tree({
      "Trips/b.jpg": "bb",
      "Trips/Rome/a.JPG": "a",
      "Trips/.hidden/c.jpg": "c",
      "Trips/.DS_Store": "x",
      "Trips/notes.txt": "x",
      "Trips/empty.jpg": "",
      "Trips/huge.jpg": "0123456789",
    });
    const walked = await walkSources([path.join(root, "Trips")], { maxFileBytes: 5 });
    expect(walked.sources.map((source) => [path.relative(root, source.key), source.folders, source.size])).toEqual([
      ["Trips/Rome/a.JPG", ["Trips", "Rome"], 1],
      ["Trips/b.jpg", ["Trips"], 2],
    ]);
    expect(walked.skipped.map((skipped) => [path.relative(root, skipped.path), skipped.reason])).toEqual([
      ["Trips/.DS_Store", "hidden file"],
      ["Trips/.hidden", "hidden file"],
      ["Trips/empty.jpg", "empty file"],
      ["Trips/huge.jpg", "larger than the server takes (10 bytes)"],
      ["Trips/notes.txt", "unsupported type (.txt)"],
    ]);
  });

  it("survives a symbolic link loop and a missing path, telling both", async () => {
    const root = tree({ "A/a.jpg": "a" });
    fs.symlinkSync(path.join(root, "A"), path.join(root, "A", "loop"));
    const walked = await walkSources([path.join(root, "A"), path.join(root, "missing")], { maxFileBytes: 100 });
    expect(walked.sources.map((source) => path.relative(root, source.key))).toEqual(["A/a.jpg"]);
    expect(walked.skipped.map((skipped) => [path.relative(root, skipped.path), skipped.reason.split(" (")[0]])).toEqual([
      ["A/loop", "a folder already walked"],
      ["missing", "not found"],
    ]);
  });
});
