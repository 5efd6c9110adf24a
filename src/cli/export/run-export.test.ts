import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ExportPhoto } from "@/src/export/export-api.schemas";
import type { FileOutcome, ImportReporter } from "../import/import-report";
import { SiteApi, SiteApiError } from "../import/site-api";
import { ExportDirectoryError, runExport } from "./run-export";

// runExport against a stand-in for the site (the real one is in tests/export-round-trip.test.ts):
// the bad input and faults a person meets, each told and none leaving a half-written file.

const folders: string[] = [];
afterEach(() => folders.splice(0).forEach((folder) => fs.rmSync(folder, { recursive: true, force: true })));
const tempFolder = () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "cs-run-export-"));
  folders.push(folder);
  return folder;
};

function photoOf(id: string, bytes: Buffer): ExportPhoto {
  return {
    id,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    originalName: `${id}.jpg`,
    originalType: "image/jpeg",
    originalSize: bytes.length,
    mediaKind: "photo",
    status: "ready",
    ownerEmail: "owner@example.test",
    title: "",
    caption: "",
    altText: "",
    takenAt: "2021-06-01T10:00",
    uploadedAt: "2024-01-01T00:00:00.000Z",
    location: null,
    showLocation: false,
    place: null,
    visibility: "private",
    rating: 0,
    label: null,
    allowDownload: null,
    rotation: 0,
    tags: [],
    albums: [],
  };
}

/** A site holding these originals; `failing` ids answer 500 until taken out of the set. */
function fakeSite(originals: Record<string, Buffer>, failing: Set<string>, refuse = false): SiteApi {
  const api = new SiteApi("http://127.0.0.1:9", "cs_test");
  const photos = Object.entries(originals).map(([id, bytes]) => photoOf(id, bytes));
  const fetched: string[] = [];
  return Object.assign(api, {
    fetched,
    exportPhotos: () => (refuse ? Promise.reject(SiteApiError.from(401, '{"error":{"message":"Sign in"}}', null)) : Promise.resolve({ photos, nextCursor: null })),
    exportAlbums: () => Promise.resolve([]),
    exportShares: () => Promise.resolve([]),
    openOriginal: (id: string) => {
      if (failing.has(id)) return Promise.reject(SiteApiError.from(500, '{"error":{"message":"Something went wrong"}}', null));
      fetched.push(id);
      return Promise.resolve(new Blob([new Uint8Array(originals[id])]).stream());
    },
  });
}

function recordingReporter(): ImportReporter & { files: FileOutcome[] } {
  const files: FileOutcome[] = [];
  return { files, startPhase: () => {}, progress: () => {}, endPhase: () => {}, file: (outcome) => files.push(outcome), note: () => {}, summary: () => {} };
}

describe("runExport", () => {
  it("refuses a folder that is a file, and a token the site refuses, before writing anything", async () => {
    const folder = tempFolder();
    const file = path.join(folder, "a-file");
    fs.writeFileSync(file, "x");
    const api = fakeSite({ a: Buffer.from("a") }, new Set());
    await expect(runExport({ directory: file, api, all: false, concurrency: 2, reporter: recordingReporter() })).rejects.toThrow(ExportDirectoryError);
    const target = path.join(folder, "out");
    await expect(runExport({ directory: target, api: fakeSite({ a: Buffer.from("a") }, new Set(), true), all: false, concurrency: 2, reporter: recordingReporter() })).rejects.toThrow(
      "the token was refused",
    );
    expect(fs.readdirSync(target)).toEqual([]);
  });

  it("goes on past a 500, says which photo failed, and a rerun fetches only that one", async () => {
    const target = path.join(tempFolder(), "out");
    const originals = { a: Buffer.from("first original"), b: Buffer.from("second original"), c: Buffer.from("third original") };
    const failing = new Set(["b"]);
    const api = fakeSite(originals, failing) as SiteApi & { fetched: string[] };
    const reporter = recordingReporter();
    const first = await runExport({ directory: target, api, all: false, concurrency: 2, reporter });
    expect(first).toMatchObject({ exported: 2, failed: 1 });
    expect(reporter.files.find((file) => file.status === "failed")).toMatchObject({ photoId: "b", reason: expect.stringContaining("500") });
    expect(fs.readdirSync(path.join(target, "photos/2021/06")).filter((name) => name.endsWith(".partial"))).toEqual([]);

    failing.clear();
    api.fetched.length = 0;
    const second = await runExport({ directory: target, api, all: false, concurrency: 2, reporter: recordingReporter() });
    expect(second).toMatchObject({ exported: 1, unchanged: 2, failed: 0 });
    expect(api.fetched).toEqual(["b"]);
    expect(fs.readFileSync(path.join(target, "photos/2021/06/b.jpg"))).toEqual(originals.b);
  });

  it("refuses bytes that are not the photo's and leaves no file under its name", async () => {
    const target = path.join(tempFolder(), "out");
    const api = fakeSite({ a: Buffer.from("the real bytes") }, new Set());
    const photo = photoOf("a", Buffer.from("other bytes"));
    Object.assign(api, { exportPhotos: () => Promise.resolve({ photos: [photo], nextCursor: null }) });
    const summary = await runExport({ directory: target, api, all: false, concurrency: 1, reporter: recordingReporter() });
    expect(summary.failed).toBe(1);
    expect(fs.readdirSync(path.join(target, "photos/2021/06"))).toEqual([]);
  });
});
