import { readFile } from "node:fs/promises";
import type { Metadata } from "sharp";
import { decodeHeicInWorker } from "./heic-worker-decoder";
import { isWideGamutProfile } from "./icc-profile-reader";
import type { ImageType } from "./image-type-detector";
import { readPhotoMetadata, type PhotoMetadata } from "./photo-metadata-reader";
import {
  assertWithinPixelLimit,
  createInvalidInputError,
  Deadline,
  toInvalidInputError,
  type ProcessingLimits,
} from "./processing-limits";
import { developRaw } from "./raw/raw-developer";
import { wrapPixelsInTiff } from "./raw-tiff-writer";
import { configureSharp, getHeaderInputOptions, getRawInputOptions, getUntrustedInputOptions } from "./sharp-setup";

/**
 * The colour space of decoded pixels and of every variant made from them; each variant embeds the
 * matching ICC profile. Wide-gamut photos stay Display P3; everything else becomes sRGB.
 */
export type ColourSpace = "srgb" | "display-p3";

/** Uncompressed 8-bit pixels, row by row, RGB or RGBA (straight alpha). */
export interface RawImage {
  pixels: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
}

/** A photo decoded once, upright, in its working colour space: the source of every variant. */
export interface DecodedPhoto extends RawImage {
  /** The type that was decoded. */
  type: ImageType;
  /** The space `pixels` are in and whose profile the variants carry. */
  colourSpace: ColourSpace;
  /** EXIF summary and GPS position, read from the original file. */
  metadata: PhotoMetadata;
  /** The original's upright size; `width` × `height` is smaller when it was decoded to `maxWidth`. */
  originalWidth: number;
  originalHeight: number;
}

export interface DecodeOptions {
  /**
   * Decode at most this wide (never wider than the original; the height follows). A JPEG or WebP
   * is then decoded at a fraction of its size (shrink-on-load), which costs a fraction of the time:
   * enough for the first, small variants. Width, not both sides, so that the smallest planned
   * width stays the same as for the full decode, however tall the photo.
   */
  maxWidth?: number;
  /**
   * "warning" also refuses data libjpeg only warns about (the upload check uses it to find a JPEG
   * that ends before its last row); the default, "error", accepts those warnings.
   */
  failOn?: "warning" | "error";
  /**
   * Degrees clockwise (0, 90, 180, 270) to turn the upright image by: the owner's rotation, on top
   * of the orientation the file records. `maxWidth` and `originalWidth`/`originalHeight` are of
   * the turned image.
   */
  rotation?: number;
}

const SHARP_FORMAT_OF: Record<Exclude<ImageType, "raw">, Metadata["format"]> = {
  jpeg: "jpeg",
  png: "png",
  webp: "webp",
  gif: "gif",
  tiff: "tiff",
  avif: "heif",
  heic: "heif",
};

export const CORRUPT_MESSAGE = "The image could not be decoded: the file is truncated or corrupt.";

/**
 * Decodes an upload once: checks the header's dimensions against the pixel limit before any pixel
 * is decoded, decodes the first frame only, applies the orientation, and converts to the working
 * colour space (Display P3 for wide-gamut profiles, sRGB for everything else, including CMYK,
 * greyscale and 16-bit). Alpha is kept only when some pixel is actually transparent.
 *
 * HEIC/HEIF is decoded by heic-decode, since sharp's libvips has no HEVC decoder. libheif applies
 * the container's rotation and mirror properties, which are authoritative in HEIF; the EXIF
 * orientation inside a HEIC is informative only and is ignored, or the photo would turn twice.
 *
 * @throws AppError INVALID_INPUT (422) for truncated or corrupt files, pixel bombs, content that is
 *   not what its magic bytes claim, and anything over the time budget.
 */
export async function decodePhoto(
  filePath: string,
  type: ImageType,
  limits: ProcessingLimits,
  options: DecodeOptions = {},
): Promise<DecodedPhoto> {
  const deadline = new Deadline(limits.timeoutSeconds);
  if (type === "raw") return decodeRawPhoto(filePath, limits, deadline, options);
  const header = await readCheckedHeader(filePath, type, limits, deadline);

  // The ftyp brands choose between the two HEIF decoders (libvips' `compression` is read from the
  // same brands). A file whose brands lie about its codec fails to decode and gets a 422.
  let image: RawImage & { colourSpace: ColourSpace };
  let upright: { width: number; height: number };
  if (type === "heic") {
    const tiff = await decodeHeicToTiff(filePath, header, limits, deadline);
    const tiffHeader = await readHeader(tiff, deadline);
    upright = { width: tiffHeader.width, height: tiffHeader.height };
    image = await decodeRawImage(tiff, tiffHeader, limits, deadline, options);
  } else {
    upright = header.autoOrient ?? { width: header.width, height: header.height };
    image = await decodeRawImage(filePath, header, limits, deadline, options);
  }
  if (isQuarterTurn(options.rotation)) upright = { width: upright.height, height: upright.width };

  return { ...image, type, metadata: await readPhotoMetadata(filePath), originalWidth: upright.width, originalHeight: upright.height };
}

/**
 * A camera RAW: developed into an ordinary image first (its embedded preview, or LibRaw's decode;
 * src/images/raw/raw-developer.ts), which then goes through the same decode as every upload. The
 * EXIF summary comes from the RAW itself, through ExifTool.
 */
async function decodeRawPhoto(filePath: string, limits: ProcessingLimits, deadline: Deadline, options: DecodeOptions): Promise<DecodedPhoto> {
  const developed = await developRaw(filePath, limits, deadline);
  const header = await readHeader(developed.image, deadline);
  assertWithinPixelLimit(header.width, header.height, limits);
  let upright = header.autoOrient ?? { width: header.width, height: header.height };
  const image = await decodeRawImage(developed.image, header, limits, deadline, options);
  if (isQuarterTurn(options.rotation)) upright = { width: upright.height, height: upright.width };
  const { exif, gps } = developed.metadata;
  return { ...image, type: "raw", metadata: { exif, gps }, originalWidth: upright.width, originalHeight: upright.height };
}

/** Whether a turn by these degrees swaps width and height. */
function isQuarterTurn(rotation: number | undefined): boolean {
  return rotation === 90 || rotation === 270;
}

/**
 * Reads the header without decoding pixels and refuses what is not worth decoding: content that
 * is not the type its magic bytes claim, and more pixels than the limit (a pixel bomb).
 */
export async function readCheckedHeader(filePath: string, type: Exclude<ImageType, "raw">, limits: ProcessingLimits, deadline: Deadline): Promise<Metadata> {
  const header = await readHeader(filePath, deadline);
  if (header.format !== SHARP_FORMAT_OF[type]) {
    throw createInvalidInputError("The image could not be decoded: its content does not match its type.");
  }
  assertWithinPixelLimit(header.width, header.height, limits);
  return header;
}

async function readHeader(input: string | Buffer, deadline: Deadline): Promise<Metadata> {
  try {
    return await configureSharp()(input, getHeaderInputOptions()).metadata();
  } catch (error) {
    throw toInvalidInputError(error, deadline, CORRUPT_MESSAGE);
  }
}

/** One full decode to upright 8-bit pixels in the working colour space. */
async function decodeRawImage(
  input: string | Buffer,
  header: Metadata,
  limits: ProcessingLimits,
  deadline: Deadline,
  { maxWidth, failOn = "error", rotation = 0 }: DecodeOptions,
): Promise<RawImage & { colourSpace: ColourSpace }> {
  const sharp = configureSharp();
  const colourSpace: ColourSpace = isWideGamutProfile(header.icc) ? "display-p3" : "srgb";

  let pipeline = sharp(input, { ...getUntrustedInputOptions(limits), failOn }).timeout({ seconds: deadline.remainingSeconds() });
  // After the input's own orientation (autoOrient), before the resize: maxWidth is the turned width.
  if (rotation % 360 !== 0) pipeline = pipeline.rotate(rotation);
  if (maxWidth) pipeline = pipeline.resize({ width: maxWidth, withoutEnlargement: true });
  if (colourSpace === "display-p3") {
    // sharp converts embedded profiles to Display P3 only when the pipeline is 16-bit RGB; the
    // result is then cast to 8 bits without another colour conversion.
    pipeline = pipeline.pipelineColourspace("rgb16");
  } else if (header.space === "rgb16") {
    // Left alone, sharp would convert 16-bit RGB to P3 values and return them untagged.
    pipeline = pipeline.pipelineColourspace("srgb");
  }

  let decoded: { data: Buffer; info: { width: number; height: number; channels: number } };
  try {
    decoded = await pipeline.toColourspace("srgb").raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw toInvalidInputError(error, deadline, CORRUPT_MESSAGE);
  }
  const { data, info } = decoded;
  if (info.channels !== 3 && info.channels !== 4) {
    throw createInvalidInputError("The image could not be decoded: it has an unsupported channel layout.");
  }
  const image: RawImage = { pixels: data, width: info.width, height: info.height, channels: info.channels };
  return { ...(await dropOpaqueAlpha(image, limits, deadline)), colourSpace };
}

/**
 * Many PNG, TIFF and every GIF and HEIC decode carry an alpha channel that is opaque everywhere;
 * dropping it makes every later resize and encode cheaper and keeps WebP/AVIF free of alpha planes.
 */
async function dropOpaqueAlpha(image: RawImage, limits: ProcessingLimits, deadline: Deadline): Promise<RawImage> {
  if (image.channels !== 4 || !isOpaque(image.pixels)) return image;
  deadline.assertNotExpired();
  const { data } = await configureSharp()(image.pixels, getRawInputOptions(image, limits))
    .timeout({ seconds: deadline.remainingSeconds() })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { pixels: data, width: image.width, height: image.height, channels: 3 };
}

function isOpaque(rgba: Uint8Array): boolean {
  for (let index = 3; index < rgba.length; index += 4) {
    if (rgba[index] !== 255) return false;
  }
  return true;
}

/**
 * Decodes the first top-level HEIF image with heic-decode (in a worker thread) and wraps its pixels,
 * with the file's ICC profile (an iPhone's Display P3), in a TIFF that sharp then decodes like any
 * other upload.
 */
async function decodeHeicToTiff(
  filePath: string,
  header: Metadata,
  limits: ProcessingLimits,
  deadline: Deadline,
): Promise<Buffer> {
  const { pixels, width, height } = await decodeHeicInWorker(await readFile(filePath), limits, deadline);
  return wrapPixelsInTiff({ pixels, width, height, channels: 4, iccProfile: header.icc });
}
