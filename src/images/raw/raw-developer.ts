import { rewriteJpegMetadata } from "../jpeg-metadata-rewriter";
import { assertWithinPixelLimit, type Deadline, type ProcessingLimits } from "../processing-limits";
import { configureSharp, getHeaderInputOptions } from "../sharp-setup";
import { VARIANT_WIDTHS } from "../variant-plan";
import { decodeWithLibRaw } from "./libraw-decoder";
import { readRawMetadataAndPreviews, type RawMetadata } from "./raw-metadata-reader";

/** Where a RAW's pixels came from, for the log and the tests. */
export type RawSource = "preview" | "libraw";

/** A RAW file made into an ordinary image that sharp decodes like any upload. */
export interface DevelopedRaw {
  /** A JPEG (the embedded preview, carrying the RAW's orientation) or an upright TIFF (LibRaw's). */
  image: Buffer;
  source: RawSource;
  metadata: RawMetadata;
}

/**
 * A preview a few percent narrower than the sensor still covers it: sensors have border pixels that
 * no developed image shows (6024 sensor columns for a 6000-pixel photo).
 */
const SENSOR_BORDER_ALLOWANCE = 0.95;

/**
 * Makes a RAW file into an image sharp can decode: its embedded JPEG preview when that is as wide
 * as the largest variant the photo gets (min of the largest variant width and the sensor's width),
 * which costs a read; otherwise LibRaw's decode of the sensor data, which costs seconds.
 */
export async function developRaw(filePath: string, limits: ProcessingLimits, deadline: Deadline): Promise<DevelopedRaw> {
  const { metadata, previews } = await readRawMetadataAndPreviews(filePath);
  deadline.assertNotExpired();
  const preview = await findLargestPreview(previews);
  if (preview && previewCovers(preview, metadata)) {
    assertWithinPixelLimit(preview.width, preview.height, limits);
    // The preview is stored unturned; the RAW's orientation is the one that counts.
    return { image: rewriteJpegMetadata(preview.bytes, orientationExif(metadata.orientation)), source: "preview", metadata };
  }
  if (metadata.sensorSize) assertWithinPixelLimit(metadata.sensorSize.width, metadata.sensorSize.height, limits);
  return { image: await decodeWithLibRaw(filePath, limits.dcrawEmuPath ?? "dcraw_emu", limits, deadline), source: "libraw", metadata };
}

interface Preview {
  bytes: Buffer;
  width: number;
  height: number;
}

/** The widest of the embedded images that is a JPEG sharp can read, or null when there is none. */
async function findLargestPreview(candidates: Buffer[]): Promise<Preview | null> {
  let largest: Preview | null = null;
  for (const bytes of candidates) {
    if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) continue;
    try {
      const { width, height, format } = await configureSharp()(bytes, getHeaderInputOptions()).metadata();
      if (format === "jpeg" && width && height && (!largest || width > largest.width)) largest = { bytes, width, height };
    } catch {
      continue;
    }
  }
  return largest;
}

/** Whether the preview is as wide as the largest variant, compared unturned, like the sensor. */
function previewCovers(preview: Preview, metadata: RawMetadata): boolean {
  const largestVariant = VARIANT_WIDTHS[VARIANT_WIDTHS.length - 1];
  const sensor = metadata.sensorSize;
  const isQuarterTurned = metadata.orientation >= 5;
  const previewSide = isQuarterTurned ? preview.height : preview.width;
  if (!sensor) return previewSide >= largestVariant;
  const sensorSide = isQuarterTurned ? sensor.height : sensor.width;
  return previewSide >= Math.min(largestVariant, sensorSide * SENSOR_BORDER_ALLOWANCE);
}

/** A TIFF block holding only an orientation, as a JPEG's EXIF. */
function orientationExif(orientation: number): Buffer {
  const block = Buffer.alloc(26);
  block.write("II*\0", 0, "latin1");
  block.writeUInt32LE(8, 4);
  block.writeUInt16LE(1, 8); // one entry
  block.writeUInt16LE(0x0112, 10); // Orientation
  block.writeUInt16LE(3, 12); // SHORT
  block.writeUInt32LE(1, 14);
  block.writeUInt16LE(orientation, 18);
  block.writeUInt32LE(0, 22); // no next directory
  return block;
}
