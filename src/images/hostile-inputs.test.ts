import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import {
  captureAppError,
  corpusPath,
  createScratchDirectory,
  decodeFile,
  JUNK_METADATA_COLOUR,
  makeAnimation,
  makeJunkMetadataJpegs,
  makePixelBombPng,
  processToVisible,
  TEST_LIMITS,
} from "./image-test-helpers";
import { decodePhoto, type DecodedPhoto } from "./photo-decoder";
import { Deadline } from "./processing-limits";
import { encodeVariants } from "./variant-encoder";

const scratch = createScratchDirectory();
afterAll(() => scratch.remove());

const text = (value: string) => new TextEncoder().encode(value);

describe("content we refuse: 415", () => {
  it.each([
    ["page.html", text("<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>")],
    ["image.svg", text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="alert(1)"/>')],
    ["document.pdf", text("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n")],
    ["program.elf", Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), randomBytes(512)])],
    ["photo.jpg.php", text("<?php system($_GET['c']); ?>")],
  ])("%s", async (name, bytes) => {
    const error = await captureAppError(() => decodeFile(scratch.write(name, bytes)));
    expect([error.code, error.status]).toEqual(["UNSUPPORTED_MEDIA_TYPE", 415]);
  });

  it("never lets libvips parse SVG, even when the type check is bypassed", async () => {
    const svg = scratch.write("sneaky.png", text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'));
    for (const claimed of ["png", "jpeg", "tiff"] as const) {
      const error = await captureAppError(() => decodePhoto(svg, claimed, TEST_LIMITS));
      expect(error.status).toBe(422);
    }
  });
});

describe("files we cannot process: 422", () => {
  it("truncated JPEG", async () => {
    const jpeg = readFileSync(corpusPath("exif-samples/jpg/tests/42_IndexError.jpg"));
    const file = scratch.write("truncated.jpg", jpeg.subarray(0, Math.floor(jpeg.length * 0.6)));
    const error = await captureAppError(() => decodeFile(file));
    expect([error.status, error.message]).toEqual([422, "The image could not be decoded: the file is truncated or corrupt."]);
  });

  it("truncated PNG", async () => {
    const png = await sharp(corpusPath("orientation/Landscape_1.jpg")).png().toBuffer();
    const file = scratch.write("truncated.png", png.subarray(0, Math.floor(png.length * 0.6)));
    const error = await captureAppError(() => decodeFile(file));
    expect([error.status, error.message]).toEqual([422, "The image could not be decoded: the file is truncated or corrupt."]);
  });

  it("a 30000 × 30000 PNG under 1 MB, refused from its header in milliseconds", async () => {
    const bomb = makePixelBombPng();
    expect(bomb.length).toBeLessThan(1_000_000);
    const file = scratch.write("bomb.png", bomb);
    const error = await captureAppError(() => decodeFile(file));
    expect([error.status, error.message]).toEqual([
      422,
      "The image is too large: 30000 × 30000 pixels is above the 120-megapixel limit.",
    ]);
  });

  it("a JPEG whose header claims more pixels than it has", async () => {
    const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#808080" } }).jpeg().toBuffer();
    const frameHeader = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    expect(frameHeader).toBeGreaterThan(0);
    const claimSize = (side: number) => {
      const lying = Buffer.from(jpeg);
      lying.writeUInt16BE(side, frameHeader + 5);
      lying.writeUInt16BE(side, frameHeader + 7);
      return scratch.write(`lying-${side}.jpg`, lying);
    };

    // Above the limit: refused from the header.
    const error = await captureAppError(() => decodeFile(claimSize(65_000)));
    expect([error.status, error.message]).toEqual([422, "The image is too large: 65000 × 65000 pixels is above the 120-megapixel limit."]);

    // Within the limit, libjpeg pads the missing data with grey and only warns; we decode with
    // failOn "error" so that photos with harmless warnings are accepted, and the cost of such a
    // file stays bounded by the pixel limit and the timeout.
    const { decoded } = await processToVisible(claimSize(4_000));
    expect([decoded.width, decoded.height]).toEqual([4_000, 4_000]);
  }, 20_000);

  it("accepts a JPEG whose only fault is a harmless decoder warning", async () => {
    const jpeg = readFileSync(corpusPath("exif-samples/jpg/exif-org/nikon-e950.jpg"));
    const quantisationTables = jpeg.indexOf(Buffer.from([0xff, 0xdb]));
    // "Corrupt JPEG data: 4 extraneous bytes before marker 0xdb", common in files from old cameras.
    const padded = Buffer.concat([jpeg.subarray(0, quantisationTables), Buffer.alloc(4), jpeg.subarray(quantisationTables)]);
    const { decoded } = await processToVisible(scratch.write("extraneous-bytes.jpg", padded));
    expect([decoded.width, decoded.height]).toEqual([800, 600]);
  });

  it("honours the pixel limit it is given", async () => {
    const file = corpusPath("exif-samples/jpg/exif-org/nikon-e950.jpg"); // 800 × 600
    const error = await captureAppError(() => decodeFile(file, { maxPixels: 400_000, timeoutSeconds: 60 }));
    expect([error.status, error.message]).toEqual([
      422,
      "The image is too large: 800 × 600 pixels is above the 0-megapixel limit.",
    ]);
  });

  it("stops a phase that runs past its time budget", async () => {
    // 3200 px of noise: the AVIF phase (400-1600 px) needs about 3 s on two cores.
    const width = 3200;
    const height = 2400;
    const decoded: DecodedPhoto = {
      pixels: randomBytes(width * height * 3),
      width,
      height,
      channels: 3,
      colourSpace: "srgb",
      type: "jpeg",
      metadata: { exif: { cameraMake: null, cameraModel: null, lens: null, focalLength: null, aperture: null, exposureTime: null, iso: null, takenAt: null }, gps: null },
      originalWidth: width,
      originalHeight: height,
    };
    const error = await captureAppError(() => encodeVariants(decoded, "avif", { ...TEST_LIMITS, timeoutSeconds: 1 }));
    expect([error.status, error.message]).toEqual([422, "Processing the image took longer than 1 seconds."]);
  }, 20_000);
});

describe("files that are processed safely", () => {
  it.each(["gif", "webp"] as const)("an animated %s with 2000 frames costs one frame", async (format) => {
    const file = scratch.write(`frames.${format}`, await makeAnimation(format, 2000));
    expect((await sharp(file).metadata()).pages).toBe(2000);
    const { decoded, variants } = await processToVisible(file);
    expect([decoded.width, decoded.height]).toEqual([64, 64]);
    expect(Array.from(decoded.pixels.subarray(0, 3))).toEqual([255, 255, 255]);
    for (const variant of variants) {
      const metadata = await sharp(variant.bytes).metadata();
      expect([metadata.width, metadata.height, metadata.pages ?? 1]).toEqual([64, 64, 1]);
    }
  }, 20_000);

  it("a JPEG with HTML appended (a polyglot) is served as re-encoded pixels only", async () => {
    const jpeg = readFileSync(corpusPath("exif-samples/jpg/exif-org/nikon-e950.jpg"));
    const file = scratch.write("polyglot.jpg", Buffer.concat([jpeg, text("<html><script>alert(1)</script></html>")]));
    const { variants } = await processToVisible(file);
    for (const variant of variants) expect(variant.bytes.toString("latin1")).not.toContain("<script>");
  });

  it("huge and malformed EXIF, XMP and ICC blocks are survived and stripped", async () => {
    const inputs = await makeJunkMetadataJpegs();
    expect((await sharp(inputs["60 kB EXIF and XMP"]).metadata()).exif?.length).toBeGreaterThan(60_000);
    for (const [name, bytes] of Object.entries(inputs)) {
      const { decoded, variants } = await processToVisible(scratch.write(`${name}.jpg`, bytes));
      expect(decoded.colourSpace, name).toBe("srgb");
      expect(Array.from(decoded.pixels.subarray(0, 3)), name).toEqual(JUNK_METADATA_COLOUR.decoded);
      for (const variant of variants) {
        const metadata = await sharp(variant.bytes).metadata();
        expect([metadata.exif, metadata.xmp], name).toEqual([undefined, undefined]);
        expect(variant.bytes.toString("latin1"), name).not.toMatch(/JUNK|JunkCam/);
      }
    }
  }, 20_000);
});

describe("Deadline", () => {
  it("rounds up for sharp, never to 0 (which would mean no timeout), and expires on time", () => {
    let now = 0;
    const deadline = new Deadline(10, () => now);
    expect(deadline.remainingSeconds()).toBe(10);
    now = 9_200;
    expect(deadline.remainingSeconds()).toBe(1);
    expect(deadline.hasExpired()).toBe(false);
    now = 10_000;
    expect(deadline.hasExpired()).toBe(true);
    expect(deadline.remainingSeconds()).toBe(1);
    expect(() => deadline.assertNotExpired()).toThrow(expect.objectContaining({ status: 422 }));
  });
});
