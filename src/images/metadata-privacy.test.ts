import path from "node:path";
import exifr from "exifr";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { isWideGamutProfile } from "./icc-profile-reader";
import { corpusPath, decodeFile, listFiles, TEST_LIMITS } from "./image-test-helpers";
import { readPhotoMetadata } from "./photo-metadata-reader";
import { encodeVariants, type EncodedVariant } from "./variant-encoder";

const gpsFiles = listFiles(corpusPath("exif-samples/jpg/gps"));

async function encodeAllPhases(file: string): Promise<EncodedVariant[]> {
  const decoded = await decodeFile(file);
  return [
    ...(await encodeVariants(decoded, "visible", TEST_LIMITS)),
    ...(await encodeVariants(decoded, "full", TEST_LIMITS)),
    ...(await encodeVariants(decoded, "avif", TEST_LIMITS)),
  ];
}

/** Every way a served file could still carry the original's metadata. */
async function expectNoMetadataBut(variant: EncodedVariant, cameraModel: string): Promise<void> {
  const metadata = await sharp(variant.bytes).metadata();
  expect(metadata.exif, "EXIF block").toBeUndefined();
  expect(metadata.xmp, "XMP block").toBeUndefined();
  expect(metadata.iptc, "IPTC block").toBeUndefined();
  expect(metadata.icc, "ICC profile").toBeDefined();

  // exifr reads JPEG (and says "Unknown file format" for WebP); libvips above reads every format.
  const parsed: unknown = await exifr
    .parse(variant.bytes, { tiff: true, exif: true, gps: true, xmp: true, iptc: true, ifd1: true })
    .catch(() => undefined);
  const keys = typeof parsed === "object" && parsed !== null ? Object.keys(parsed) : [];
  expect(keys.filter((key) => /^GPS|latitude|longitude|Make|Model|DateTime|Serial/i.test(key))).toEqual([]);
  expect(await exifr.gps(variant.bytes).catch(() => undefined)).toBeUndefined();

  const bytes = variant.bytes.toString("latin1");
  expect(bytes).not.toContain("Exif\0\0");
  expect(bytes).not.toContain("http://ns.adobe.com/xap/1.0/");
  expect(bytes).not.toContain(cameraModel);
}

describe("served variants carry no EXIF, XMP or GPS", () => {
  it("has GPS in every source file (otherwise this test proves nothing)", async () => {
    expect(gpsFiles).toHaveLength(9);
    for (const file of gpsFiles) {
      expect((await readPhotoMetadata(file)).gps, path.basename(file)).not.toBeNull();
    }
  });

  it.each(gpsFiles.map((file) => [path.basename(file), file]))(
    "%s: no variant in any format contains GPS, EXIF or XMP",
    async (_name, file) => {
      const source = await sharp(file).metadata();
      expect(source.exif).toBeDefined();
      expect(source.xmp).toBeDefined();
      const variants = await encodeAllPhases(file);
      expect(new Set(variants.map((variant) => variant.format))).toEqual(new Set(["jpeg", "webp", "avif"]));
      for (const variant of variants) await expectNoMetadataBut(variant, "COOLPIX P6000");
    },
    30_000,
  );

  it("an iPhone HEIC with GPS and a Display P3 profile keeps the profile and nothing else", async () => {
    const file = corpusPath("exif-samples/heic/IMG_5195.HEIC");
    expect((await readPhotoMetadata(file)).gps).not.toBeNull();
    expect(isWideGamutProfile((await sharp(file).metadata()).icc)).toBe(true);
    const decoded = await decodeFile(file);
    const variants = await encodeVariants(decoded, "visible", TEST_LIMITS);
    for (const variant of variants) {
      await expectNoMetadataBut(variant, "iPhone 11 Pro Max");
      expect(isWideGamutProfile((await sharp(variant.bytes).metadata()).icc), variant.format).toBe(true);
    }
  }, 30_000);

  it("a JPEG with an sRGB profile keeps an sRGB profile", async () => {
    const file = corpusPath("exif-samples/jpg/Canon_40D.jpg");
    const sourceProfile = (await sharp(file).metadata()).icc;
    expect(sourceProfile).toBeDefined();
    expect(isWideGamutProfile(sourceProfile)).toBe(false);
    for (const variant of await encodeAllPhases(file)) {
      const profile = (await sharp(variant.bytes).metadata()).icc;
      expect(profile, variant.format).toBeDefined();
      expect(isWideGamutProfile(profile)).toBe(false);
      await expectNoMetadataBut(variant, "Canon EOS 40D");
    }
  }, 30_000);
});
