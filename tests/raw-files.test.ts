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

  it("a DNG without a preview is decoded by LibRaw", async () => {
    const dng = await writeTestDng(SOURCE, 320, { model: "Mosaic DNG" });
    const [uploaded] = await upload(owner, [{ bytes: dng, name: "mosaic.dng" }]);
    const photo = await waitForProcessing(owner, uploaded.id);
    expect([photo.status, photo.failureReason, photo.width, photo.height]).toEqual(["ready", null, 320, 218]);
    expect(photo.exif).toMatchObject({ cameraModel: "Mosaic DNG" });
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
