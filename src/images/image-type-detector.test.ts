import { readFileSync } from "node:fs";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { detectImageType, getImageType, type ImageType } from "./image-type-detector";
import { corpusPath } from "./image-test-helpers";

const text = (value: string) => new TextEncoder().encode(value);

/** An ftyp box with the given major and compatible brands, as the head of an ISO-BMFF file. */
function ftyp(major: string, compatible: string[]): Uint8Array {
  const size = 16 + compatible.length * 4;
  const bytes = new Uint8Array(size + 8);
  new DataView(bytes.buffer).setUint32(0, size);
  bytes.set(text(`ftyp${major}`), 4);
  compatible.forEach((brand, index) => bytes.set(text(brand), 16 + index * 4));
  bytes.set(text("meta"), size + 4);
  return bytes;
}

describe("detectImageType", () => {
  it.each<[ImageType, "jpeg" | "png" | "webp" | "avif" | "tiff" | "gif"]>([
    ["jpeg", "jpeg"],
    ["png", "png"],
    ["webp", "webp"],
    ["avif", "avif"],
    ["tiff", "tiff"],
    ["gif", "gif"],
  ])("recognises %s made by an encoder", async (expected, format) => {
    const bytes = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#336699" } })
      .toFormat(format)
      .toBuffer();
    expect(detectImageType(bytes.subarray(0, 256))).toBe(expected);
  });

  it.each([
    ["exif-samples/heic/IMG_5195.HEIC", "heic"],
    ["exif-samples/heic/mobile/iphone_13_pro_max.HEIC", "heic"],
    ["exif-samples/heic/mobile/HMD_Nokia_8.3_5G.heif", "heic"],
    ["exif-samples/tiff/BSG1.tiff", "tiff"],
    ["exif-samples/jpg/Canon_40D.jpg", "jpeg"],
  ])("recognises the corpus file %s as %s", (file, expected) => {
    expect(detectImageType(readFileSync(corpusPath(file)).subarray(0, 256))).toBe(expected);
  });

  it("tells AVIF from HEIC by the ftyp brands", () => {
    expect(detectImageType(ftyp("avif", ["mif1", "miaf"]))).toBe("avif");
    expect(detectImageType(ftyp("avis", ["msf1"]))).toBe("avif");
    expect(detectImageType(ftyp("mif1", ["mif1", "miaf", "avif"]))).toBe("avif");
    expect(detectImageType(ftyp("heic", ["mif1", "heic"]))).toBe("heic");
    expect(detectImageType(ftyp("heix", []))).toBe("heic");
    expect(detectImageType(ftyp("mif1", ["heic", "miaf"]))).toBe("heic");
    expect(detectImageType(ftyp("mif1", []))).toBe("heic");
  });

  it("refuses other ISO-BMFF files: MP4, QuickTime, Canon CR3, JPEG 2000 and malformed boxes", () => {
    expect(detectImageType(ftyp("isom", ["iso2", "avc1", "mp41"]))).toBeNull();
    expect(detectImageType(ftyp("qt  ", ["qt  "]))).toBeNull();
    expect(detectImageType(ftyp("crx ", ["crx ", "isom"]))).toBeNull();
    expect(detectImageType(ftyp("jp2 ", ["jp2 "]))).toBeNull();
    const zeroSized = ftyp("avif", []);
    new DataView(zeroSized.buffer).setUint32(0, 0);
    expect(detectImageType(zeroSized)).toBeNull();
  });

  it.each([
    ["HTML", text("<!DOCTYPE html><html><script>alert(1)</script></html>")],
    ["HTML without doctype", text("<html><body onload=alert(1)>")],
    ["SVG", text('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect/></svg>')],
    ["SVG with XML declaration and BOM", text('\ufeff<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>')],
    ["XML", text('<?xml version="1.0" encoding="UTF-8"?><root/>')],
    ["PDF", text("%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\n1 0 obj")],
    ["ELF executable", new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0, 0, 0, 0, 0, 0, 0, 0])],
    ["Windows executable", text("MZ\u0090\u0000\u0003\u0000\u0000\u0000")],
    ["shell script", text("#!/bin/sh\nrm -rf /\n")],
    ["ZIP", new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00])],
    ["BMP", text("BM6\u0000\u0000\u0000")],
    ["JPEG XL", new Uint8Array([0xff, 0x0a, 0xfa, 0x7f])],
    ["empty file", new Uint8Array(0)],
    ["two bytes of a JPEG", new Uint8Array([0xff, 0xd8])],
    ["RIFF that is not WebP (WAV)", text("RIFF\u0024\u0000\u0000\u0000WAVEfmt ")],
  ])("refuses %s", (_name, head) => {
    expect(detectImageType(head)).toBeNull();
  });

  it("judges by content: a PNG is a PNG whatever the upload claimed", async () => {
    const png = await sharp({ create: { width: 2, height: 2, channels: 4, background: "#000" } }).png().toBuffer();
    expect(getImageType(png.subarray(0, 256))).toBe("png");
  });
});

describe("getImageType", () => {
  it("throws a 415 AppError for content we do not accept", () => {
    expect(() => getImageType(text("<svg/>"))).toThrow(expect.objectContaining({ code: "UNSUPPORTED_MEDIA_TYPE", status: 415 }));
  });
});
