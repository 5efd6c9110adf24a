import fs from "node:fs";
import exifr from "exifr";
import { describe, expect, it } from "vitest";
import { readExifBlock } from "./exif-block-reader";
import { filterExif } from "./exif-filter";
import { corpusPath, listFiles } from "./image-test-helpers";
import { rewriteJpegMetadata } from "./jpeg-metadata-rewriter";

// A share link that hides EXIF (keepCameraDetails: false): only what reading the pixels needs stays.

const GPS_JPEGS = listFiles(corpusPath("exif-samples/jpg/gps"));

async function metadataOf(original: Buffer, options: Parameters<typeof filterExif>[1]): Promise<Record<string, Record<string, unknown>>> {
  const block = readExifBlock(original, "jpeg");
  const copy = rewriteJpegMetadata(original, block && filterExif(block, options));
  return ((await exifr.parse(copy, { tiff: true, ifd0: true, exif: true, gps: true, ifd1: true, makerNote: true, mergeOutput: false } as never).catch(() => undefined)) ?? {}) as Record<string, Record<string, unknown>>;
}

describe("the EXIF filter without camera details", () => {
  it.each(GPS_JPEGS)("%s: keeps orientation, pixel dimensions and colour space, nothing of camera, exposure or date", async (file) => {
    const original = fs.readFileSync(file);
    const full = await metadataOf(original, { keepLocation: false, keepOrientation: true, keepPixelDimensions: true });
    const bare = await metadataOf(original, { keepLocation: false, keepOrientation: true, keepPixelDimensions: true, keepCameraDetails: false });
    expect(full.ifd0?.Make).toBeTruthy();
    for (const tag of ["Make", "Model", "DateTime", "XResolution"]) expect(bare.ifd0?.[tag], tag).toBeUndefined();
    for (const tag of ["ExposureTime", "FNumber", "ISO", "DateTimeOriginal", "CreateDate", "FocalLength", "LensModel", "Flash"]) expect(bare.exif?.[tag], tag).toBeUndefined();
    expect(bare.ifd0?.Orientation).toEqual(full.ifd0?.Orientation);
    expect(bare.exif?.ExifImageWidth).toEqual(full.exif?.ExifImageWidth);
    expect(bare.exif?.ColorSpace).toEqual(full.exif?.ColorSpace);
    expect(bare.gps).toBeUndefined();
    expect(bare.makerNote).toBeUndefined();
    expect(bare.ifd1).toBeUndefined();
  });

  it("keeps the location on its own when the link shows it without EXIF", async () => {
    const original = fs.readFileSync(GPS_JPEGS[0]);
    const bare = await metadataOf(original, { keepLocation: true, keepOrientation: false, keepPixelDimensions: false, keepCameraDetails: false });
    expect(bare.gps?.GPSLatitude).toBeTruthy();
    expect(bare.ifd0?.Make).toBeUndefined();
  });
});
