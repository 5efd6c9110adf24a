import { readFileSync } from "node:fs";
import exifr from "exifr";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { decodeHeicInWorker, endsInsideABox } from "./heic-worker-decoder";
import { isWideGamutProfile } from "./icc-profile-reader";
import { captureAppError, corpusPath, createScratchDirectory, decodeFile, TEST_LIMITS } from "./image-test-helpers";
import { Deadline } from "./processing-limits";
import { encodeVariants } from "./variant-encoder";

const scratch = createScratchDirectory();
afterAll(() => scratch.remove());

/**
 * Display size = what libvips reads from the container (libheif applies the rotation property);
 * `exifOrientation` is what the EXIF block claims. Where it is 6, applying it on top of libheif's
 * rotation would turn the portrait iPhone photo into a 4032 × 3024 landscape.
 */
const heicFiles = [
  { file: "exif-samples/heic/mobile/iphone_13_pro_max.HEIC", width: 3024, height: 4032, exifOrientation: 6, colourSpace: "display-p3" },
  { file: "exif-samples/heic/IMG_5195.HEIC", width: 2566, height: 3313, exifOrientation: undefined, colourSpace: "display-p3" },
  { file: "exif-samples/heic/mobile/HMD_Nokia_8.3_5G.heif", width: 3456, height: 4608, exifOrientation: 1, colourSpace: "srgb" },
  { file: "exif-samples/heic/mobile/HMD_Nokia_8.3_5G_hdr.heif", width: 4608, height: 3456, exifOrientation: 1, colourSpace: "srgb" },
  { file: "exif-samples/heic/samplefilehub.heif", width: 640, height: 426, exifOrientation: 1, colourSpace: "srgb" },
] as const;

describe("HEIC/HEIF decoding", () => {
  it.each(heicFiles)("$file decodes upright at $width × $height, once rotated", async (expected) => {
    const file = corpusPath(expected.file);
    const header = await sharp(file).metadata();
    expect([header.compression, header.width, header.height]).toEqual(["hevc", expected.width, expected.height]);
    expect(await exifr.orientation(file).catch(() => undefined)).toBe(expected.exifOrientation);

    const decoded = await decodeFile(file);
    expect([decoded.type, decoded.width, decoded.height, decoded.channels]).toEqual(["heic", expected.width, expected.height, 3]);
    expect(decoded.colourSpace).toBe(expected.colourSpace);

    const [jpeg, webp] = await encodeVariants(decoded, "visible", TEST_LIMITS);
    for (const variant of [jpeg, webp]) {
      expect(variant.width).toBe(400);
      // sharp rounds the other side its own way: within one pixel of the exact aspect ratio.
      expect(Math.abs(variant.height - (400 * expected.height) / expected.width)).toBeLessThan(1);
      const metadata = await sharp(variant.bytes).metadata();
      expect([metadata.width, metadata.height, metadata.orientation]).toEqual([variant.width, variant.height, undefined]);
      expect(isWideGamutProfile(metadata.icc)).toBe(expected.colourSpace === "display-p3");
    }
    // A real picture came out, not a blank decode.
    const { channels } = await sharp(jpeg.bytes).stats();
    expect(channels[0].stdev).toBeGreaterThan(10);
  }, 30_000);

  it("the iPhone photo is not upside down either: its bright window is above the dark tablecloth", async () => {
    // Dimensions above rule out a quarter turn; this rules out a half turn.
    const decoded = await decodeFile(corpusPath("exif-samples/heic/mobile/iphone_13_pro_max.HEIC"));
    const [jpeg] = await encodeVariants(decoded, "visible", TEST_LIMITS);
    const rows = await sharp(jpeg.bytes).greyscale().resize({ width: 3, height: 3, fit: "fill" }).raw().toBuffer();
    const top = rows[0] + rows[1] + rows[2];
    const bottom = rows[6] + rows[7] + rows[8];
    expect(top).toBeGreaterThan(bottom * 1.15);
  }, 30_000);

  it("stops the worker at the deadline instead of waiting for it", async () => {
    const error = await captureAppError(() =>
      decodeFile(corpusPath("exif-samples/heic/mobile/HMD_Nokia_8.3_5G.heif"), { ...TEST_LIMITS, timeoutSeconds: 1 }),
    );
    expect([error.status, error.message]).toEqual([422, "Processing the image took longer than 1 seconds."]);
  }, 30_000);

  it("checks the pixel limit in the worker before decoding", async () => {
    const file = readFileSync(corpusPath("exif-samples/heic/mobile/iphone_13_pro_max.HEIC"));
    const limits = { maxPixels: 1_000_000, timeoutSeconds: 30 };
    const error = await captureAppError(() => decodeHeicInWorker(file, limits, new Deadline(30)));
    expect([error.status, error.message]).toEqual([422, "The image is too large: 3024 × 4032 pixels is above the 1-megapixel limit."]);
  });

  it("tells a truncated HEIF file from a complete one, with or without trailing bytes", () => {
    for (const { file } of heicFiles) expect(endsInsideABox(readFileSync(corpusPath(file))), file).toBe(false);
    const heic = readFileSync(corpusPath("exif-samples/heic/IMG_5195.HEIC"));
    expect(endsInsideABox(heic.subarray(0, heic.length - 1))).toBe(true);
    expect(endsInsideABox(heic.subarray(0, 100))).toBe(true);
    expect(endsInsideABox(Buffer.concat([heic, Buffer.from("<html><script>alert(1)</script></html>")]))).toBe(false);
  });

  it("refuses a truncated HEIC with a 422", async () => {
    const heic = readFileSync(corpusPath("exif-samples/heic/IMG_5195.HEIC"));
    const error = await captureAppError(() => decodeFile(scratch.write("truncated.heic", heic.subarray(0, Math.floor(heic.length / 2)))));
    expect([error.status, error.message]).toEqual([422, "The image could not be decoded: the file is truncated or corrupt."]);
  }, 30_000);
});
