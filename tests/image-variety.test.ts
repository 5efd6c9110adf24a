// SECURITY.md 10-12 over HTTP: animations with thousands of frames, unusual colour layouts and
// hostile metadata blocks, each uploaded through POST /api/upload, processed by the real worker and
// read back through /media as a browser would. src/images/*.test.ts test the same inputs against
// the image modules alone; this proves the whole path keeps what they promise.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { isWideGamutProfile } from "@/src/images/icc-profile-reader";
import {
  builtInProfile,
  JUNK_METADATA_COLOUR,
  makeAnimation,
  makeJunkMetadataJpegs,
  readStoredPixel,
  solidPng,
  tagPng,
} from "@/src/images/image-test-helpers";
import { type PhotoDetailBody, uploadFiles, type UploadedPhoto, waitForProcessing } from "./helpers/photos";
import { signedInAs, type TestClient } from "./helpers/test-client";

/** Uploads one generated file, waits for processing, and answers the photo with its served variants' bytes. */
async function uploadAndProcess(owner: TestClient, name: string, bytes: Buffer): Promise<{ photo: PhotoDetailBody; served: Map<string, Buffer> }> {
  const response = await uploadFiles(owner, [{ bytes: new Uint8Array(bytes), name }]);
  expect(response.status, `${name}: ${await response.clone().text()}`).toBe(201);
  const [uploaded] = ((await response.json()) as { photos: UploadedPhoto[] }).photos;
  const photo = await waitForProcessing(owner, uploaded.id);
  expect([photo.status, photo.failureReason], name).toEqual(["ready", null]);
  expect(photo.variants.length, name).toBeGreaterThan(0);
  const served = new Map<string, Buffer>();
  for (const variant of photo.variants) {
    const media = await owner.request(variant.url);
    expect(media.status, `${name} ${variant.url}`).toBe(200);
    served.set(`${variant.format}-${variant.width}`, Buffer.from(await media.arrayBuffer()));
  }
  return { photo, served };
}

/** The served variant of this format (the smallest, which every ready photo has). */
function servedOf(served: Map<string, Buffer>, format: "jpeg" | "webp"): Buffer {
  const key = [...served.keys()].find((candidate) => candidate.startsWith(`${format}-`));
  if (!key) throw new Error(`No ${format} variant among ${[...served.keys()].join(", ")}`);
  return served.get(key) as Buffer;
}

function expectClose(actual: number[], expected: readonly number[], tolerance: number, label: string): void {
  expected.forEach((value, channel) => expect(Math.abs(actual[channel] - value), `${label}: channel ${channel} of ${actual}`).toBeLessThanOrEqual(tolerance));
}

describe("animations with thousands of frames (10)", () => {
  it.each(["gif", "webp"] as const)("an animated %s with 2000 frames becomes a still photo of its first frame", async (format) => {
    const { client: owner } = await signedInAs("editor");
    const animation = await makeAnimation(format, 2000);
    expect((await sharp(animation).metadata()).pages).toBe(2000);
    const { photo, served } = await uploadAndProcess(owner, `frames.${format}`, animation);
    expect([photo.width, photo.height]).toEqual([64, 64]);
    for (const [variant, bytes] of served) {
      const metadata = await sharp(bytes, { animated: true }).metadata();
      expect([metadata.width, metadata.height, metadata.pages ?? 1], variant).toEqual([64, 64, 1]);
      expectClose(await readStoredPixel(bytes), [255, 255, 255], 3, variant);
    }
  });
});

describe("colour layouts other than 8-bit sRGB are processed with their colours kept (11)", () => {
  it("CMYK JPEG: served as sRGB that still shows red", async () => {
    const { client: owner } = await signedInAs("editor");
    const cmyk = await sharp(await solidPng([220, 30, 30])).toColourspace("cmyk").jpeg({ quality: 95 }).toBuffer();
    expect((await sharp(cmyk).metadata()).space).toBe("cmyk");
    const { served } = await uploadAndProcess(owner, "cmyk.jpg", cmyk);
    for (const [variant, bytes] of served) {
      expect((await sharp(bytes).metadata()).space, variant).toBe("srgb");
      const [red, green, blue] = await readStoredPixel(bytes);
      expect(red, variant).toBeGreaterThan(180);
      expect(Math.max(green, blue), variant).toBeLessThan(70);
    }
  });

  it("16-bit PNG: served as 8-bit with the same colours", async () => {
    const { client: owner } = await signedInAs("editor");
    const pixels = new Uint16Array(16 * 16 * 3);
    for (let index = 0; index < pixels.length; index += 3) pixels.set(index < pixels.length / 2 ? [65535, 0, 0] : [51400, 25700, 12850], index);
    const png = await sharp(pixels, { raw: { width: 16, height: 16, channels: 3 } }).toColourspace("rgb16").png().toBuffer();
    expect((await sharp(png).metadata()).depth).toBe("ushort");
    const { served } = await uploadAndProcess(owner, "16-bit.png", png);
    for (const [variant, bytes] of served) {
      expect((await sharp(bytes).metadata()).depth, variant).toBe("uchar");
      expectClose(await readStoredPixel(bytes, 8, 2), [255, 0, 0], 8, `${variant} top`);
      expectClose(await readStoredPixel(bytes, 8, 13), [200, 100, 50], 8, `${variant} bottom`);
    }
  });

  it("greyscale PNG: served as the same neutral grey", async () => {
    const { client: owner } = await signedInAs("editor");
    const grey = await sharp(Buffer.alloc(16 * 16, 128), { raw: { width: 16, height: 16, channels: 1 } }).toColourspace("b-w").png().toBuffer();
    const { served } = await uploadAndProcess(owner, "grey.png", grey);
    for (const [variant, bytes] of served) expectClose(await readStoredPixel(bytes), [128, 128, 128], 2, variant);
  });

  it("alpha PNG: the JPEG is flattened onto white, the WebP keeps its transparency", async () => {
    const { client: owner } = await signedInAs("editor");
    // Left half fully transparent blue, right half opaque red.
    const pixels = Buffer.alloc(16 * 16 * 4);
    for (let y = 0; y < 16; y++) {
      for (let x = 0; x < 16; x++) pixels.set(x < 8 ? [0, 0, 255, 0] : [255, 0, 0, 255], (y * 16 + x) * 4);
    }
    const png = await sharp(pixels, { raw: { width: 16, height: 16, channels: 4 } }).png().toBuffer();
    const { served } = await uploadAndProcess(owner, "alpha.png", png);
    const jpeg = servedOf(served, "jpeg");
    expectClose(await readStoredPixel(jpeg, 1, 8), [255, 255, 255], 3, "JPEG, transparent half");
    expectClose(await readStoredPixel(jpeg, 14, 8), [255, 0, 0], 8, "JPEG, opaque half");
    const webp = servedOf(served, "webp");
    expect((await sharp(webp).metadata()).hasAlpha).toBe(true);
    expect([(await readStoredPixel(webp, 1, 8))[3], (await readStoredPixel(webp, 14, 8))[3]]).toEqual([0, 255]);
  });

  it("Display P3 PNG: served tagged Display P3 with its P3 numbers, not clipped to sRGB", async () => {
    const { client: owner } = await signedInAs("editor");
    const p3Red = tagPng(await solidPng([255, 0, 0]), await builtInProfile("p3"));
    const { served } = await uploadAndProcess(owner, "p3-red.png", p3Red);
    for (const [variant, bytes] of served) {
      expect(isWideGamutProfile((await sharp(bytes).metadata()).icc), variant).toBe(true);
      // Converted to sRGB and then tagged P3, this would store about (234, 51, 35).
      expectClose(await readStoredPixel(bytes), [255, 0, 0], 6, variant);
    }
  });
});

describe("huge or malformed EXIF, XMP and ICC blocks (12)", () => {
  it("processes each photo and serves none of the blocks", async () => {
    const { client: owner } = await signedInAs("editor");
    for (const [name, bytes] of Object.entries(await makeJunkMetadataJpegs())) {
      const { photo, served } = await uploadAndProcess(owner, `${name}.jpg`, bytes);
      expect([photo.width, photo.height], name).toEqual([640, 480]);
      for (const [variant, variantBytes] of served) {
        const metadata = await sharp(variantBytes).metadata();
        expect([metadata.exif, metadata.xmp], `${name} ${variant}`).toEqual([undefined, undefined]);
        expect(variantBytes.toString("latin1"), `${name} ${variant}`).not.toMatch(/JUNK|JunkCam/);
        expectClose(await readStoredPixel(variantBytes), JUNK_METADATA_COLOUR.decoded, 4, `${name} ${variant}`);
      }
    }
  });
});
