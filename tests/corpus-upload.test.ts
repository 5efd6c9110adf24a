import fs from "node:fs";
import path from "node:path";
import exifr from "exifr";
import sharp from "sharp";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { cleanText } from "@/src/images/photo-metadata-reader";
import { meanAbsoluteDifference, renderGreyThumbnail } from "@/src/images/image-test-helpers";
import { CORPUS, listFiles, type PhotoDetailBody, uploadFiles, type UploadedPhoto, waitForProcessing } from "./helpers/photos";
import { signedInAs, type TestClient } from "./helpers/test-client";
import { openTestDatabase } from "./helpers/test-database";

// The whole shared corpus through the real upload API and worker, as an editor would send it: every
// file is processed (right size, variants served, camera named, upright, no GPS in any served byte)
// or refused with 415/422 and leaves no photo behind. The image modules' own tests go deeper per
// file (src/images/*.test.ts); this proves the path from HTTP to /media.

// The camera corpus (exif-samples, orientation). Immich's test assets beside it are decoded file by
// file in src/images/corpus-processing.test.ts; sending their 18 MB through HTTP and the worker on
// both databases again would add minutes to CI and prove no other path.
// On PostgreSQL + S3 the run also leaves out the two folders whose decoding costs the most CPU
// and is the same code on either database (about half the corpus's processing time, measured):
// the 18 orientation renders of orientation/ (exif-samples' 16 orientation files still go through S3) and the
// phones' HEIFs (IMG_5195.HEIC still does). What differs there, the database's text columns and
// the store, every other camera file still goes through.
const databaseKind = inject("databaseKind");
const SQLITE_ONLY = ["orientation/", "exif-samples/heic/mobile/"];
const files = listFiles(CORPUS).filter((file) => !file.startsWith("immich-test-assets/") && (databaseKind === "sqlite" || !SQLITE_ONLY.some((folder) => file.startsWith(folder))));
// The same threshold as src/images/orientation.test.ts: upright outputs differ from the `_1`
// reference by at most about 1 (of 255), the nearest wrong orientation by at least 29.
const UPRIGHT_THRESHOLD = 12;

interface Outcome {
  status: number;
  photo?: UploadedPhoto;
  detail?: PhotoDetailBody;
  message?: string;
}

let client: TestClient;
const outcomes = new Map<string, Outcome>();

beforeAll(async () => {
  ({ client } = await signedInAs("editor"));
  for (const file of files) {
    const response = await uploadFiles(client, [{ bytes: new Uint8Array(fs.readFileSync(path.join(CORPUS, file))), name: path.basename(file) }]);
    const body = (await response.json()) as { photos?: UploadedPhoto[]; error?: { message: string } };
    outcomes.set(file, { status: response.status, photo: body.photos?.[0], message: body.error?.message });
  }
  for (const outcome of outcomes.values()) {
    if (outcome.photo) outcome.detail = await waitForProcessing(client, outcome.photo.id, 180_000);
  }
}, 600_000);

async function fetchVariant(url: string): Promise<Buffer> {
  const response = await client.request(url);
  expect(response.status, url).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

function smallestJpegOf(detail: PhotoDetailBody): PhotoDetailBody["variants"][number] {
  return detail.variants.filter((variant) => variant.format === "jpeg").sort((a, b) => a.width - b.width)[0];
}

/** The photo once its last phase (AVIF) is listed, so that every variant it will have is served. */
async function waitForAvif(id: string): Promise<PhotoDetailBody> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const photo = await waitForProcessing(client, id);
    if (photo.variants.some((variant) => variant.format === "avif")) return photo;
    if (Date.now() > deadline) throw new Error(`Photo ${id} has no AVIF variants yet`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

describe("the whole corpus through POST /api/upload", () => {
  it("processes every file or refuses it with 415/422 (only the text files and the truncated JPEG), never anything else", () => {
    expect(files.length).toBeGreaterThanOrEqual(databaseKind === "sqlite" ? 120 : 80);
    const refused = [...outcomes].filter(([, outcome]) => outcome.status !== 201).map(([file, outcome]) => `${outcome.status} ${file}`);
    expect(refused.sort()).toEqual(["415 README.md", ...(databaseKind === "sqlite" ? ["415 orientation/LICENSE"] : []), "422 exif-samples/jpg/corrupted.jpg"]);
    for (const [file, outcome] of outcomes) {
      if (outcome.status !== 201) expect(outcome.message, file).toMatch(/not a photo we can read|truncated or corrupt/);
    }
  });

  it("leaves one photo per distinct accepted file, each ready at its upright size with served variants", async () => {
    const accepted = [...outcomes].filter(([, outcome]) => outcome.status === 201);
    const ids = new Set(accepted.map(([, outcome]) => outcome.photo?.id));
    const listed = await client.request("/api/photos?owner=me&limit=100");
    const pages = [(await listed.json()) as { photos: Array<{ id: string }>; nextCursor: string | null }];
    while (pages.at(-1)?.nextCursor) {
      const next = await client.request(`/api/photos?owner=me&limit=100&cursor=${encodeURIComponent(pages.at(-1)?.nextCursor ?? "")}`);
      pages.push((await next.json()) as (typeof pages)[number]);
    }
    expect(new Set(pages.flatMap((page) => page.photos.map((photo) => photo.id)))).toEqual(ids);

    for (const [file, outcome] of accepted) {
      const detail = outcome.detail as PhotoDetailBody;
      expect(detail.status, `${file}: ${detail.failureReason}`).toBe("ready");
      const header = await sharp(path.join(CORPUS, file), { failOn: "none" }).metadata();
      // HEIF's own rotation is applied by libheif; sharp's header reports the stored size there.
      if (header.format !== "heif") expect([detail.width, detail.height], file).toEqual([header.autoOrient.width, header.autoOrient.height]);
      const smallest = smallestJpegOf(detail);
      const served = await sharp(await fetchVariant(smallest.url)).metadata();
      expect([served.format, served.width, served.height], file).toEqual(["jpeg", smallest.width, smallest.height]);
    }
  }, 300_000);

  it("names the camera of every camera file as its EXIF does", async () => {
    const cameraFiles = files.filter((file) => /^exif-samples\/jpg\/[^/]+\.jpg$/.test(file) && file !== "exif-samples/jpg/corrupted.jpg");
    let named = 0;
    for (const file of cameraFiles) {
      const tags = (await exifr.parse(path.join(CORPUS, file), ["Make", "Model"]).catch(() => null)) as { Make?: string; Model?: string } | null;
      const { exif } = outcomes.get(file)?.detail as PhotoDetailBody;
      expect(exif.cameraModel, file).toBe(cleanText(tags?.Model));
      expect(exif.cameraMake, file).toBe(cleanText(tags?.Make));
      if (exif.cameraModel) named += 1;
    }
    expect(named).toBeGreaterThanOrEqual(15);
  }, 60_000);

  it("turns every orientation file upright (its smallest variant shows what the _1 file shows)", async () => {
    const orientationFiles = files.filter((file) => /orientation\/[^/]+_\d\.jpg$/.test(file));
    expect(orientationFiles).toHaveLength(databaseKind === "sqlite" ? 34 : 16);
    for (const file of orientationFiles) {
      const reference = file.replace(/_\d\.jpg$/, "_1.jpg");
      const output = await fetchVariant(smallestJpegOf(outcomes.get(file)?.detail as PhotoDetailBody).url);
      const expected = await fetchVariant(smallestJpegOf(outcomes.get(reference)?.detail as PhotoDetailBody).url);
      const difference = meanAbsoluteDifference(await renderGreyThumbnail(output), await renderGreyThumbnail(expected));
      expect(difference, file).toBeLessThan(UPRIGHT_THRESHOLD);
    }
  }, 120_000);

  it("serves no GPS (nor any EXIF) in any variant of the GPS files, while the owner still sees the location", async () => {
    const gpsFiles = files.filter((file) => file.startsWith("exif-samples/jpg/gps/"));
    expect(gpsFiles).toHaveLength(9);
    let located = 0;
    for (const file of gpsFiles) {
      const detail = await waitForAvif(outcomes.get(file)?.photo?.id as string);
      if (detail.location) located += 1;
      for (const variant of detail.variants) {
        const bytes = await fetchVariant(variant.url);
        expect(await exifr.gps(bytes).catch(() => undefined), `${file} ${variant.url}`).toBeUndefined();
        expect((await sharp(bytes).metadata()).exif, `${file} ${variant.url}`).toBeUndefined();
      }
    }
    expect(located).toBeGreaterThanOrEqual(5);
  }, 300_000);

  // Last, and so the next test files need not share the CPU with this file's backlog.
  it("finishes every phase of every accepted file without a failure", async () => {
    await waitForIdleQueue();
    for (const [file, outcome] of outcomes) {
      if (!outcome.photo) continue;
      const photo = await waitForProcessing(client, outcome.photo.id);
      expect(photo.status, `${file}: ${photo.failureReason}`).toBe("ready");
    }
  }, 660_000);
});

/** Waits until the shared server's job queue is empty (at most ten minutes). */
async function waitForIdleQueue(): Promise<void> {
  const db = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
  try {
    const deadline = Date.now() + 600_000;
    for (;;) {
      const pending = await db.selectFrom("jobs").select("id").where("status", "in", ["queued", "running"]).limit(1).execute();
      if (pending.length === 0 || Date.now() > deadline) return;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  } finally {
    await db.destroy();
  }
}
