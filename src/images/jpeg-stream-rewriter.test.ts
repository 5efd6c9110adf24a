import fs from "node:fs";
import exifr from "exifr";
import { describe, expect, it } from "vitest";
import { readExifBlock } from "./exif-block-reader";
import { filterExif } from "./exif-filter";
import { corpusPath, listFiles } from "./image-test-helpers";
import { MalformedJpegError, rewriteJpegMetadata } from "./jpeg-metadata-rewriter";
import { findFirstScan, JpegTailSanitizer, rewriteJpegHead } from "./jpeg-stream-rewriter";

// The streamed download copy (share ZIPs) against the whole-file rewrite, on every JPEG of the corpus.

const JPEGS = [...listFiles(corpusPath("exif-samples/jpg")), ...listFiles(corpusPath("orientation"))].filter((file) => /\.jpe?g$/i.test(file));
const POLICY = { keepLocation: false, keepOrientation: true, keepPixelDimensions: true };

function streamed(file: Buffer, exif: Buffer | null, chunkSize: number): { bytes: Buffer; predicted: number; changed: boolean } {
  const firstScan = findFirstScan(file);
  if (firstScan === null) throw new Error("no scan");
  const head = rewriteJpegHead(file, firstScan, exif);
  const sanitizer = new JpegTailSanitizer();
  const parts: Uint8Array[] = [head];
  for (let start = firstScan; start < file.length; start += chunkSize) parts.push(sanitizer.push(file.subarray(start, start + chunkSize)));
  return { bytes: Buffer.concat(parts), predicted: head.length + file.length - firstScan, changed: sanitizer.changedSomething };
}

describe("the streamed JPEG rewrite", () => {
  it("finds the first scan only once the head holds it", () => {
    const file = fs.readFileSync(corpusPath("exif-samples/jpg/gps/DSCN0010.jpg"));
    const firstScan = findFirstScan(file) as number;
    expect(file[firstScan + 1]).toBe(0xda);
    expect(findFirstScan(file.subarray(0, firstScan))).toBeNull();
    expect(() => findFirstScan(Buffer.from("not a jpeg"))).toThrow(MalformedJpegError);
  });

  it.each(JPEGS)("%s: has the length planned from its head, and the whole-file rewrite's bytes", async (path) => {
    const file = fs.readFileSync(path);
    const block = readExifBlock(file, "jpeg");
    const exif = block && filterExif(block, POLICY);
    let whole: Buffer | null = null;
    try {
      whole = rewriteJpegMetadata(file, exif);
    } catch (error) {
      if (!(error instanceof MalformedJpegError)) throw error;
    }
    const small = streamed(file, exif, 7);
    const large = streamed(file, exif, 65_536);
    expect(small.bytes.length).toBe(small.predicted);
    expect(large.bytes.equals(small.bytes), "chunking changes nothing").toBe(true);
    if (whole && !small.changed) expect(small.bytes.equals(whole), "same bytes as the whole-file rewrite").toBe(true);
    if (whole && small.changed) {
      // What follows the image (MPF images, trailers) is zeros; up to there the bytes are the rewrite's.
      expect(small.bytes.subarray(0, whole.length).equals(whole)).toBe(true);
      expect(small.bytes.subarray(whole.length).every((byte) => byte === 0)).toBe(true);
    }
    const gps = await exifr.gps(small.bytes).catch(() => undefined);
    expect(gps).toBeUndefined();
    const metadata = ((await exifr.parse(small.bytes, { xmp: true, makerNote: true, ifd1: true, iptc: true, mergeOutput: false } as never).catch(() => undefined)) ?? {}) as Record<string, unknown>;
    expect(metadata.xmp).toBeUndefined();
    expect(metadata.makerNote).toBeUndefined();
    expect(metadata.ifd1).toBeUndefined();
  });

  it("zeroes metadata between scans and everything after the first image", () => {
    const file = fs.readFileSync(corpusPath("exif-samples/jpg/gps/DSCN0010.jpg"));
    const firstScan = findFirstScan(file) as number;
    const end = file.lastIndexOf(Buffer.from([0xff, 0xd9]));
    const secret = Buffer.from("GPS 48.8584 2.2945 serial 1234");
    const app1 = Buffer.concat([Buffer.from([0xff, 0xe1, 0, secret.length + 2]), secret]);
    // An APP1 just before EOI (between the scan and the end), then a whole second JPEG appended.
    const crafted = Buffer.concat([file.subarray(0, end), app1, file.subarray(end, end + 2), file]);
    const { bytes, predicted, changed } = streamed(crafted, null, 1000);
    expect(changed).toBe(true);
    expect(bytes.length).toBe(predicted);
    expect(bytes.includes(secret)).toBe(false);
    const head = rewriteJpegHead(crafted, firstScan, null);
    const commentAt = head.length + end - firstScan;
    expect([bytes[commentAt], bytes[commentAt + 1]]).toEqual([0xff, 0xfe]);
    expect(bytes.subarray(commentAt + 4 + secret.length + 2).every((byte) => byte === 0)).toBe(true);
  });
});
