// Camera RAW files over HTTP (issue 30): uploaded through POST /api/upload, told by content,
// processed by the real worker (embedded preview or LibRaw), the original kept byte for byte for
// its owner. src/images/raw/*.test.ts test the same steps on the image modules alone.
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { writeTestDng } from "@/src/images/raw/dng-test-writer";
import { corpusFile, uploadFiles, type UploadedPhoto, waitForProcessing } from "./helpers/photos";
import { signedInAs, type TestClient } from "./helpers/test-client";

const SOURCE = Buffer.from(corpusFile("exif-samples/jpg/Canon_40D.jpg"));

let owner: TestClient;
let other: TestClient;

beforeAll(async () => {
  ({ client: owner } = await signedInAs("editor"));
  ({ client: other } = await signedInAs("editor"));
});

async function upload(client: TestClient, files: Array<{ bytes: Buffer; name: string }>): Promise<UploadedPhoto[]> {
  const response = await uploadFiles(
    client,
    files.map((file) => ({ bytes: new Uint8Array(file.bytes), name: file.name, type: "application/octet-stream" })),
  );
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { photos: UploadedPhoto[] }).photos;
}

async function download(client: TestClient, url: string): Promise<{ status: number; bytes: Buffer }> {
  const response = await client.request(url);
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe("RAW files are photos", () => {
  it("a DNG with a full-size preview becomes a ready photo, named by content whatever its extension, its original the owner's byte for byte", async () => {
    const dng = await writeTestDng(SOURCE, 640, { previewWidth: 640, make: "Contact Sheet", model: "Preview DNG" });
    // Named .jpg: the type is decided from the bytes.
    const [uploaded] = await upload(owner, [{ bytes: dng, name: "preview-shot.jpg" }]);
    const photo = await waitForProcessing(owner, uploaded.id);
    expect([photo.status, photo.failureReason, photo.width]).toEqual(["ready", null, 640]);
    expect(photo.exif).toMatchObject({ cameraModel: "Preview DNG" });
    const variant = await download(owner, photo.variants[0].url);
    expect(variant.status).toBe(200);
    expect((await sharp(variant.bytes).metadata()).format).toBe("jpeg");

    const original = await download(owner, `/api/photos/${uploaded.id}/original`);
    expect(original.status).toBe(200);
    expect(original.bytes.equals(dng)).toBe(true);
    expect((await other.request(`/api/photos/${uploaded.id}/original`)).status).not.toBe(200);
  });

  it("a DNG without a preview is decoded by LibRaw, in colour (read as a plain TIFF, its mosaic would be grey)", async () => {
    const half = await sharp({ create: { width: 160, height: 200, channels: 3, background: "#2040d0" } }).png().toBuffer();
    const redBlue = await sharp({ create: { width: 320, height: 200, channels: 3, background: "#d03020" } }).composite([{ input: half, left: 160, top: 0 }]).png().toBuffer();
    const dng = await writeTestDng(redBlue, 320, { model: "Mosaic DNG" });
    const [uploaded] = await upload(owner, [{ bytes: dng, name: "mosaic.dng" }]);
    const photo = await waitForProcessing(owner, uploaded.id);
    expect([photo.status, photo.failureReason, photo.width, photo.height]).toEqual(["ready", null, 320, 200]);
    expect(photo.exif).toMatchObject({ cameraModel: "Mosaic DNG" });
    const variant = await download(owner, photo.variants[0].url);
    const { width = 0, height = 0 } = await sharp(variant.bytes).metadata();
    // stats() reads its input, not the pipeline's output: the band is cut out first.
    const band = async (left: number) => {
      const cut = await sharp(variant.bytes).extract({ left, top: 0, width: Math.floor(width / 4), height }).png().toBuffer();
      return (await sharp(cut).stats()).channels.map((channel) => channel.mean);
    };
    const [leftRed, leftGreen, leftBlue] = await band(Math.floor(width / 16));
    const [rightRed, rightGreen, rightBlue] = await band(Math.floor((width * 11) / 16));
    expect(leftRed).toBeGreaterThan(Math.max(leftGreen, leftBlue) + 60);
    expect(rightBlue).toBeGreaterThan(Math.max(rightRed, rightGreen) + 60);
  });

  it("a RAW LibRaw cannot decode is kept and marked failed with LibRaw's reason, with no variants", async () => {
    const dng = await writeTestDng(SOURCE, 320, { truncateMosaicBy: 60_000 });
    const [uploaded] = await upload(owner, [{ bytes: dng, name: "cut-short.dng" }]);
    const photo = await waitForProcessing(owner, uploaded.id);
    expect(photo.status).toBe("failed");
    expect(photo.failureReason).toMatch(/^The RAW file could not be decoded by LibRaw: .*end of file/);
    expect(photo.variants).toEqual([]);
    // The owner still has the file they uploaded.
    expect((await download(owner, `/api/photos/${uploaded.id}/original`)).bytes.equals(dng)).toBe(true);
  });
});

interface PhotoWithName {
  id: string;
  width: number | null;
  exif: Record<string, unknown>;
}

async function photoOf(client: TestClient, id: string): Promise<{ status: number; photo?: PhotoWithName }> {
  const response = await client.request(`/api/photos/${id}`);
  if (response.status !== 200) return { status: response.status };
  return { status: 200, photo: ((await response.json()) as { photo: PhotoWithName }).photo };
}

/** A JPEG and a DNG of one shot (the corpus JPEG's capture time in both), named alike. */
async function shot(name: string): Promise<{ jpeg: { bytes: Buffer; name: string }; raw: { bytes: Buffer; name: string } }> {
  const jpegBytes = await sharp(SOURCE).rotate().resize({ width: 480 }).withExif({ IFD0: { Make: "Canon", ImageDescription: name }, IFD2: { DateTimeOriginal: "2008:05:30 15:56:01" } }).jpeg().toBuffer();
  const rawBytes = await writeTestDng(SOURCE, 320, { takenAt: "2008:05:30 15:56:01", model: `RAW of ${name}` });
  return { jpeg: { bytes: jpegBytes, name: `${name}.JPG` }, raw: { bytes: rawBytes, name: `${name}.DNG` } };
}

describe("RAW+JPEG of one shot become one photo showing the JPEG, the RAW its owner's download", () => {
  async function expectPair(photoId: string, pair: Awaited<ReturnType<typeof shot>>): Promise<void> {
    const { photo } = await photoOf(owner, photoId);
    // The JPEG is the photo (480 wide; the RAW is 320).
    expect(photo?.width ?? (await waitForProcessing(owner, photoId)).width).toBe(480);
    expect((await download(owner, `/api/photos/${photoId}/original`)).bytes.equals(pair.jpeg.bytes)).toBe(true);
    const raw = await download(owner, `/api/photos/${photoId}/raw`);
    expect(raw.status).toBe(200);
    expect(raw.bytes.equals(pair.raw.bytes)).toBe(true);
    expect((await other.request(`/api/photos/${photoId}/raw`)).status).not.toBe(200);
    const detail = (await (await owner.request(`/api/photos/${photoId}`)).json()) as { photo: { rawDownloadUrl: string | null } };
    expect(detail.photo.rawDownloadUrl).toBe(`/api/photos/${photoId}/raw`);
    expect(await (await owner.request(`/p/${photoId}`)).text()).toContain('data-testid="photo-download-raw"');
  }

  it("in one upload, in either order", async () => {
    for (const [index, order] of (["jpeg first", "raw first"] as const).entries()) {
      const pair = await shot(`IMG_010${index}`);
      const files = order === "jpeg first" ? [pair.jpeg, pair.raw] : [pair.raw, pair.jpeg];
      const outcomes = await upload(owner, files);
      expect(outcomes.map((outcome) => outcome.name)).toEqual(files.map((file) => file.name));
      expect(outcomes[0].id, order).toBe(outcomes[1].id);
      await waitForProcessing(owner, outcomes[0].id);
      await expectPair(outcomes[0].id, pair);
    }
  });

  it("in separate uploads, JPEG first: the RAW joins the JPEG's photo", async () => {
    const pair = await shot("IMG_0200");
    const [jpeg] = await upload(owner, [pair.jpeg]);
    await waitForProcessing(owner, jpeg.id);
    const [raw] = await upload(owner, [pair.raw]);
    expect(raw.id).toBe(jpeg.id);
    await expectPair(jpeg.id, pair);
    // The same RAW again is a duplicate of the photo that keeps it.
    const [again] = await upload(owner, [pair.raw]);
    expect([again.id, again.isDuplicate]).toEqual([jpeg.id, true]);
  });

  it("in separate uploads, RAW first: the JPEG's photo takes the RAW over and the RAW's own photo goes", async () => {
    const pair = await shot("IMG_0300");
    const [raw] = await upload(owner, [pair.raw]);
    await waitForProcessing(owner, raw.id);
    const [jpeg] = await upload(owner, [pair.jpeg]);
    expect(jpeg.id).not.toBe(raw.id);
    expect((await photoOf(owner, raw.id)).status).toBe(404);
    await waitForProcessing(owner, jpeg.id);
    await expectPair(jpeg.id, pair);
  });

  it("a RAW whose capture time differs from the JPEG of its name stays a photo of its own", async () => {
    const pair = await shot("IMG_0400");
    const [jpeg] = await upload(owner, [pair.jpeg]);
    await waitForProcessing(owner, jpeg.id);
    // A camera's counter came round again: same name, another day.
    const later = await writeTestDng(SOURCE, 320, { takenAt: "2011:01:02 03:04:05" });
    const [raw] = await upload(owner, [{ bytes: later, name: pair.raw.name }]);
    expect(raw.id).not.toBe(jpeg.id);
    expect((await owner.request(`/api/photos/${jpeg.id}/raw`)).status).toBe(404);
    expect((await waitForProcessing(owner, raw.id)).status).toBe("ready");
  });
});
