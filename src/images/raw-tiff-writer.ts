/** Interleaved 8-bit pixels to wrap: RGB, or RGBA with straight (not premultiplied) alpha. */
export interface PixelsToWrap {
  pixels: Uint8Array;
  width: number;
  height: number;
  channels: 3 | 4;
  /** Colour profile the pixel values are in; omitted means sRGB. */
  iccProfile?: Uint8Array;
}

const ROWS_PER_STRIP = 64;
const TYPE_SHORT = 3;
const TYPE_LONG = 4;
const TYPE_UNDEFINED = 7;

interface TiffField {
  tag: number;
  type: typeof TYPE_SHORT | typeof TYPE_LONG | typeof TYPE_UNDEFINED;
  values: readonly number[] | Uint8Array;
}

/**
 * Wraps decoded pixels and their ICC profile in a minimal uncompressed TIFF, so that pixels decoded
 * outside libvips (HEIC through heic-decode) enter the same sharp decode as every other upload: the
 * same colour management from the embedded profile, the same alpha handling, the same limits.
 * sharp's raw input cannot carry a profile, which is why this exists. Strips of 64 rows keep libtiff
 * from allocating one buffer as large as the image.
 */
export function wrapPixelsInTiff({ pixels, width, height, channels, iccProfile }: PixelsToWrap): Buffer {
  const rowBytes = width * channels;
  if (pixels.length !== rowBytes * height) throw new RangeError("Pixel buffer does not match its dimensions.");
  const stripCount = Math.ceil(height / ROWS_PER_STRIP);
  const stripByteCounts = Array.from({ length: stripCount }, (_, index) =>
    Math.min(ROWS_PER_STRIP, height - index * ROWS_PER_STRIP) * rowBytes,
  );

  const fields: TiffField[] = [
    { tag: 256, type: TYPE_LONG, values: [width] },
    { tag: 257, type: TYPE_LONG, values: [height] },
    { tag: 258, type: TYPE_SHORT, values: new Array<number>(channels).fill(8) },
    { tag: 259, type: TYPE_SHORT, values: [1] }, // no compression
    { tag: 262, type: TYPE_SHORT, values: [2] }, // RGB
    { tag: 273, type: TYPE_LONG, values: new Array<number>(stripCount).fill(0) }, // strip offsets, set below
    { tag: 277, type: TYPE_SHORT, values: [channels] },
    { tag: 278, type: TYPE_LONG, values: [ROWS_PER_STRIP] },
    { tag: 279, type: TYPE_LONG, values: stripByteCounts },
    { tag: 284, type: TYPE_SHORT, values: [1] }, // interleaved
  ];
  if (channels === 4) fields.push({ tag: 338, type: TYPE_SHORT, values: [2] }); // unassociated alpha
  if (iccProfile && iccProfile.length > 0) fields.push({ tag: 34675, type: TYPE_UNDEFINED, values: iccProfile });

  const ifdOffset = 8;
  const ifdSize = 2 + fields.length * 12 + 4;
  let dataOffset = ifdOffset + ifdSize;
  const outOfLine = new Map<TiffField, number>();
  for (const field of fields) {
    const size = fieldByteLength(field);
    if (size > 4) {
      outOfLine.set(field, dataOffset);
      dataOffset += size + (size % 2); // values start on a word boundary
    }
  }
  const pixelOffset = dataOffset;
  const stripOffsets = fields.find((field) => field.tag === 273);
  if (stripOffsets) {
    stripOffsets.values = stripByteCounts.map((_, index) => pixelOffset + index * ROWS_PER_STRIP * rowBytes);
  }

  const output = Buffer.alloc(pixelOffset + pixels.length);
  output.write("II", 0, "latin1");
  output.writeUInt16LE(42, 2);
  output.writeUInt32LE(ifdOffset, 4);
  output.writeUInt16LE(fields.length, ifdOffset);
  fields.forEach((field, index) => {
    const entry = ifdOffset + 2 + index * 12;
    output.writeUInt16LE(field.tag, entry);
    output.writeUInt16LE(field.type, entry + 2);
    output.writeUInt32LE(field.values.length, entry + 4);
    const valueOffset = outOfLine.get(field);
    if (valueOffset !== undefined) output.writeUInt32LE(valueOffset, entry + 8);
    writeValues(output, field, valueOffset ?? entry + 8);
  });
  output.writeUInt32LE(0, ifdOffset + 2 + fields.length * 12); // no further IFD
  output.set(pixels, pixelOffset);
  return output;
}

function fieldByteLength(field: TiffField): number {
  const unit = field.type === TYPE_LONG ? 4 : field.type === TYPE_SHORT ? 2 : 1;
  return unit * field.values.length;
}

function writeValues(output: Buffer, field: TiffField, offset: number): void {
  if (field.type === TYPE_UNDEFINED) {
    output.set(field.values, offset);
    return;
  }
  field.values.forEach((value, index) => {
    if (field.type === TYPE_LONG) output.writeUInt32LE(value, offset + index * 4);
    else output.writeUInt16LE(value, offset + index * 2);
  });
}
