import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { wrapPixelsInTiff } from "./raw-tiff-writer";

describe("wrapPixelsInTiff", () => {
  it.each([3, 4] as const)("libvips reads back the same %i-channel pixels over several strips", async (channels) => {
    const width = 37;
    const height = 130; // three strips of 64 rows, the last one short
    const pixels = randomBytes(width * height * channels);
    const tiff = wrapPixelsInTiff({ pixels, width, height, channels });
    const { data, info } = await sharp(tiff).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([width, height, channels]);
    expect(data.equals(pixels)).toBe(true);
  });

  it("carries the ICC profile, so libvips converts the pixels from it", async () => {
    const tagged = await sharp({ create: { width: 1, height: 1, channels: 3, background: "#000" } }).withIccProfile("p3").png().toBuffer();
    const { icc } = await sharp(tagged).metadata();
    if (!icc) throw new Error("no profile");
    const tiff = wrapPixelsInTiff({ pixels: Buffer.from([255, 0, 0]), width: 1, height: 1, channels: 3, iccProfile: icc });
    const metadata = await sharp(tiff).metadata();
    expect(metadata.icc?.equals(icc)).toBe(true);
    // P3 red seen through the P3 profile, clipped to sRGB: still red, not the raw numbers reinterpreted.
    const [red, green, blue] = await sharp(tiff).raw().toBuffer();
    expect([red > 240, green < 20, blue < 20]).toEqual([true, true, true]);
  });

  it("refuses a buffer that does not match its dimensions", () => {
    expect(() => wrapPixelsInTiff({ pixels: new Uint8Array(5), width: 2, height: 1, channels: 3 })).toThrow(RangeError);
  });
});
