import sharp from "sharp";
import { thumbHashToApproximateAspectRatio, thumbHashToAverageRGBA } from "thumbhash";
import { describe, expect, it } from "vitest";
import { corpusPath, decodeFile, TEST_LIMITS } from "./image-test-helpers";
import { makePlaceholder } from "./placeholder-maker";
import { encodeVariants } from "./variant-encoder";

describe("makePlaceholder", () => {
  it("describes the smallest variant: aspect ratio, average and dominant colour", async () => {
    const decoded = await decodeFile(corpusPath("orientation/Portrait_6.jpg"));
    const [smallest] = await encodeVariants(decoded, "visible", TEST_LIMITS);
    const placeholder = await makePlaceholder(smallest.bytes);

    const hash = Buffer.from(placeholder.thumbhash, "base64");
    expect(hash.length).toBeGreaterThan(5);
    expect(hash.length).toBeLessThanOrEqual(25);
    // Portrait_6 is stored landscape and shown portrait (2:3); the placeholder must be portrait too.
    expect(thumbHashToApproximateAspectRatio(hash)).toBeCloseTo(2 / 3, 1);
    expect(placeholder.dominantColor).toMatch(/^#[0-9a-f]{6}$/);

    const { channels } = await sharp(smallest.bytes).stats();
    const average = thumbHashToAverageRGBA(hash);
    expect(Math.abs(average.r * 255 - channels[0].mean)).toBeLessThan(20);
    expect(Math.abs(average.b * 255 - channels[2].mean)).toBeLessThan(20);
  });

  it("gives a solid colour as its dominant colour, in sRGB even for a Display P3 variant", async () => {
    const srgbRed = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#e01010" } }).withIccProfile("srgb").jpeg().toBuffer();
    expect((await makePlaceholder(srgbRed)).dominantColor).toBe("#e01010");

    // P3 (255, 0, 0), shown in sRGB, is sRGB's own pure red.
    const p3Red = await sharp(Buffer.alloc(30 * 20 * 3).fill(Buffer.from([255, 0, 0])), { raw: { width: 30, height: 20, channels: 3 } })
      .pipelineColourspace("rgb16")
      .withIccProfile("p3")
      .webp({ lossless: true })
      .toBuffer();
    expect((await makePlaceholder(p3Red)).dominantColor).toMatch(/^#f[0-9a-f]0[0-9a-f]0[0-9a-f]$/);
  });

  it("treats transparent areas as the white page behind them", async () => {
    const transparent = await sharp({ create: { width: 50, height: 50, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).webp({ lossless: true }).toBuffer();
    expect((await makePlaceholder(transparent)).dominantColor).toBe("#ffffff");
  });
});
