import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ImportState, ImportStateError } from "./import-state";

const HASH_A = "a".repeat(64);
const HASH_B = "0123456789abcdef".repeat(4);
const PHOTO = "0f8fad5b-d9cb-469f-a165-70867728950e";

let folder: string;
let statePath: string;

beforeEach(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), "cs-import-state-"));
  statePath = path.join(folder, "state.json");
});

afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

describe("ImportState", () => {
  it("remembers files, photo ids (UUIDs or not) and unfinished uploads across a save and a load", () => {
    const state = ImportState.load(statePath, "https://photos.example", "u1");
    state.remember("/p/a.jpg", { size: 10, mtimeMs: 1_700_000_000_123.5, sha256: HASH_A, photoId: PHOTO });
    state.remember("/p/b.jpg", { size: 20, mtimeMs: 2, sha256: HASH_B });
    state.remember("/p/c.jpg", { size: 30, mtimeMs: 3, sha256: HASH_A, photoId: "not-a-uuid" });
    state.rememberUpload("fp", { url: "https://photos.example/api/upload/tus/1", size: 10, createdAt: "2026-01-01T00:00:00Z" });
    state.save();

    const again = ImportState.load(statePath, "https://photos.example", "u1");
    expect(again.unchangedHash("/p/a.jpg", 10, 1_700_000_000_123.5)).toBe(HASH_A);
    expect(again.unchangedHash("/p/a.jpg", 11, 1_700_000_000_123.5)).toBeUndefined();
    expect(again.unchangedHash("/p/b.jpg", 20, 2)).toBe(HASH_B);
    expect(again.unfinishedUpload("fp")?.url).toBe("https://photos.example/api/upload/tus/1");
    // Remembering what is already there leaves the file unwritten.
    const written = fs.statSync(statePath).mtimeMs;
    again.remember("/p/a.jpg", { size: 10, mtimeMs: 1_700_000_000_123.5, sha256: HASH_A, photoId: PHOTO });
    again.remember("/p/c.jpg", { size: 30, mtimeMs: 3, sha256: HASH_A, photoId: "not-a-uuid" });
    again.remember("/p/b.jpg", { size: 20, mtimeMs: 2, sha256: HASH_B });
    again.save();
    expect(fs.statSync(statePath).mtimeMs).toBe(written);
  });

  it("writes one line per file and keeps another account's lines as they were", () => {
    const mine = ImportState.load(statePath, "https://photos.example", "u1");
    mine.remember("/p/a.jpg", { size: 1, mtimeMs: 1, sha256: HASH_A });
    mine.save();
    const theirs = ImportState.load(statePath, "https://photos.example", "u2");
    theirs.remember("/p/a.jpg", { size: 2, mtimeMs: 2, sha256: HASH_B });
    theirs.save();
    const lines = fs.readFileSync(statePath, "utf8").trim().split("\n");
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[0])).toEqual({ version: 2 });
    expect(ImportState.load(statePath, "https://photos.example", "u1").unchangedHash("/p/a.jpg", 1, 1)).toBe(HASH_A);
    expect(ImportState.load(statePath, "https://photos.example", "u2").unchangedHash("/p/a.jpg", 2, 2)).toBe(HASH_B);
  });

  it("reads the first version's single JSON document, and writes it back in lines", () => {
    fs.writeFileSync(
      statePath,
      JSON.stringify({ version: 1, accounts: { "https://photos.example u1": { files: { "/p/a.jpg": { size: 5, mtimeMs: 6, sha256: HASH_A, photoId: PHOTO } }, uploads: {} }, "https://other.example u9": { files: { "/q.jpg": { size: 1, mtimeMs: 1, sha256: HASH_B } }, uploads: {} } } }),
    );
    const state = ImportState.load(statePath, "https://photos.example", "u1");
    expect(state.unchangedHash("/p/a.jpg", 5, 6)).toBe(HASH_A);
    state.save();
    expect(fs.readFileSync(statePath, "utf8").split("\n")[0]).toBe('{"version":2}');
    expect(ImportState.load(statePath, "https://other.example", "u9").unchangedHash("/q.jpg", 1, 1)).toBe(HASH_B);
  });

  it("reads back every form a line takes, read without JSON.parse or not, across the reader's 1 MB chunks", () => {
    const state = ImportState.load(statePath, "https://photos.example", "u1");
    const paths = ['/p/"quoted".jpg', "/p/back\\slash.jpg", "/p/tab\tand\u0001.jpg", "/p/日本語 é.jpg", '/p/a","size":9.jpg', "/p/\u2028line.jpg", `/p/${"long".repeat(300_000)}.jpg`];
    const expected = new Map<string, { size: number; mtimeMs: number; sha256: string; photoId?: string }>();
    for (let index = 0; index < 12_000; index += 1) {
      const path = paths[index] ?? `/photos/${index}.jpg`;
      const photoId = index % 3 === 0 ? undefined : index % 3 === 1 ? crypto.randomUUID() : `not-a-uuid-${index}`;
      const file = { size: index * 1000, mtimeMs: 1_700_000_000_000 + index + 0.25, sha256: createHash("sha256").update(path).digest("hex"), ...(photoId && { photoId }) };
      state.remember(path, file);
      expected.set(path, file);
    }
    state.rememberUpload("fp", { url: "https://photos.example/api/upload/tus/1", size: 10, createdAt: "2026-01-01T00:00:00Z" });
    state.save();
    expect(fs.statSync(statePath).size).toBeGreaterThan(3 * 1024 * 1024);

    // Read back through remember: what is there already as it is leaves the state unwritten.
    const again = ImportState.load(statePath, "https://photos.example", "u1");
    for (const [path, file] of expected) {
      expect(again.unchangedHash(path, file.size, file.mtimeMs), path.slice(0, 40)).toBe(file.sha256);
      again.remember(path, file);
    }
    expect(again.unfinishedUpload("fp")?.size).toBe(10);
    const written = fs.statSync(statePath).mtimeMs;
    again.save();
    expect(fs.statSync(statePath).mtimeMs).toBe(written);
  });

  it("keeps nothing of a line whose hash is not a SHA-256, and refuses a file that is not UTF-8", () => {
    const line = (sha256: string) => JSON.stringify({ account: "https://photos.example u1", file: `/p/${sha256.length}${sha256[0]}.jpg`, size: 1, mtimeMs: 2, sha256 });
    fs.writeFileSync(statePath, `{"version":2}\n${line(HASH_A)}\n${line("A".repeat(64))}\n${line("a".repeat(63))}\n${line(`${"a".repeat(63)}g`)}\n`);
    const state = ImportState.load(statePath, "https://photos.example", "u1");
    expect(state.unchangedHash("/p/64a.jpg", 1, 2)).toBe(HASH_A);
    expect(state.unchangedHash("/p/64A.jpg", 1, 2)).toBeUndefined();
    expect(state.unchangedHash("/p/63a.jpg", 1, 2)).toBeUndefined();
    fs.writeFileSync(statePath, Buffer.concat([Buffer.from(`{"version":2}\n${line(HASH_A).slice(0, 60)}`), Buffer.from([0xff, 0xfe]), Buffer.from(`${line(HASH_A).slice(60)}\n`)]));
    expect(() => ImportState.load(statePath, "https://photos.example", "u1")).toThrow(/not UTF-8/);
  });

  it("refuses a file it cannot read, naming it, and leaves it as it is", () => {
    fs.writeFileSync(statePath, '{"version":2}\n{"account":"https://photos.example u1","file":');
    expect(() => ImportState.load(statePath, "https://photos.example", "u1")).toThrow(ImportStateError);
    fs.writeFileSync(statePath, "not json");
    expect(() => ImportState.load(statePath, "https://photos.example", "u1")).toThrow(/cannot be read/);
    fs.writeFileSync(statePath, JSON.stringify({ version: 7 }));
    expect(() => ImportState.load(statePath, "https://photos.example", "u1")).toThrow(/not an import state file/);
    expect(fs.readFileSync(statePath, "utf8")).toBe(JSON.stringify({ version: 7 }));
  });
});
