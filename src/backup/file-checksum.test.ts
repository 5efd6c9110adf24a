import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { copyFileWithChecksumSync } from "./file-checksum";

// The backup's copy of a local file: the bytes, their SHA-256 and size in one pass, a new file only.

const folders: string[] = [];
afterEach(() => folders.splice(0).forEach((folder) => fs.rmSync(folder, { recursive: true, force: true })));

function folder(): string {
  const made = fs.mkdtempSync(path.join(os.tmpdir(), "cs-file-checksum-"));
  folders.push(made);
  return made;
}

describe("copyFileWithChecksumSync", () => {
  it("copies a file of several read chunks and answers its SHA-256 and size", () => {
    const work = folder();
    // 2.5 MiB of varied bytes: three reads of the 1 MiB buffer, the last one short.
    const bytes = Buffer.alloc(2.5 * 1024 * 1024);
    for (let index = 0; index < bytes.length; index += 1) bytes[index] = (index * 31 + (index >> 10)) & 0xff;
    fs.writeFileSync(path.join(work, "source"), bytes);
    const copied = copyFileWithChecksumSync(path.join(work, "source"), path.join(work, "target"));
    expect(copied).toEqual({ sha256: createHash("sha256").update(bytes).digest("hex"), size: bytes.length });
    expect(fs.readFileSync(path.join(work, "target")).equals(bytes)).toBe(true);
  });

  it("copies an empty file", () => {
    const work = folder();
    fs.writeFileSync(path.join(work, "source"), "");
    expect(copyFileWithChecksumSync(path.join(work, "source"), path.join(work, "target"))).toEqual({ sha256: createHash("sha256").digest("hex"), size: 0 });
  });

  it("never overwrites an existing file, and tells a missing source by ENOENT without making the target", () => {
    const work = folder();
    fs.writeFileSync(path.join(work, "source"), "new");
    fs.writeFileSync(path.join(work, "target"), "kept");
    expect(() => copyFileWithChecksumSync(path.join(work, "source"), path.join(work, "target"))).toThrow(expect.objectContaining({ code: "EEXIST" }));
    expect(fs.readFileSync(path.join(work, "target"), "utf8")).toBe("kept");
    expect(() => copyFileWithChecksumSync(path.join(work, "gone"), path.join(work, "other"))).toThrow(expect.objectContaining({ code: "ENOENT" }));
    expect(fs.existsSync(path.join(work, "other"))).toBe(false);
  });

  it("refuses a source that is a symbolic link (the storage resolved every link before)", () => {
    const work = folder();
    fs.writeFileSync(path.join(work, "real"), "bytes");
    fs.symlinkSync(path.join(work, "real"), path.join(work, "link"));
    expect(() => copyFileWithChecksumSync(path.join(work, "link"), path.join(work, "target"))).toThrow(expect.objectContaining({ code: "ELOOP" }));
  });
});
