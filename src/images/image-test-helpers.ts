// Shared by the image unit tests only. Reads the shared corpus in place; nothing is copied.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { crc32, deflateSync } from "node:zlib";
import sharp from "sharp";
import { AppError } from "@/src/errors/app-error";
import { getImageType, IMAGE_TYPE_HEAD_BYTES } from "./image-type-detector";
import { decodePhoto, type DecodedPhoto } from "./photo-decoder";
import { DEFAULT_MAX_PIXELS, type ProcessingLimits } from "./processing-limits";
import { encodeVariants, type EncodedVariant } from "./variant-encoder";

/** The real-photo corpus next to the repository (see ../shared/corpus/README.md). */
export const CORPUS_DIR = path.resolve(import.meta.dirname, "../../../shared/corpus");

/** Generous enough that a slow CI machine never trips it by accident; the timeout test sets its own. */
export const TEST_LIMITS: ProcessingLimits = { maxPixels: DEFAULT_MAX_PIXELS, timeoutSeconds: 60 };

/** Every file under `directory`, recursively, sorted. */
export function listFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true })
    .flatMap((entry) => {
      const entryPath = path.join(directory, entry.name);
      return entry.isDirectory() ? listFiles(entryPath) : [entryPath];
    })
    .sort();
}

export function corpusPath(...segments: string[]): string {
  return path.join(CORPUS_DIR, ...segments);
}

/** What an upload handler would do with a file: refuse by content, else decode once. */
export async function decodeFile(filePath: string, limits = TEST_LIMITS): Promise<DecodedPhoto> {
  const type = getImageType(readFileSync(filePath).subarray(0, IMAGE_TYPE_HEAD_BYTES));
  return decodePhoto(filePath, type, limits);
}

/** Decode plus the first phase: what makes a photo visible. */
export async function processToVisible(
  filePath: string,
  limits = TEST_LIMITS,
): Promise<{ decoded: DecodedPhoto; variants: EncodedVariant[] }> {
  const decoded = await decodeFile(filePath, limits);
  return { decoded, variants: await encodeVariants(decoded, "visible", limits) };
}

/** Runs `action` and returns the AppError it throws; fails when it throws anything else or nothing. */
export async function captureAppError(action: () => Promise<unknown>): Promise<AppError> {
  try {
    await action();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw new Error(`Expected an AppError, got: ${String(error)}`, { cause: error });
  }
  throw new Error("Expected an AppError, but the call succeeded.");
}

/** A scratch directory for generated inputs; call the returned function to remove it. */
export function createScratchDirectory(): { directory: string; write: (name: string, bytes: Uint8Array) => string; remove: () => void } {
  const directory = mkdtempSync(path.join(tmpdir(), "contact-sheet-images-"));
  return {
    directory,
    write: (name, bytes) => {
      const filePath = path.join(directory, name);
      writeFileSync(filePath, bytes);
      return filePath;
    },
    remove: () => rmSync(directory, { recursive: true, force: true }),
  };
}

/** A small greyscale rendition (size × size, aspect ignored) for comparing what two images show. */
export async function renderGreyThumbnail(input: Buffer | string, size = 32): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp(input).resize({ width: size, height: size, fit: "fill" }).greyscale().raw().toBuffer(),
  );
}

/** Mean absolute difference of two equally sized greyscale renditions, 0-255. */
export function meanAbsoluteDifference(left: Uint8Array, right: Uint8Array): number {
  if (left.length !== right.length) throw new RangeError("Renditions differ in size.");
  let total = 0;
  for (let index = 0; index < left.length; index++) total += Math.abs(left[index] - right[index]);
  return total / left.length;
}

/** The first pixel's channel values, read without colour management (the stored numbers). */
export async function readStoredPixel(input: Buffer, x = 0, y = 0): Promise<number[]> {
  const { data, info } = await sharp(input, { ignoreIcc: true }).raw().toBuffer({ resolveWithObject: true });
  const offset = (y * info.width + x) * info.channels;
  return Array.from(data.subarray(offset, offset + info.channels));
}

/** One pixel after sharp's default conversion to sRGB through the embedded profile (what a browser shows). */
export async function readDisplayedPixel(input: Buffer, x = 0, y = 0): Promise<number[]> {
  const { data, info } = await sharp(input).toColourspace("srgb").raw().toBuffer({ resolveWithObject: true });
  const offset = (y * info.width + x) * info.channels;
  return Array.from(data.subarray(offset, offset + info.channels));
}

function pngChunk(type: string, data: Uint8Array): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, checksum]);
}

/** A valid, flat, 1-bit 30000 × 30000 PNG: 900 megapixels in about 110 kB. */
export function makePixelBombPng(): Buffer {
  const side = 30_000;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc((Math.ceil(side / 8) + 1) * side);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(rows, { level: 9 })),
    pngChunk("IEND", new Uint8Array(0)),
  ]);
}

/** A JPEG segment (APPn and the like) with its length field. */
export function jpegSegment(marker: number, payload: Uint8Array): Buffer {
  const length = Buffer.alloc(2);
  length.writeUInt16BE(payload.length + 2);
  return Buffer.concat([Buffer.from([0xff, marker]), length, payload]);
}

/** Inserts segments right after a JPEG's SOI marker. */
function withJpegSegments(jpeg: Buffer, ...segments: Buffer[]): Buffer {
  return Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
}

/** Inserts an APP2 ICC_PROFILE segment after SOI. */
export function tagJpeg(jpeg: Buffer, profile: Buffer): Buffer {
  return withJpegSegments(jpeg, jpegSegment(0xe2, Buffer.concat([Buffer.from("ICC_PROFILE\0", "latin1"), Buffer.from([1, 1]), profile])));
}

/** Inserts an iCCP chunk right after IHDR: the PNG now claims its numbers are in `profile`'s space. */
export function tagPng(png: Buffer, profile: Buffer): Buffer {
  const afterHeader = 8 + 25; // signature, then IHDR (length, type, 13 bytes, CRC)
  const chunk = pngChunk("iCCP", Buffer.concat([Buffer.from("profile\0\0", "latin1"), deflateSync(profile)]));
  return Buffer.concat([png.subarray(0, afterHeader), chunk, png.subarray(afterHeader)]);
}

/** One of libvips' built-in ICC profiles ("srgb", "p3", "cmyk"), as bytes. */
export async function builtInProfile(name: string): Promise<Buffer> {
  const tagged = await sharp({ create: { width: 1, height: 1, channels: 3, background: "#000" } }).withIccProfile(name).png().toBuffer();
  const { icc } = await sharp(tagged).metadata();
  if (!icc) throw new Error(`No ${name} profile`);
  return icc;
}

/** A solid 16 × 16 PNG with exactly these 8-bit channel values (3 or 4) and no profile. */
export function solidPng(values: number[]): Promise<Buffer> {
  const channels = values.length as 3 | 4;
  const pixels = Buffer.alloc(16 * 16 * channels);
  for (let index = 0; index < pixels.length; index++) pixels[index] = values[index % channels];
  return sharp(pixels, { raw: { width: 16, height: 16, channels } }).png().toBuffer();
}

/** `count` frames of 64 × 64, the first white, then alternating black and white. */
export async function makeAnimation(format: "gif" | "webp", count: number): Promise<Buffer> {
  const frameBytes = 64 * 64 * 3;
  const pixels = Buffer.alloc(frameBytes * count);
  for (let frame = 0; frame < count; frame++) pixels.fill(frame % 2 === 0 ? 255 : 0, frame * frameBytes, (frame + 1) * frameBytes);
  return sharp(pixels, { raw: { width: 64, height: 64 * count, channels: 3, pageHeight: 64 } })
    .toFormat(format, format === "webp" ? { effort: 0 } : {})
    .toBuffer();
}

/** The colour of every image made by makeJunkMetadataJpegs, and what its pixels decode to. */
export const JUNK_METADATA_COLOUR = { background: "#c04020", decoded: [193, 64, 32] } as const;

/**
 * 640 × 480 JPEGs of one colour whose metadata is hostile: 60 kB of EXIF and XMP (the XMP not even
 * XML), random EXIF bytes, an EXIF IFD offset pointing far outside the file, and 60 kB of random ICC
 * data. The strings "JUNK" and "JunkCam" inside must never reach a served file.
 */
export async function makeJunkMetadataJpegs(): Promise<Record<string, Buffer>> {
  const text = (value: string) => Buffer.from(value, "latin1");
  const base = await sharp({ create: { width: 640, height: 480, channels: 3, background: JUNK_METADATA_COLOUR.background } }).jpeg().toBuffer();
  const junkExif = await sharp(base)
    .withExif({ IFD0: { ImageDescription: "JUNKEXIF".repeat(7_500), Make: "JunkCam" } })
    .withXmp(`<x:xmpmeta xmlns:x="adobe:ns:meta/"><<<${"JUNKXMP&;".repeat(7_000)}`)
    .jpeg()
    .toBuffer();
  return {
    "60 kB EXIF and XMP": junkExif,
    "random EXIF": withJpegSegments(base, jpegSegment(0xe1, Buffer.concat([text("Exif\0\0"), randomBytes(60_000)]))),
    "EXIF with a wild IFD offset": withJpegSegments(base, jpegSegment(0xe1, Buffer.concat([text("Exif\0\0II*\0"), Buffer.from([0xff, 0xff, 0xff, 0x7f])]))),
    "random ICC": withJpegSegments(base, jpegSegment(0xe2, Buffer.concat([text("ICC_PROFILE\0"), Buffer.from([1, 1]), randomBytes(60_000)]))),
  };
}
