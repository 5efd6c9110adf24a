import { readFileSync } from "node:fs";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detectImageType } from "./image-type-detector";
import {
  corpusPath,
  createScratchDirectory,
  decodeFile,
  meanAbsoluteDifference,
  renderGreyThumbnail,
  TEST_LIMITS,
} from "./image-test-helpers";
import { decodePhoto } from "./photo-decoder";

const scratch = createScratchDirectory();
afterAll(() => scratch.remove());

// An upright 600 × 450 photo, shrunk so that every format encodes quickly.
let reference: Buffer;
beforeAll(async () => {
  reference = await sharp(corpusPath("exif-samples/jpg/orientation/landscape_1.jpg")).resize({ width: 300 }).png().toBuffer();
});

describe("decodePhoto", () => {
  it("decodes a sideways JPEG at most maxWidth wide, upright, and still tells the original's upright size", async () => {
    const upright = await sharp(corpusPath("exif-samples/jpg/orientation/landscape_1.jpg")).png().toBuffer();
    const { width, height } = await sharp(upright).metadata();
    const sideways = await sharp(upright).rotate(270).withMetadata({ orientation: 6 }).jpeg({ quality: 95 }).toBuffer();
    const file = scratch.write("sideways-small.jpg", sideways);
    const decoded = await decodePhoto(file, "jpeg", TEST_LIMITS, { maxWidth: 200 });
    expect([decoded.width, decoded.height, decoded.originalWidth, decoded.originalHeight]).toEqual([200, Math.round((200 * height) / width), width, height]);
    const picture = await sharp(decoded.pixels, { raw: decoded }).png().toBuffer();
    expect(meanAbsoluteDifference(await renderGreyThumbnail(picture), await renderGreyThumbnail(upright))).toBeLessThan(6);
    // Never wider than the original.
    expect((await decodePhoto(file, "jpeg", TEST_LIMITS, { maxWidth: 10_000 })).width).toBe(width);
  });

  it.each(["jpeg", "png", "webp", "avif", "tiff", "gif"] as const)(
    "decodes %s, stored sideways with EXIF orientation 6 where the format has EXIF, to the upright picture",
    async (format) => {
      // GIF has no EXIF, so there is no orientation to honour: it is stored upright.
      const sideways =
        format === "gif"
          ? await sharp(reference).gif().toBuffer()
          : await sharp(reference).rotate(270).withMetadata({ orientation: 6 }).toFormat(format).toBuffer();
      const file = scratch.write(`sideways.${format}`, sideways);
      const decoded = await decodeFile(file);
      expect([decoded.type, decoded.width, decoded.height]).toEqual([format, 300, 225]);
      const picture = await sharp(decoded.pixels, { raw: decoded }).png().toBuffer();
      // GIF's 256-colour palette is the roughest of the six.
      expect(meanAbsoluteDifference(await renderGreyThumbnail(picture), await renderGreyThumbnail(reference))).toBeLessThan(6);
    },
  );

  it("refuses AVIF and HEIC files whose brands lie about the codec with a 422, not a crash", async () => {
    const avif = Buffer.from(await sharp(reference).avif({ effort: 0 }).toBuffer());
    avif.write("heic", 8, "latin1");
    expect(detectImageType(avif)).toBe("heic");
    await expect(decodePhoto(scratch.write("lying.heic", avif), "heic", TEST_LIMITS)).rejects.toMatchObject({ status: 422 });

    const heic = Buffer.from(readFileSync(corpusPath("exif-samples/heic/samplefilehub.heif")));
    heic.write("avif", 8, "latin1");
    expect(detectImageType(heic)).toBe("avif");
    await expect(decodePhoto(scratch.write("lying.avif", heic), "avif", TEST_LIMITS)).rejects.toMatchObject({ status: 422 });
  });

  it("decodes HEVC under a brand heic-decode does not list itself (heis)", async () => {
    const heis = Buffer.from(readFileSync(corpusPath("exif-samples/heic/samplefilehub.heif")));
    heis.write("heis", 8, "latin1");
    expect(detectImageType(heis)).toBe("heic");
    const decoded = await decodePhoto(scratch.write("brand.heis", heis), "heic", TEST_LIMITS);
    expect([decoded.type, decoded.width, decoded.height]).toEqual(["heic", 640, 426]);
  });

  it("decodes only the first page of a multi-page TIFF", async () => {
    const pageBytes = 32 * 32 * 3;
    const pages = Buffer.alloc(pageBytes * 50, 0);
    pages.fill(200, 0, pageBytes);
    const tiff = await sharp(pages, { raw: { width: 32, height: 32 * 50, channels: 3, pageHeight: 32 } }).tiff().toBuffer();
    expect((await sharp(tiff).metadata()).pages).toBe(50);
    const decoded = await decodeFile(scratch.write("pages.tiff", tiff));
    expect([decoded.width, decoded.height]).toEqual([32, 32]);
    expect(Array.from(decoded.pixels.subarray(0, 3))).toEqual([200, 200, 200]);
  });

  it("refuses content that is not what the caller says it is", async () => {
    const png = scratch.write("really.png", await sharp(reference).png().toBuffer());
    await expect(decodePhoto(png, "jpeg", TEST_LIMITS)).rejects.toMatchObject({
      status: 422,
      message: "The image could not be decoded: its content does not match its type.",
    });
  });
});
