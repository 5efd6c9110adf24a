// Shared by the image unit tests only. Reads the shared corpus in place; nothing is copied.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { crc32, deflateSync } from "node:zlib";
import sharp from "sharp";
import { AppError } from "@/src/http/app-error";
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
