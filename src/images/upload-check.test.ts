import { readFileSync } from "node:fs";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { captureAppError, corpusPath, createScratchDirectory, makePixelBombPng, TEST_LIMITS } from "./image-test-helpers";
import { checkUploadedImage } from "./upload-check";

const scratch = createScratchDirectory();
afterAll(() => scratch.remove());

const CORRUPT = "The image could not be decoded: the file is truncated or corrupt.";

describe("checkUploadedImage", () => {
  it("accepts camera and phone files as they are, answering the small decode the visible phase can use (none for HEIC)", async () => {
    const phone = await checkUploadedImage(corpusPath("exif-samples/jpg/mobile/HMD_Nokia_8.3_5G.jpg"), "jpeg", TEST_LIMITS);
    const header = await sharp(corpusPath("exif-samples/jpg/mobile/HMD_Nokia_8.3_5G.jpg")).metadata();
    expect(phone).toMatchObject({ width: 800, originalWidth: header.autoOrient.width, originalHeight: header.autoOrient.height, type: "jpeg" });
    expect(phone?.height).toBe(Math.round((800 * header.autoOrient.height) / header.autoOrient.width));
    expect(phone?.metadata.exif.cameraMake).toBe("HMD Global");
    expect(await checkUploadedImage(corpusPath("exif-samples/heic/IMG_5195.HEIC"), "heic", TEST_LIMITS)).toBeNull();
  });

  it("accepts a JPEG whose only fault is a harmless decoder warning (extraneous bytes)", async () => {
    const jpeg = readFileSync(corpusPath("exif-samples/jpg/exif-org/nikon-e950.jpg"));
    const tables = jpeg.indexOf(Buffer.from([0xff, 0xdb]));
    const padded = Buffer.concat([jpeg.subarray(0, tables), Buffer.alloc(4), jpeg.subarray(tables)]);
    await checkUploadedImage(scratch.write("extraneous.jpg", padded), "jpeg", TEST_LIMITS);
  });

  it("refuses a JPEG cut anywhere, even in its last bytes (SECURITY 7)", async () => {
    const jpeg = readFileSync(corpusPath("exif-samples/jpg/Nikon_D70.jpg"));
    for (const fraction of [0.5, 0.97]) {
      const file = scratch.write(`cut-${fraction}.jpg`, jpeg.subarray(0, Math.floor(jpeg.length * fraction)));
      const error = await captureAppError(() => checkUploadedImage(file, "jpeg", TEST_LIMITS));
      expect([error.status, error.message], String(fraction)).toEqual([422, CORRUPT]);
    }
  });

  it("refuses a JPEG whose header claims more rows than its data holds, under the pixel limit (SECURITY 9)", async () => {
    const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#808080" } }).jpeg().toBuffer();
    const frameHeader = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    const lying = Buffer.from(jpeg);
    lying.writeUInt16BE(4000, frameHeader + 5);
    lying.writeUInt16BE(4000, frameHeader + 7);
    const error = await captureAppError(() => checkUploadedImage(scratch.write("lying.jpg", lying), "jpeg", TEST_LIMITS));
    expect([error.status, error.message]).toEqual([422, CORRUPT]);
  });

  it("refuses a truncated HEIC from its box structure, and a pixel bomb from its header", async () => {
    const heic = readFileSync(corpusPath("exif-samples/heic/IMG_5195.HEIC"));
    const cut = await captureAppError(() => checkUploadedImage(scratch.write("cut.heic", heic.subarray(0, heic.length - 1000)), "heic", TEST_LIMITS));
    expect(cut.status).toBe(422);
    const bomb = await captureAppError(() => checkUploadedImage(scratch.write("bomb.png", makePixelBombPng()), "png", TEST_LIMITS));
    expect([bomb.status, bomb.message]).toEqual([422, "The image is too large: 30000 × 30000 pixels is above the 120-megapixel limit."]);
  });
});
