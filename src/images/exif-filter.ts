/**
 * Rewrites an EXIF block (a TIFF structure) keeping only the tags the metadata policy lets others
 * see (src/photos/metadata-policy.ts): camera, lens, exposure, date and colour space, and the GPS
 * block only when the owner shows the location. Everything else goes: maker notes, serial numbers,
 * owner and contact fields, comments, software (edit history), the thumbnail (IFD1) and any IFD we
 * do not know. It is an allowlist, so a tag nobody thought of is dropped, not kept.
 *
 * Values are copied byte for byte (same byte order, same types), so nothing is re-interpreted or
 * rounded. A block that does not parse cleanly yields null: the copy then carries no EXIF at all.
 */

export interface ExifFilterOptions {
  keepLocation: boolean;
  /** Only when the pixels are the original's, not yet turned upright. */
  keepOrientation: boolean;
  /** Only when the pixels are the original's, at its size. */
  keepPixelDimensions: boolean;
  /**
   * Camera, lens, exposure and dates (the "EXIF" a share link can hide). Off, only what reading
   * the pixels needs is left: orientation and pixel dimensions (as the two options above allow) and
   * the colour space; the colour profile itself is a segment of its own that the rewrite keeps.
   * Unset means kept, as for every caller before share links.
   */
  keepCameraDetails?: boolean;
}

const EXIF_IFD_POINTER = 0x8769;
const GPS_IFD_POINTER = 0x8825;
const ORIENTATION = 0x0112;
const PIXEL_DIMENSIONS = new Set([0xa002, 0xa003]);
const COLOR_SPACE = 0xa001;

const IFD0_TAGS = new Set([
  0x010f, // Make
  0x0110, // Model
  ORIENTATION,
  0x011a, // XResolution
  0x011b, // YResolution
  0x0128, // ResolutionUnit
  0x0132, // DateTime
]);

const EXIF_TAGS = new Set([
  0x829a, // ExposureTime
  0x829d, // FNumber
  0x8822, // ExposureProgram
  0x8827, // ISO
  0x8830, // SensitivityType
  0x8832, // RecommendedExposureIndex
  0x9000, // ExifVersion
  0x9003, // DateTimeOriginal
  0x9004, // CreateDate
  0x9010, // OffsetTime
  0x9011, // OffsetTimeOriginal
  0x9012, // OffsetTimeDigitized
  0x9201, // ShutterSpeedValue
  0x9202, // ApertureValue
  0x9203, // BrightnessValue
  0x9204, // ExposureBiasValue
  0x9205, // MaxApertureValue
  0x9206, // SubjectDistance
  0x9207, // MeteringMode
  0x9208, // LightSource
  0x9209, // Flash
  0x920a, // FocalLength
  0x9290, // SubSecTime
  0x9291, // SubSecTimeOriginal
  0x9292, // SubSecTimeDigitized
  0xa000, // FlashpixVersion
  0xa001, // ColorSpace
  0xa002, // PixelXDimension
  0xa003, // PixelYDimension
  0xa217, // SensingMethod
  0xa401, // CustomRendered
  0xa402, // ExposureMode
  0xa403, // WhiteBalance
  0xa404, // DigitalZoomRatio
  0xa405, // FocalLengthIn35mmFormat
  0xa406, // SceneCaptureType
  0xa407, // GainControl
  0xa408, // Contrast
  0xa409, // Saturation
  0xa40a, // Sharpness
  0xa40c, // SubjectDistanceRange
  0xa432, // LensSpecification
  0xa433, // LensMake
  0xa434, // LensModel
]);

/** Bytes per value of each TIFF field type. */
const TYPE_SIZES: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4 };
const LONG = 4;
const MAXIMUM_ENTRIES = 1000;

interface Entry {
  tag: number;
  type: number;
  count: number;
  /** The value's bytes, in the block's byte order. */
  value: Buffer;
}

class MalformedExifError extends Error {}

class TiffReader {
  constructor(
    readonly bytes: Buffer,
    readonly isLittleEndian: boolean,
  ) {}

  u16(offset: number): number {
    this.assertInside(offset, 2);
    return this.isLittleEndian ? this.bytes.readUInt16LE(offset) : this.bytes.readUInt16BE(offset);
  }

  u32(offset: number): number {
    this.assertInside(offset, 4);
    return this.isLittleEndian ? this.bytes.readUInt32LE(offset) : this.bytes.readUInt32BE(offset);
  }

  slice(offset: number, length: number): Buffer {
    this.assertInside(offset, length);
    return this.bytes.subarray(offset, offset + length);
  }

  private assertInside(offset: number, length: number): void {
    if (offset < 0 || length < 0 || offset + length > this.bytes.length) throw new MalformedExifError("EXIF value outside the block");
  }

  readIfd(offset: number): Entry[] {
    const count = this.u16(offset);
    if (count > MAXIMUM_ENTRIES) throw new MalformedExifError("too many EXIF entries");
    const entries: Entry[] = [];
    for (let index = 0; index < count; index += 1) {
      const at = offset + 2 + index * 12;
      const tag = this.u16(at);
      const type = this.u16(at + 2);
      const valueCount = this.u32(at + 4);
      const typeSize = TYPE_SIZES[type];
      if (!typeSize) continue;
      const length = typeSize * valueCount;
      const value = length <= 4 ? this.slice(at + 8, length) : this.slice(this.u32(at + 8), length);
      entries.push({ tag, type, count: valueCount, value });
    }
    return entries;
  }
}

function readHeader(tiff: Buffer): TiffReader {
  if (tiff.length < 8) throw new MalformedExifError("EXIF block too short");
  const order = tiff.toString("latin1", 0, 2);
  if (order !== "II" && order !== "MM") throw new MalformedExifError("not a TIFF byte order");
  const reader = new TiffReader(tiff, order === "II");
  if (reader.u16(2) !== 42) throw new MalformedExifError("not a TIFF header");
  return reader;
}

/** The sub-IFD an IFD0 pointer entry names, read with the tags `keep` allows. */
function readSubIfd(reader: TiffReader, ifd0: Entry[], pointerTag: number, keep: (tag: number) => boolean): Entry[] {
  const pointer = ifd0.find((entry) => entry.tag === pointerTag);
  if (!pointer || pointer.value.length < 4) return [];
  const offset = reader.isLittleEndian ? pointer.value.readUInt32LE(0) : pointer.value.readUInt32BE(0);
  return reader.readIfd(offset).filter((entry) => keep(entry.tag));
}

/** The EXIF block with only the tags the policy allows, or null when nothing is left or it does not parse. */
export function filterExif(tiff: Buffer, options: ExifFilterOptions): Buffer | null {
  try {
    const reader = readHeader(tiff);
    const ifd0 = reader.readIfd(reader.u32(4));
    const keepsCamera = options.keepCameraDetails ?? true;
    const kept0 = ifd0.filter(
      (entry) => IFD0_TAGS.has(entry.tag) && (entry.tag === ORIENTATION ? options.keepOrientation : keepsCamera),
    );
    const exif = readSubIfd(reader, ifd0, EXIF_IFD_POINTER, (tag) => {
      if (!EXIF_TAGS.has(tag)) return false;
      if (PIXEL_DIMENSIONS.has(tag)) return options.keepPixelDimensions;
      return keepsCamera || tag === COLOR_SPACE;
    });
    // Every GPS tag describes where the photo was taken: the whole block, or none of it.
    const gps = options.keepLocation ? readSubIfd(reader, ifd0, GPS_IFD_POINTER, () => true) : [];
    if (kept0.length === 0 && exif.length === 0 && gps.length === 0) return null;
    return writeTiff(reader.isLittleEndian, kept0, exif, gps);
  } catch (error) {
    if (error instanceof MalformedExifError) return null;
    throw error;
  }
}

function padToEven(length: number): number {
  return length + (length % 2);
}

function sizeOfIfd(entries: Entry[]): number {
  const outOfLine = entries.reduce((sum, entry) => sum + (entry.value.length > 4 ? padToEven(entry.value.length) : 0), 0);
  return 2 + entries.length * 12 + 4 + outOfLine;
}

function pointerEntry(tag: number, offset: number, isLittleEndian: boolean): Entry {
  const value = Buffer.alloc(4);
  if (isLittleEndian) value.writeUInt32LE(offset);
  else value.writeUInt32BE(offset);
  return { tag, type: LONG, count: 1, value };
}

/** A TIFF block: IFD0 (with pointers to the EXIF and GPS IFDs when they have entries), then those IFDs; no IFD1. */
function writeTiff(isLittleEndian: boolean, ifd0: Entry[], exif: Entry[], gps: Entry[]): Buffer {
  const placeholder = (tag: number) => pointerEntry(tag, 0, isLittleEndian);
  const pointers = [...(exif.length > 0 ? [placeholder(EXIF_IFD_POINTER)] : []), ...(gps.length > 0 ? [placeholder(GPS_IFD_POINTER)] : [])];
  const ifd0Size = sizeOfIfd([...ifd0, ...pointers]);
  const exifOffset = 8 + ifd0Size;
  const gpsOffset = exifOffset + (exif.length > 0 ? sizeOfIfd(exif) : 0);
  const ifd0WithPointers = [
    ...ifd0,
    ...(exif.length > 0 ? [pointerEntry(EXIF_IFD_POINTER, exifOffset, isLittleEndian)] : []),
    ...(gps.length > 0 ? [pointerEntry(GPS_IFD_POINTER, gpsOffset, isLittleEndian)] : []),
  ];
  const ifds: Array<{ offset: number; entries: Entry[] }> = [{ offset: 8, entries: ifd0WithPointers }];
  if (exif.length > 0) ifds.push({ offset: exifOffset, entries: exif });
  if (gps.length > 0) ifds.push({ offset: gpsOffset, entries: gps });

  const total = ifds.reduce((sum, ifd) => sum + sizeOfIfd(ifd.entries), 8);
  const out = Buffer.alloc(total);
  const u16 = (value: number, at: number) => (isLittleEndian ? out.writeUInt16LE(value, at) : out.writeUInt16BE(value, at));
  const u32 = (value: number, at: number) => (isLittleEndian ? out.writeUInt32LE(value, at) : out.writeUInt32BE(value, at));
  out.write(isLittleEndian ? "II" : "MM", 0, "latin1");
  u16(42, 2);
  u32(8, 4);
  for (const { offset, entries } of ifds) {
    const sorted = [...entries].sort((a, b) => a.tag - b.tag);
    u16(sorted.length, offset);
    let dataOffset = offset + 2 + sorted.length * 12 + 4;
    sorted.forEach((entry, index) => {
      const at = offset + 2 + index * 12;
      u16(entry.tag, at);
      u16(entry.type, at + 2);
      u32(entry.count, at + 4);
      if (entry.value.length <= 4) {
        entry.value.copy(out, at + 8);
      } else {
        u32(dataOffset, at + 8);
        entry.value.copy(out, dataOffset);
        dataOffset += padToEven(entry.value.length);
      }
    });
    // The next-IFD offset stays 0: no IFD1, so no embedded thumbnail.
  }
  return out;
}
