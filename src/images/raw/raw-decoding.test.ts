import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it, vi } from "vitest";
import { AppError } from "@/src/errors/app-error";
import { decodePhoto, type DecodedPhoto } from "../photo-decoder";
import { Deadline } from "../processing-limits";
import { writeTestDng } from "./dng-test-writer";
import { developRaw } from "./raw-developer";
import { endExifTool, getExifTool } from "./raw-exiftool";
import { readRawMetadata, readRawMetadataAndPreviews } from "./raw-metadata-reader";

const LIMITS = { maxPixels: 120_000_000, timeoutSeconds: 60 };
const SAMPLES = path.resolve(import.meta.dirname, "../../../tests/fixtures/raw");
const directory = mkdtempSync(path.join(tmpdir(), "raw-decoding-"));

afterAll(async () => {
  await endExifTool();
  rmSync(directory, { recursive: true, force: true });
});

/** A photo whose left half is red and right half blue: which way up and which colours survive is plain. */
async function redBlueImage(width: number, height: number): Promise<Buffer> {
  const half = await sharp({ create: { width: width / 2, height, channels: 3, background: "#2040d0" } }).png().toBuffer();
  return sharp({ create: { width, height, channels: 3, background: "#d03020" } })
    .composite([{ input: half, left: width / 2, top: 0 }])
    .png()
    .toBuffer();
}

async function writeDng(name: string, source: Buffer, width: number, options: Parameters<typeof writeTestDng>[2] = {}): Promise<string> {
  const filePath = path.join(directory, name);
  writeFileSync(filePath, await writeTestDng(source, width, options));
  return filePath;
}

/** The mean colour of a column band of the decoded pixels, from `from` to `to` (fractions of the width). */
function meanColour(decoded: DecodedPhoto, from: number, to: number): number[] {
  const sums = [0, 0, 0];
  let count = 0;
  for (let y = 0; y < decoded.height; y += 1) {
    for (let x = Math.floor(decoded.width * from); x < Math.floor(decoded.width * to); x += 1) {
      const offset = (y * decoded.width + x) * decoded.channels;
      for (let channel = 0; channel < 3; channel += 1) sums[channel] += decoded.pixels[offset + channel];
      count += 1;
    }
  }
  return sums.map((sum) => sum / count);
}

function expectRed([red, green, blue]: number[]): void {
  expect(red).toBeGreaterThan(green + 60);
  expect(red).toBeGreaterThan(blue + 60);
}

function expectBlue([red, green, blue]: number[]): void {
  expect(blue).toBeGreaterThan(red + 60);
  expect(blue).toBeGreaterThan(green + 60);
}

describe("a RAW's variants come from its embedded preview when it is wide enough", () => {
  it("a DNG whose preview is as wide as the sensor is decoded from the preview, turned by the DNG's orientation", async () => {
    const filePath = await writeDng("preview.dng", await redBlueImage(320, 200), 320, { previewWidth: 320, orientation: 6 });
    const developed = await developRaw(filePath, LIMITS, new Deadline(60));
    expect(developed.source).toBe("preview");
    const decoded = await decodePhoto(filePath, "raw", LIMITS);
    // Turned a quarter clockwise: the red left half is now at the top.
    expect([decoded.originalWidth, decoded.originalHeight]).toEqual([200, 320]);
    expect(decoded.metadata.exif.cameraModel).toBe("Test DNG");
    const top = { ...decoded, height: 100 };
    expectRed(meanColour(top, 0, 1));
  });

  it("its summary and its previews are read in one ExifTool task, the summary the same as on its own", async () => {
    const filePath = await writeDng("one-task.dng", await redBlueImage(320, 200), 320, { previewWidth: 320, model: "One Task DNG" });
    const exiftool = await getExifTool();
    const readRaw = vi.spyOn(exiftool, "readRaw");
    const extractBinary = vi.spyOn(exiftool, "extractBinaryTagToBuffer");
    try {
      const developed = await developRaw(filePath, LIMITS, new Deadline(60));
      expect(developed.source).toBe("preview");
      expect([readRaw.mock.calls.length, extractBinary.mock.calls.length]).toEqual([1, 0]);
      expect(developed.metadata).toEqual(await readRawMetadata(filePath));
      expect(developed.metadata.exif.cameraModel).toBe("One Task DNG");
    } finally {
      readRaw.mockRestore();
      extractBinary.mockRestore();
    }
  });

  it.each([
    ["FujiFilm.raf", "PreviewImage"],
    ["Panasonic.rw2", "JpgFromRaw"],
  ])("%s: the preview read with the summary is the one ExifTool extracts on its own (%s)", async (name, tag) => {
    const filePath = path.join(SAMPLES, name);
    const { metadata, previews } = await readRawMetadataAndPreviews(filePath);
    expect(metadata).toEqual(await readRawMetadata(filePath));
    const alone = await (await getExifTool()).extractBinaryTagToBuffer(tag, filePath);
    expect(previews.some((preview) => preview.equals(alone))).toBe(true);
  });

  it("a preview narrower than the largest variant the photo gets is passed over for LibRaw's decode", async () => {
    const filePath = await writeDng("narrow-preview.dng", await redBlueImage(320, 200), 320, { previewWidth: 160 });
    expect((await developRaw(filePath, LIMITS, new Deadline(60))).source).toBe("libraw");
  });
});

describe("a RAW without a usable preview is decoded by LibRaw", () => {
  it("a Bayer-mosaic DNG comes back upright at full size with its colours", async () => {
    const filePath = await writeDng("mosaic.dng", await redBlueImage(320, 200), 320);
    const decoded = await decodePhoto(filePath, "raw", LIMITS);
    expect([decoded.originalWidth, decoded.originalHeight, decoded.type]).toEqual([320, 200, "raw"]);
    // Away from the border between the halves, where demosaicing mixes them.
    expectRed(meanColour(decoded, 0.05, 0.4));
    expectBlue(meanColour(decoded, 0.6, 0.95));
  });

  it("a DNG whose sensor data is cut short is refused with LibRaw's reason (the photo is marked failed with it)", async () => {
    const filePath = await writeDng("truncated.dng", await redBlueImage(320, 200), 320, { truncateMosaicBy: 60_000 });
    const error = await decodePhoto(filePath, "raw", LIMITS).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("INVALID_INPUT");
    expect((error as AppError).message).toMatch(/^The RAW file could not be decoded by LibRaw: .*end of file/);
    // The temporary path never reaches a message a user reads.
    expect((error as AppError).message).not.toContain(directory);
  });

  it("without dcraw_emu the reason says what to install", async () => {
    const filePath = await writeDng("no-tool.dng", await redBlueImage(64, 32), 64);
    const error = await decodePhoto(filePath, "raw", { ...LIMITS, dcrawEmuPath: path.join(directory, "missing-dcraw_emu") }).catch((caught: unknown) => caught);
    expect((error as AppError).message).toMatch(/libraw-bin.*DCRAW_EMU_PATH/);
  });

  it("a decode that outlasts the time budget is killed and refused", async () => {
    const slow = path.join(directory, "slow-dcraw_emu");
    writeFileSync(slow, "#!/bin/sh\nexec sleep 30\n");
    chmodSync(slow, 0o755);
    const filePath = await writeDng("slow.dng", await redBlueImage(64, 32), 64);
    const started = performance.now();
    const error = await decodePhoto(filePath, "raw", { maxPixels: LIMITS.maxPixels, timeoutSeconds: 1, dcrawEmuPath: slow }).catch((caught: unknown) => caught);
    expect((error as AppError).message).toMatch(/took longer than 1 seconds/);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe("RAW metadata is read by ExifTool from every format", () => {
  it.each([
    ["CanonRaw.cr2", { cameraMake: "Canon", cameraModel: "Canon EOS 350D DIGITAL", iso: 400, exposureTime: "1/15", takenAt: "2005-08-03T18:59:18" }],
    ["CanonRaw.cr3", { cameraMake: "Canon", cameraModel: "Canon EOS M50", lens: "EF-M15-45mm f/3.5-6.3 IS STM", iso: 12800, takenAt: "2018-02-21T12:08:56+00:00" }],
    ["DNG.dng", { cameraMake: "Canon", cameraModel: "Canon EOS 350D DIGITAL", aperture: 8 }],
    ["FujiFilm.raf", { cameraMake: "FUJIFILM", cameraModel: "FinePix S5Pro", iso: 100, exposureTime: "1/250", takenAt: "2007-05-22T13:58:30" }],
    ["Nikon.nef", { cameraMake: "NIKON CORPORATION", cameraModel: "NIKON D70", focalLength: 18, iso: 200 }],
    // exifr reads no ISO from RW2 (Panasonic keeps it in a tag of its own) and nothing from CR3 and RAF.
    ["Panasonic.rw2", { cameraMake: "Panasonic", cameraModel: "DMC-LX3", iso: 80, aperture: 4 }],
  ])("%s", async (name, expected) => {
    const metadata = await readRawMetadata(path.join(SAMPLES, name));
    expect(metadata.exif).toMatchObject(expected);
  });

  it("a file ExifTool cannot read gives empty fields, not an error", async () => {
    const filePath = path.join(directory, "not-raw.dng");
    writeFileSync(filePath, "II*\0 not really");
    const metadata = await readRawMetadata(filePath);
    expect([metadata.exif.cameraMake, metadata.orientation, metadata.sensorSize]).toEqual([null, 1, null]);
  });
});
