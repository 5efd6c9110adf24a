// The rating and colour label a photographer's tool wrote into the file itself (xmp:Rating and
// xmp:Label, as Lightroom writes them) become the photo's when it is processed, like its date; a
// rating or label the owner set by hand outlives processing again (a retry), the file's is only a
// default. The JPEG is written here with ExifTool (exiftool-vendored's script, as the Live Photo
// helper does).
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { uploadFiles, waitForProcessing } from "./helpers/photos";
import { signedInAs, type TestClient } from "./helpers/test-client";
import { openTestDatabase } from "./helpers/test-database";

const EXIFTOOL = path.resolve(import.meta.dirname, "../node_modules/exiftool-vendored.pl/bin/exiftool");

let owner: TestClient;
let other: TestClient;

/** A small JPEG of its own bytes with Lightroom's XMP: `stars` and a colour label. */
async function ratedJpeg(seed: number, stars: number, label: string): Promise<Uint8Array<ArrayBuffer>> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "cs-rated-"));
  try {
    const file = path.join(folder, "rated.jpg");
    fs.writeFileSync(file, await sharp({ create: { width: 48, height: 32, channels: 3, background: { r: seed, g: 80, b: 120 }, noise: { type: "gaussian", mean: 100, sigma: 30 } } }).jpeg().toBuffer());
    // Windows' percentage beside it, as Lightroom on Windows leaves it: 60 must not be read as the stars.
    await promisify(execFile)(EXIFTOOL, ["-q", "-overwrite_original", `-XMP-xmp:Rating=${stars}`, `-XMP-xmp:Label=${label}`, "-XMP-microsoft:RatingPercent=60", file]);
    return new Uint8Array(fs.readFileSync(file));
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

async function uploaded(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const response = await uploadFiles(owner, [{ bytes, name: "rated.jpg" }]);
  expect(response.status, await response.clone().text()).toBe(201);
  const [{ id }] = ((await response.json()) as { photos: Array<{ id: string }> }).photos;
  expect((await waitForProcessing(owner, id)).status).toBe("ready");
  return id;
}

async function notesOf(client: TestClient, id: string): Promise<{ rating: number | null; label: string | null }> {
  const { photo } = (await (await client.request(`/api/photos/${id}`)).json()) as { photo: { rating: number | null; label: string | null } };
  return { rating: photo.rating, label: photo.label };
}

beforeAll(async () => {
  owner = (await signedInAs("editor")).client;
  other = (await signedInAs("editor")).client;
});

describe("a rating and label embedded in the file", () => {
  it("become the photo's when it is processed, for the owner's eyes only", async () => {
    const id = await uploaded(await ratedJpeg(Date.now() % 200, 3, "Green"));
    expect(await notesOf(owner, id)).toEqual({ rating: 3, label: "green" });
    const search = (await (await owner.request(`/api/search?q=${encodeURIComponent("rating:>=3 label:green")}`)).json()) as { photos: Array<{ id: string }> };
    expect(search.photos.map((photo) => photo.id)).toContain(id);
    // Another member sees neither (the metadata policy), nor finds the photo by them.
    await owner.request(`/api/photos/${id}`, { method: "PATCH", body: { json: { visibility: "members" } } });
    expect(await notesOf(other, id)).toEqual({ rating: null, label: null });
  });

  it("give way to the owner's own: a rating and label set by hand outlive processing again", async () => {
    const id = await uploaded(await ratedJpeg((Date.now() + 101) % 200, 5, "Red"));
    const patched = await owner.request(`/api/photos/${id}`, { method: "PATCH", body: { json: { rating: 1, label: null } } });
    expect(patched.status, await patched.clone().text()).toBe(200);
    const db = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
    try {
      await db.updateTable("photos").set({ status: "failed", failure_reason: "A test says so" }).where("id", "=", id).execute();
    } finally {
      await db.destroy();
    }
    const retry = await owner.request(`/api/photos/${id}/retry`, { method: "POST" });
    expect(retry.status, await retry.clone().text()).toBe(202);
    expect((await waitForProcessing(owner, id)).status).toBe("ready");
    expect(await notesOf(owner, id)).toEqual({ rating: 1, label: null });
  });
});
