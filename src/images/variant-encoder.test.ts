import { copyFileSync } from "node:fs";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { corpusPath, createScratchDirectory, decodeFile, TEST_LIMITS } from "./image-test-helpers";
import { encodeVariants, type EncodedVariant } from "./variant-encoder";

const scratch = createScratchDirectory();
afterAll(() => scratch.remove());

const describeVariants = (variants: EncodedVariant[]) => variants.map(({ format, width, height }) => `${format} ${width}x${height}`);

describe("encodeVariants", () => {
  it("makes the three phases from one decode, without reading the original again", async () => {
    // A 2048 × 1536 camera file, copied so that it can be deleted after decoding.
    const file = scratch.write("camera.jpg", new Uint8Array());
    copyFileSync(corpusPath("exif-samples/jpg/Reconyx_HC500_Hyperfire.jpg"), file);
    const decoded = await decodeFile(file);
    scratch.remove();

    const visible = await encodeVariants(decoded, "visible", TEST_LIMITS);
    const full = await encodeVariants(decoded, "full", TEST_LIMITS);
    const avif = await encodeVariants(decoded, "avif", TEST_LIMITS);
    expect(describeVariants(visible)).toEqual(["jpeg 400x300", "webp 400x300"]);
    expect(describeVariants(full)).toEqual([
      "jpeg 800x600", "webp 800x600",
      "jpeg 1200x900", "webp 1200x900",
      "jpeg 1600x1200", "webp 1600x1200",
      // Its own width too: 2048 is more than 25 % above 1600.
      "jpeg 2048x1536", "webp 2048x1536",
    ]);
    expect(describeVariants(avif)).toEqual(["avif 400x300", "avif 800x600", "avif 1200x900", "avif 1600x1200"]);

    for (const variant of [...visible, ...full, ...avif]) {
      const metadata = await sharp(variant.bytes).metadata();
      expect([metadata.format === "heif" ? "avif" : metadata.format, metadata.width, metadata.height]).toEqual([variant.format, variant.width, variant.height]);
      if (variant.format === "jpeg") expect(metadata.isProgressive).toBe(true);
    }
    // Each format is smaller than the one it replaces, at every width (the point of serving them).
    for (const width of [400, 800, 1200, 1600]) {
      const size = (format: string) => [...visible, ...full, ...avif].find((variant) => variant.format === format && variant.width === width)?.bytes.length ?? 0;
      expect(size("webp"), `webp ${width}`).toBeLessThan(size("jpeg"));
      expect(size("avif"), `avif ${width}`).toBeLessThan(size("webp"));
    }
  }, 60_000);

  it("gives a photo smaller than every target one variant at its own size, never an upscale", async () => {
    const decoded = await decodeFile(corpusPath("exif-samples/jpg/Canon_40D.jpg")); // 100 × 68
    expect(describeVariants(await encodeVariants(decoded, "visible", TEST_LIMITS))).toEqual(["jpeg 100x68", "webp 100x68"]);
    expect(await encodeVariants(decoded, "full", TEST_LIMITS)).toEqual([]);
    expect(describeVariants(await encodeVariants(decoded, "avif", TEST_LIMITS))).toEqual(["avif 100x68"]);
  });

  it("runs phases of one photo at the same time safely", async () => {
    const decoded = await decodeFile(corpusPath("exif-samples/jpg/exif-org/fujifilm-dx10.jpg")); // 1024 × 768
    const [visible, full] = await Promise.all([
      encodeVariants(decoded, "visible", TEST_LIMITS),
      encodeVariants(decoded, "full", TEST_LIMITS),
    ]);
    expect(describeVariants([...visible, ...full])).toEqual(["jpeg 400x300", "webp 400x300", "jpeg 800x600", "webp 800x600", "jpeg 1024x768", "webp 1024x768"]);
  });
});
