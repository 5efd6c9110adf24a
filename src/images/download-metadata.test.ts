import fs from "node:fs";
import exifr from "exifr";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { readExifBlock } from "./exif-block-reader";
import { filterExif } from "./exif-filter";
import { MalformedJpegError, rewriteJpegMetadata } from "./jpeg-metadata-rewriter";
import { corpusPath, listFiles } from "./image-test-helpers";

// The download copy's metadata (src/photos/download-copy.ts), on every JPEG and HEIF of the corpus.

const ALL_JPEGS = listFiles(corpusPath("exif-samples/jpg")).filter((file) => /\.jpe?g$/i.test(file));
const GPS_JPEGS = listFiles(corpusPath("exif-samples/jpg/gps"));
const HEIFS = listFiles(corpusPath("exif-samples/heic")).filter((file) => /\.hei[cf]$/i.test(file));

const POLICY = { keepLocation: false, keepOrientation: true, keepPixelDimensions: true };

/** Everything exifr can find, block by block. */
async function readAllMetadata(bytes: Buffer): Promise<Record<string, Record<string, unknown>>> {
  const options = { tiff: true, ifd0: true, ifd1: true, exif: true, gps: true, interop: true, makerNote: true, userComment: true, xmp: true, iptc: true, icc: false, mergeOutput: false };
  return ((await exifr.parse(bytes, options as never).catch(() => undefined)) ?? {}) as Record<string, Record<string, unknown>>;
}

/** The compressed pixels: from the main image's first scan (found by walking the segments, past any thumbnail) to its end. */
function scanData(jpeg: Buffer): Buffer {
  let offset = 2;
  while (jpeg[offset + 1] !== 0xda) offset += 2 + jpeg.readUInt16BE(offset + 2);
  const end = jpeg.indexOf(Buffer.from([0xff, 0xd9]), offset);
  return jpeg.subarray(offset, end + 2);
}

function rewrite(original: Buffer, policy = POLICY): Buffer {
  const exif = readExifBlock(original, "jpeg");
  return rewriteJpegMetadata(original, exif && filterExif(exif, policy));
}

describe("the download copy of a JPEG", () => {
  it.each(GPS_JPEGS)("%s: keeps camera, exposure, date and orientation, and drops GPS, maker notes, thumbnail and serials", async (file) => {
    const original = fs.readFileSync(file);
    const before = await readAllMetadata(original);
    expect(before.gps?.latitude, "the corpus file has a location").toBeDefined();
    const copy = rewrite(original);
    const after = await readAllMetadata(copy);

    expect(await exifr.gps(copy).catch(() => undefined)).toBeUndefined();
    expect(after.gps).toBeUndefined();
    expect(after.makerNote).toBeUndefined();
    expect(after.ifd1, "embedded thumbnail").toBeUndefined();
    expect(after.interop).toBeUndefined();
    expect(after.ifd0?.Make).toBe(before.ifd0?.Make);
    expect(after.ifd0?.Model).toBe(before.ifd0?.Model);
    expect(after.ifd0?.Orientation).toBe(before.ifd0?.Orientation);
    for (const tag of ["ExposureTime", "FNumber", "ISO", "DateTimeOriginal", "FocalLength"]) expect(after.exif?.[tag], tag).toEqual(before.exif?.[tag]);
    expect(after.ifd0?.Software).toBeUndefined();
    // The compressed pixels are the original's, byte for byte.
    expect(scanData(copy).equals(scanData(original))).toBe(true);
  });

  it("keeps the location, and only that more, when the owner shows it", async () => {
    const original = fs.readFileSync(GPS_JPEGS[0]);
    const copy = rewrite(original, { ...POLICY, keepLocation: true });
    expect(await exifr.gps(copy)).toEqual(await exifr.gps(original));
    expect((await readAllMetadata(copy)).makerNote).toBeUndefined();
  });

  it("rewrites every JPEG of the corpus losslessly, keeping the colour profile and dropping XMP, IPTC, comments and serials", async () => {
    let rewritten = 0;
    for (const file of ALL_JPEGS) {
      const original = fs.readFileSync(file);
      let copy: Buffer;
      try {
        copy = rewrite(original);
      } catch (error) {
        // Broken files (corpus/exif-samples/jpg/invalid, corrupted.jpg) never pass the upload check.
        expect(error, file).toBeInstanceOf(MalformedJpegError);
        continue;
      }
      rewritten += 1;
      const after = await readAllMetadata(copy);
      expect(after.xmp, file).toBeUndefined();
      expect(after.iptc, file).toBeUndefined();
      expect(after.makerNote, file).toBeUndefined();
      expect(after.gps, file).toBeUndefined();
      expect(after.ifd1, file).toBeUndefined();
      for (const tag of ["BodySerialNumber", "LensSerialNumber", "SerialNumber", "CameraOwnerName", "ImageUniqueID", "UserComment"]) {
        expect(after.exif?.[tag] ?? after.ifd0?.[tag], `${file} ${tag}`).toBeUndefined();
      }
      expect(after.ifd0?.Artist ?? after.ifd0?.Copyright ?? after.ifd0?.ImageDescription, file).toBeUndefined();
      expect(copy.includes(Buffer.from("http://ns.adobe.com/xap/1.0/")), file).toBe(false);
      expect(copy.includes(Buffer.from([0xff, 0xfe])) && copy.indexOf(Buffer.from([0xff, 0xfe])) < copy.indexOf(Buffer.from([0xff, 0xda])), `${file} comment`).toBe(false);
      const [before, afterMetadata] = await Promise.all([sharp(original).metadata(), sharp(copy).metadata()]);
      expect(afterMetadata.icc?.equals(before.icc ?? Buffer.alloc(0)) ?? before.icc === undefined, `${file} colour profile`).toBe(true);
      expect([afterMetadata.width, afterMetadata.height], file).toEqual([before.width, before.height]);
      expect(scanData(copy).equals(scanData(original)), file).toBe(true);
    }
    expect(rewritten).toBeGreaterThan(ALL_JPEGS.length * 0.8);
  });
});

describe("the EXIF of a HEIF, for its download copy", () => {
  it.each(HEIFS)("%s: camera and date kept, GPS and maker notes gone, orientation dropped (the copy is upright)", async (file) => {
    const original = fs.readFileSync(file);
    const block = readExifBlock(original, "heic");
    expect(block, "every corpus HEIF has EXIF").not.toBeNull();
    const filtered = filterExif(block as Buffer, { keepLocation: false, keepOrientation: false, keepPixelDimensions: false });
    const before = await readAllMetadata(original);
    const after = await readAllMetadata(filtered as Buffer);
    expect(after.ifd0?.Make).toBe(before.ifd0?.Make);
    expect(after.ifd0?.Model).toBe(before.ifd0?.Model);
    expect(after.exif?.DateTimeOriginal).toEqual(before.exif?.DateTimeOriginal);
    expect(after.gps).toBeUndefined();
    expect(after.makerNote).toBeUndefined();
    expect(after.ifd0?.Orientation).toBeUndefined();
  });
});
