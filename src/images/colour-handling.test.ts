import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isWideGamutProfile } from "./icc-profile-reader";
import {
  builtInProfile,
  createScratchDirectory,
  decodeFile,
  readDisplayedPixel,
  readStoredPixel,
  solidPng,
  tagJpeg,
  tagPng,
  TEST_LIMITS,
} from "./image-test-helpers";
import { encodeVariants } from "./variant-encoder";

const scratch = createScratchDirectory();
afterAll(() => scratch.remove());

let srgbProfile: Buffer;
let displayP3Profile: Buffer;
beforeAll(async () => {
  // The profiles themselves (480 bytes each); the test images below get them attached by hand, so
  // that what is tested does not depend on how the module attaches them.
  srgbProfile = await builtInProfile("srgb");
  displayP3Profile = await builtInProfile("p3");
});

async function processVisible(name: string, bytes: Buffer) {
  const decoded = await decodeFile(scratch.write(name, bytes));
  const variants = await encodeVariants(decoded, "visible", TEST_LIMITS);
  const variant = (format: string) => {
    const found = variants.find((candidate) => candidate.format === format);
    if (!found) throw new Error(`No ${format} variant`);
    return found.bytes;
  };
  return { decoded, jpeg: variant("jpeg"), webp: variant("webp") };
}

const expectClose = (actual: number[], expected: number[], tolerance: number) => {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((value, index) => expect(Math.abs(value - expected[index]), `channel ${index} of ${actual}`).toBeLessThanOrEqual(tolerance));
};

describe("Display P3 photos stay Display P3", () => {
  it.each(["png", "jpeg"] as const)("a pure P3 red %s keeps its P3 numbers and profile, and still shows red", async (format) => {
    const untagged = await solidPng([255, 0, 0]);
    const source =
      format === "png"
        ? tagPng(untagged, displayP3Profile)
        : tagJpeg(await sharp(untagged).jpeg({ quality: 100 }).toBuffer(), displayP3Profile);
    const { decoded, jpeg, webp } = await processVisible(`p3-red.${format}`, source);
    expect(decoded.colourSpace).toBe("display-p3");
    for (const variant of [jpeg, webp]) {
      expect(isWideGamutProfile((await sharp(variant).metadata()).icc)).toBe(true);
      // Converted to sRGB and then tagged P3, this would store about (234, 51, 35).
      expectClose((await readStoredPixel(variant)).slice(0, 3), [255, 0, 0], 6);
      const [red, green, blue] = await readDisplayedPixel(variant);
      expect(red).toBeGreaterThan(230);
      expect(Math.max(green, blue)).toBeLessThan(30);
    }
  });

  it("a P3 colour inside sRGB's gamut keeps its exact P3 numbers", async () => {
    const { decoded, webp } = await processVisible("p3-brown.png", tagPng(await solidPng([200, 100, 50]), displayP3Profile));
    expect(decoded.colourSpace).toBe("display-p3");
    expectClose(Array.from(decoded.pixels.subarray(0, 3)), [200, 100, 50], 0);
    expectClose((await readStoredPixel(webp)).slice(0, 3), [200, 100, 50], 3);
  });

  it("an sRGB-tagged photo stays sRGB, tagged sRGB", async () => {
    const { decoded, jpeg } = await processVisible("srgb-red.png", tagPng(await solidPng([255, 0, 0]), srgbProfile));
    expect(decoded.colourSpace).toBe("srgb");
    const profile = (await sharp(jpeg).metadata()).icc;
    expect(profile).toBeDefined();
    expect(isWideGamutProfile(profile)).toBe(false);
    expectClose((await readStoredPixel(jpeg)).slice(0, 3), [255, 0, 0], 6);
  });
});

describe("other colour layouts are converted to sRGB correctly", () => {
  it("CMYK JPEG without a profile (libvips' built-in CMYK profile)", async () => {
    const cmyk = await sharp(await solidPng([220, 30, 30])).toColourspace("cmyk").jpeg({ quality: 95 }).toBuffer();
    expect((await sharp(cmyk).metadata()).space).toBe("cmyk");
    const { decoded, jpeg } = await processVisible("cmyk.jpg", cmyk);
    expect([decoded.colourSpace, decoded.channels]).toEqual(["srgb", 3]);
    const [red, green, blue] = await readStoredPixel(jpeg);
    expect(red).toBeGreaterThan(180);
    expect(Math.max(green, blue)).toBeLessThan(70);
  });

  it("CMYK JPEG with an embedded CMYK profile", async () => {
    const cmyk = await sharp(await solidPng([220, 30, 30])).withIccProfile("cmyk").jpeg({ quality: 95 }).toBuffer();
    const metadata = await sharp(cmyk).metadata();
    expect([metadata.space, metadata.hasProfile]).toEqual(["cmyk", true]);
    const { jpeg } = await processVisible("cmyk-profiled.jpg", cmyk);
    expectClose((await readStoredPixel(jpeg)).slice(0, 3), [220, 30, 30], 20);
  });

  it.each([
    ["untagged", undefined],
    ["sRGB-tagged", "srgb"],
  ] as const)("16-bit %s PNG keeps its colours (sharp alone would turn tagged 16-bit into P3 numbers)", async (_name, tag) => {
    const pixels = new Uint16Array(16 * 16 * 3);
    for (let index = 0; index < pixels.length; index += 3) pixels.set(index < pixels.length / 2 ? [65535, 0, 0] : [51400, 25700, 12850], index);
    const untagged = await sharp(pixels, { raw: { width: 16, height: 16, channels: 3 } }).toColourspace("rgb16").png().toBuffer();
    const png = tag ? tagPng(untagged, srgbProfile) : untagged;
    const metadata = await sharp(png).metadata();
    expect([metadata.depth, metadata.hasProfile]).toEqual(["ushort", Boolean(tag)]);
    const { decoded } = await processVisible(`16-bit-${_name}.png`, png);
    expect(decoded.colourSpace).toBe("srgb");
    expectClose(Array.from(decoded.pixels.subarray(0, 3)), [255, 0, 0], 1);
    expectClose(Array.from(decoded.pixels.subarray(decoded.pixels.length - 3)), [200, 100, 50], 1);
  });

  it.each([
    ["8-bit", 8],
    ["16-bit", 16],
  ] as const)("%s greyscale becomes neutral grey of the same lightness", async (_name, depth) => {
    const grey =
      depth === 8
        ? await sharp(Buffer.alloc(16 * 16, 128), { raw: { width: 16, height: 16, channels: 1 } }).toColourspace("b-w").png().toBuffer()
        : await sharp(new Uint16Array(16 * 16).fill(128 * 257), { raw: { width: 16, height: 16, channels: 1 } }).toColourspace("grey16").png().toBuffer();
    expect((await sharp(grey).metadata()).channels).toBe(1);
    const { decoded, jpeg } = await processVisible(`grey-${depth}.png`, grey);
    expect(Array.from(decoded.pixels.subarray(0, 3))).toEqual([128, 128, 128]);
    expectClose((await readStoredPixel(jpeg)).slice(0, 3), [128, 128, 128], 2);
  });

  it("alpha: JPEG flattens onto white, WebP keeps the transparency", async () => {
    // Left half fully transparent blue, right half opaque red.
    const pixels = Buffer.alloc(16 * 16 * 4);
    for (let y = 0; y < 16; y++) {
      for (let x = 0; x < 16; x++) pixels.set(x < 8 ? [0, 0, 255, 0] : [255, 0, 0, 255], (y * 16 + x) * 4);
    }
    const png = await sharp(pixels, { raw: { width: 16, height: 16, channels: 4 } }).png().toBuffer();
    const { decoded, jpeg, webp } = await processVisible("alpha.png", png);
    expect(decoded.channels).toBe(4);
    expectClose((await readStoredPixel(jpeg, 1, 8)).slice(0, 3), [255, 255, 255], 3);
    expectClose((await readStoredPixel(jpeg, 14, 8)).slice(0, 3), [255, 0, 0], 8);
    expect((await sharp(webp).metadata()).hasAlpha).toBe(true);
    expect((await readStoredPixel(webp, 1, 8))[3]).toBe(0);
    expect((await readStoredPixel(webp, 14, 8))[3]).toBe(255);
  });

  it("an alpha channel that is opaque everywhere is dropped", async () => {
    const { decoded, webp } = await processVisible("opaque-alpha.png", await solidPng([10, 200, 30, 255]));
    expect(decoded.channels).toBe(3);
    expect((await sharp(webp).metadata()).hasAlpha).toBe(false);
  });
});
