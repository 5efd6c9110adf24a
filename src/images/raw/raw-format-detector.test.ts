import { readFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { writeTestDng } from "./dng-test-writer";
import { detectRawFormatFromHead, type RawFormat } from "./raw-format-detector";

/** ExifTool's own sample RAW files (tests/fixtures/raw/README.md): real headers, image data stripped. */
const SAMPLES = path.resolve(import.meta.dirname, "../../../tests/fixtures/raw");

/** A little-endian TIFF head with one directory of SHORT/ASCII fields, as a camera's first bytes. */
function tiffHead(fields: Array<{ tag: number; short?: number; text?: string }>): Buffer {
  const head = Buffer.alloc(1024);
  head.write("II*\0", 0, "latin1");
  head.writeUInt32LE(8, 4);
  head.writeUInt16LE(fields.length, 8);
  let textOffset = 8 + 2 + fields.length * 12 + 4;
  fields.forEach((field, index) => {
    const entry = 10 + index * 12;
    head.writeUInt16LE(field.tag, entry);
    if (field.text !== undefined) {
      head.writeUInt16LE(2, entry + 2);
      head.writeUInt32LE(field.text.length + 1, entry + 4);
      head.writeUInt32LE(textOffset, entry + 8);
      head.write(`${field.text}\0`, textOffset, "latin1");
      textOffset += field.text.length + 2;
    } else {
      head.writeUInt16LE(3, entry + 2);
      head.writeUInt32LE(1, entry + 4);
      head.writeUInt16LE(field.short ?? 0, entry + 8);
    }
  });
  return head;
}

describe("RAW formats are told by content, never by name", () => {
  it.each<[string, RawFormat]>([
    ["CanonRaw.cr2", "cr2"],
    ["CanonRaw.cr3", "cr3"],
    ["DNG.dng", "dng"],
    ["FujiFilm.raf", "raf"],
    ["Nikon.nef", "nef"],
    ["Panasonic.rw2", "rw2"],
  ])("ExifTool's %s is %s", (name, format) => {
    expect(detectRawFormatFromHead(readFileSync(path.join(SAMPLES, name)))).toBe(format);
  });

  it("a DNG written from a photo is a DNG, with or without its preview in IFD0", async () => {
    const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#4080c0" } }).png().toBuffer();
    expect(detectRawFormatFromHead(await writeTestDng(photo, 64))).toBe("dng");
    expect(detectRawFormatFromHead(await writeTestDng(photo, 64, { previewWidth: 32 }))).toBe("dng");
  });

  it.each<[string, RawFormat]>([
    ["SONY", "arw"],
    ["PENTAX Corporation", "pef"],
    ["NIKON CORPORATION", "nef"],
  ])("a TIFF of sensor data (CFA) made by %s is %s", (make, format) => {
    expect(detectRawFormatFromHead(tiffHead([{ tag: 262, short: 32803 }, { tag: 271, text: make }]))).toBe(format);
  });

  it("ORF's own TIFF signatures are Olympus RAW", () => {
    const head = Buffer.alloc(64);
    head.write("IIRO", 0, "latin1");
    expect(detectRawFormatFromHead(head)).toBe("orf");
  });

  it("an ordinary TIFF photo, even one a Nikon scanner made, is not a RAW", async () => {
    const tiff = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#808080" } }).tiff().toBuffer();
    expect(detectRawFormatFromHead(tiff)).toBeNull();
    expect(detectRawFormatFromHead(tiffHead([{ tag: 262, short: 2 }, { tag: 271, text: "NIKON" }]))).toBeNull();
  });

  it("other files, short heads and directories pointing outside the file are not RAW", () => {
    expect(detectRawFormatFromHead(Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...new Array<number>(60).fill(0)]))).toBeNull();
    expect(detectRawFormatFromHead(Buffer.from("II*\0", "latin1"))).toBeNull();
    const outside = Buffer.alloc(64);
    outside.write("II*\0", 0, "latin1");
    outside.writeUInt32LE(0xfffffff0, 4);
    expect(detectRawFormatFromHead(outside)).toBeNull();
    // An MP4 or a HEIC is ISO-BMFF like CR3, with other brands.
    const mp4 = Buffer.alloc(64);
    mp4.writeUInt32BE(24, 0);
    mp4.write("ftypisom", 4, "latin1");
    expect(detectRawFormatFromHead(mp4)).toBeNull();
  });
});
