import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { isWideGamutProfile } from "./icc-profile-reader";
import { corpusPath } from "./image-test-helpers";

async function builtInProfile(name: string): Promise<Buffer | undefined> {
  const tagged = await sharp({ create: { width: 1, height: 1, channels: 3, background: "#000" } }).withIccProfile(name).jpeg().toBuffer();
  return (await sharp(tagged).metadata()).icc;
}

describe("isWideGamutProfile", () => {
  it("knows Display P3 from sRGB", async () => {
    expect(isWideGamutProfile(await builtInProfile("p3"))).toBe(true);
    expect(isWideGamutProfile(await builtInProfile("srgb"))).toBe(false);
  });

  it.each([
    ["exif-samples/heic/mobile/iphone_13_pro_max.HEIC", true], // Apple Display P3
    ["exif-samples/heic/IMG_5195.HEIC", true],
    ["exif-samples/jpg/Canon_40D.jpg", false], // sRGB IEC61966-2.1
    ["exif-samples/jpg/orientation/landscape_2.jpg", false],
    ["exif-samples/tiff/BSG1.tiff", false],
    ["exif-samples/tiff/Tless0.tiff", false],
  ])("judges the profile embedded in %s", async (file, expected) => {
    const { icc } = await sharp(corpusPath(file)).metadata();
    expect(icc).toBeDefined();
    expect(isWideGamutProfile(icc)).toBe(expected);
  });

  it("treats CMYK, missing and malformed profiles as not wide (so the photo becomes sRGB)", async () => {
    expect(isWideGamutProfile(await builtInProfile("cmyk"))).toBe(false);
    expect(isWideGamutProfile(undefined)).toBe(false);
    expect(isWideGamutProfile(new Uint8Array(10))).toBe(false);
    const p3 = await builtInProfile("p3");
    if (!p3) throw new Error("no profile");
    // A tag table pointing outside the profile, and a tag count in the millions.
    const brokenOffsets = Buffer.from(p3);
    for (let entry = 132; entry < 132 + brokenOffsets.readUInt32BE(128) * 12; entry += 12) brokenOffsets.writeUInt32BE(0xfffffff0, entry + 4);
    expect(isWideGamutProfile(brokenOffsets)).toBe(false);
    const hugeCount = Buffer.from(p3);
    hugeCount.writeUInt32BE(5_000_000, 128);
    expect(isWideGamutProfile(hugeCount)).toBe(false);
  });
});
