// Shared by the RAW tests only (unit and integration): writes small DNGs from ordinary photos, so
// decoding can be tested both ways (embedded preview, LibRaw) without shipping camera files.
import sharp from "sharp";

const BYTE = 1;
const ASCII = 2;
const SHORT = 3;
const LONG = 4;
const RATIONAL = 5;
const SRATIONAL = 10;
type FieldType = typeof BYTE | typeof ASCII | typeof SHORT | typeof LONG | typeof RATIONAL | typeof SRATIONAL;

interface Field {
  tag: number;
  type: FieldType;
  /** Numbers (a rational is two: numerator, denominator), or the text of an ASCII field. */
  values: number[] | string;
}

interface Directory {
  fields: Field[];
  /** The one strip of image data this directory describes. */
  strip: Buffer;
}

export interface DngOptions {
  /** A JPEG preview this wide is put in IFD0 (the Bayer data goes to a SubIFD); none when omitted. */
  previewWidth?: number;
  /** EXIF orientation of the DNG (1-8); the preview and the mosaic are stored unturned. */
  orientation?: number;
  make?: string;
  model?: string;
  /** DateTimeOriginal, as EXIF writes it ("2024:05:01 10:00:00"); none when omitted. */
  takenAt?: string;
  /** Cut the Bayer strip short by this many bytes (a file LibRaw cannot decode). */
  truncateMosaicBy?: number;
}

const WHITE_LEVEL = 4095;

/**
 * A DNG of `source` (any image sharp reads) at `width` pixels wide: an RGGB Bayer mosaic of 16-bit
 * linear values (12 bits used), and optionally an embedded JPEG preview, as a camera would write it.
 * The colour matrix is XYZ(D65) to linear sRGB, so a LibRaw decode gives back the source's colours.
 */
export async function writeTestDng(source: Buffer | string, width: number, options: DngOptions = {}): Promise<Buffer> {
  const { data, info } = await sharp(source).rotate().resize({ width }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  // Even sizes, so the 2×2 pattern tiles the image.
  const mosaicWidth = info.width & ~1;
  const mosaicHeight = info.height & ~1;
  const mosaic = Buffer.alloc(mosaicWidth * mosaicHeight * 2);
  const linear = Array.from({ length: 256 }, (_, value) => Math.round(Math.pow(value / 255, 2.2) * WHITE_LEVEL));
  for (let y = 0; y < mosaicHeight; y += 1) {
    for (let x = 0; x < mosaicWidth; x += 1) {
      // R G / G B
      const channel = y % 2 === 0 ? (x % 2 === 0 ? 0 : 1) : x % 2 === 0 ? 1 : 2;
      mosaic.writeUInt16LE(linear[data[(y * info.width + x) * 3 + channel]], (y * mosaicWidth + x) * 2);
    }
  }
  const strip = options.truncateMosaicBy ? mosaic.subarray(0, mosaic.length - options.truncateMosaicBy) : mosaic;
  const raw: Directory = {
    fields: [
      { tag: 254, type: LONG, values: [0] },
      { tag: 256, type: LONG, values: [mosaicWidth] },
      { tag: 257, type: LONG, values: [mosaicHeight] },
      { tag: 258, type: SHORT, values: [16] },
      { tag: 259, type: SHORT, values: [1] },
      { tag: 262, type: SHORT, values: [32803] }, // CFA
      { tag: 277, type: SHORT, values: [1] },
      { tag: 278, type: LONG, values: [mosaicHeight] },
      { tag: 284, type: SHORT, values: [1] },
      { tag: 33421, type: SHORT, values: [2, 2] }, // CFARepeatPatternDim
      { tag: 33422, type: BYTE, values: [0, 1, 1, 2] }, // CFAPattern: RGGB
      { tag: 50717, type: LONG, values: [WHITE_LEVEL] },
    ],
    strip,
  };
  const camera: Field[] = [
    { tag: 271, type: ASCII, values: options.make ?? "Contact Sheet" },
    { tag: 272, type: ASCII, values: options.model ?? "Test DNG" },
    { tag: 274, type: SHORT, values: [options.orientation ?? 1] },
    { tag: 50706, type: BYTE, values: [1, 4, 0, 0] }, // DNGVersion
    { tag: 50707, type: BYTE, values: [1, 1, 0, 0] }, // DNGBackwardVersion
    { tag: 50708, type: ASCII, values: `${options.make ?? "Contact Sheet"} ${options.model ?? "Test DNG"}` },
    // ColorMatrix1, XYZ to camera: the camera is linear sRGB.
    { tag: 50721, type: SRATIONAL, values: [32406, -15372, -4986, -9689, 18758, 415, 557, -2040, 10570].flatMap((value) => [value, 10000]) },
    { tag: 50778, type: SHORT, values: [21] }, // CalibrationIlluminant1: D65
    { tag: 50728, type: RATIONAL, values: [1, 1, 1, 1, 1, 1] }, // AsShotNeutral
    ...(options.takenAt ? [{ tag: 36867, type: ASCII, values: options.takenAt } as Field] : []),
  ];
  if (!options.previewWidth) return writeTiff([{ fields: [...camera, ...raw.fields], strip: raw.strip }]);

  const preview = await sharp(source).rotate().resize({ width: options.previewWidth }).jpeg({ quality: 85 }).toBuffer();
  const previewSize = await sharp(preview).metadata();
  const ifd0: Directory = {
    fields: [
      ...camera,
      { tag: 254, type: LONG, values: [1] }, // a reduced-resolution image
      { tag: 256, type: LONG, values: [previewSize.width ?? 0] },
      { tag: 257, type: LONG, values: [previewSize.height ?? 0] },
      { tag: 258, type: SHORT, values: [8, 8, 8] },
      { tag: 259, type: SHORT, values: [7] }, // JPEG
      { tag: 262, type: SHORT, values: [6] }, // YCbCr
      { tag: 277, type: SHORT, values: [3] },
      { tag: 278, type: LONG, values: [previewSize.height ?? 0] },
      { tag: 284, type: SHORT, values: [1] },
    ],
    strip: preview,
  };
  return writeTiff([ifd0, raw]);
}

/**
 * A little-endian TIFF of one directory, or of IFD0 with the second as its SubIFD. Each directory
 * has one strip; StripOffsets, StripByteCounts and SubIFDs are filled in here.
 */
function writeTiff(directories: Directory[]): Buffer {
  const laidOut = directories.map((directory, index) => ({
    ...directory,
    fields: [
      ...directory.fields,
      { tag: 273, type: LONG, values: [0] } as Field,
      { tag: 279, type: LONG, values: [directory.strip.length] } as Field,
      ...(index === 0 && directories.length > 1 ? [{ tag: 330, type: LONG, values: [0] } as Field] : []),
    ].sort((a, b) => a.tag - b.tag),
  }));
  // Where each directory, its out-of-line values and its strip go.
  let offset = 8;
  const positions = laidOut.map((directory) => {
    const ifdOffset = offset;
    offset += 2 + directory.fields.length * 12 + 4;
    for (const field of directory.fields) {
      const size = encodeValues(field).length;
      if (size > 4) offset += size + (size % 2);
    }
    const stripOffset = offset;
    offset += directory.strip.length + (directory.strip.length % 2);
    return { ifdOffset, stripOffset };
  });
  laidOut.forEach((directory, index) => {
    for (const field of directory.fields) {
      if (field.tag === 273) field.values = [positions[index].stripOffset];
      if (field.tag === 330) field.values = [positions[1].ifdOffset];
    }
  });

  const file = Buffer.alloc(offset);
  file.write("II", 0, "latin1");
  file.writeUInt16LE(42, 2);
  file.writeUInt32LE(positions[0].ifdOffset, 4);
  laidOut.forEach((directory, index) => {
    let entry = positions[index].ifdOffset;
    let dataOffset = entry + 2 + directory.fields.length * 12 + 4;
    file.writeUInt16LE(directory.fields.length, entry);
    entry += 2;
    for (const field of directory.fields) {
      const bytes = encodeValues(field);
      file.writeUInt16LE(field.tag, entry);
      file.writeUInt16LE(field.type, entry + 2);
      file.writeUInt32LE(typeof field.values === "string" ? bytes.length : countOf(field), entry + 4);
      if (bytes.length <= 4) {
        bytes.copy(file, entry + 8);
      } else {
        file.writeUInt32LE(dataOffset, entry + 8);
        bytes.copy(file, dataOffset);
        dataOffset += bytes.length + (bytes.length % 2);
      }
      entry += 12;
    }
    file.writeUInt32LE(0, entry); // no next IFD
    directory.strip.copy(file, positions[index].stripOffset);
  });
  return file;
}

function countOf(field: Field): number {
  const values = field.values as number[];
  return field.type === RATIONAL || field.type === SRATIONAL ? values.length / 2 : values.length;
}

function encodeValues(field: Field): Buffer {
  if (typeof field.values === "string") return Buffer.from(`${field.values}\0`, "latin1");
  const values = field.values;
  switch (field.type) {
    case BYTE:
      return Buffer.from(values);
    case SHORT: {
      const bytes = Buffer.alloc(values.length * 2);
      values.forEach((value, index) => bytes.writeUInt16LE(value, index * 2));
      return bytes;
    }
    case LONG:
    case RATIONAL: {
      const bytes = Buffer.alloc(values.length * 4);
      values.forEach((value, index) => bytes.writeUInt32LE(value, index * 4));
      return bytes;
    }
    case SRATIONAL: {
      const bytes = Buffer.alloc(values.length * 4);
      values.forEach((value, index) => bytes.writeInt32LE(value, index * 4));
      return bytes;
    }
    default:
      throw new RangeError(`No encoding for field type ${field.type}`);
  }
}
