import type { ImageType } from "./image-type-detector";

/**
 * Finds the EXIF block (the TIFF structure EXIF is stored as) inside an image file of each type we
 * accept, without decoding anything: the APP1 segment of a JPEG, the `Exif` item of a HEIF or
 * AVIF, the `eXIf` chunk of a PNG, the `EXIF` chunk of a WebP, the file itself for a TIFF. GIF has
 * none. Answers null when there is none or the container does not parse.
 */
export function readExifBlock(file: Buffer, type: ImageType): Buffer | null {
  try {
    switch (type) {
      case "jpeg":
        return readJpegExif(file);
      case "heic":
      case "avif":
        return readIsoBmffExif(file);
      case "png":
        return readPngExif(file);
      case "webp":
        return readWebpExif(file);
      case "tiff":
        return file;
      case "gif":
        return null;
      // A RAW's EXIF is spread over maker-specific containers; its download copy carries none.
      case "raw":
        return null;
    }
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

const EXIF_HEADER = Buffer.from("Exif\0\0", "latin1");

function withoutExifHeader(block: Buffer): Buffer {
  return block.subarray(0, 6).equals(EXIF_HEADER) ? block.subarray(6) : block;
}

function readJpegExif(file: Buffer): Buffer | null {
  let offset = 2;
  while (offset + 4 <= file.length && file[offset] === 0xff) {
    const marker = file[offset + 1];
    // Metadata segments all come before the first scan.
    if (marker === 0xda || marker === 0xd9) return null;
    const length = file.readUInt16BE(offset + 2);
    const data = file.subarray(offset + 4, offset + 2 + length);
    if (marker === 0xe1 && data.subarray(0, 6).equals(EXIF_HEADER)) return data.subarray(6);
    offset += 2 + length;
  }
  return null;
}

interface Box {
  type: string;
  start: number;
  end: number;
}

function* readBoxes(file: Buffer, start: number, end: number): Generator<Box> {
  let offset = start;
  while (offset + 8 <= end) {
    let size = file.readUInt32BE(offset);
    const type = file.toString("latin1", offset + 4, offset + 8);
    let header = 8;
    if (size === 1) {
      size = Number(file.readBigUInt64BE(offset + 8));
      header = 16;
    } else if (size === 0) {
      size = end - offset;
    }
    if (size < header || offset + size > end) return;
    yield { type, start: offset + header, end: offset + size };
    offset += size;
  }
}

function findBox(file: Buffer, start: number, end: number, type: string): Box | undefined {
  for (const box of readBoxes(file, start, end)) if (box.type === type) return box;
  return undefined;
}

function readSizedNumber(file: Buffer, offset: number, size: number): number {
  if (size === 0) return 0;
  if (size === 4) return file.readUInt32BE(offset);
  if (size === 8) return Number(file.readBigUInt64BE(offset));
  if (size === 2) return file.readUInt16BE(offset);
  throw new RangeError(`unsupported field size ${size}`);
}

/** The id of the item of type `Exif` in an `iinf` box (ISO/IEC 14496-12, 8.11.6). */
function findExifItemId(file: Buffer, iinf: Box): number | null {
  const version = file[iinf.start];
  const entriesStart = iinf.start + 4 + (version === 0 ? 2 : 4);
  for (const infe of readBoxes(file, entriesStart, iinf.end)) {
    if (infe.type !== "infe") continue;
    const infeVersion = file[infe.start];
    if (infeVersion < 2) continue;
    const idSize = infeVersion === 2 ? 2 : 4;
    const itemId = readSizedNumber(file, infe.start + 4, idSize);
    const itemType = file.toString("latin1", infe.start + 4 + idSize + 2, infe.start + 4 + idSize + 6);
    if (itemType === "Exif") return itemId;
  }
  return null;
}

/** The bytes of an item stored in the file itself, from the `iloc` box (ISO/IEC 14496-12, 8.11.3). */
function readItemBytes(file: Buffer, iloc: Box, wantedId: number): Buffer | null {
  const version = file[iloc.start];
  let offset = iloc.start + 4;
  const offsetSize = file[offset] >> 4;
  const lengthSize = file[offset] & 0x0f;
  const baseOffsetSize = file[offset + 1] >> 4;
  const indexSize = version === 1 || version === 2 ? file[offset + 1] & 0x0f : 0;
  offset += 2;
  const itemCount = version < 2 ? file.readUInt16BE(offset) : file.readUInt32BE(offset);
  offset += version < 2 ? 2 : 4;
  for (let item = 0; item < itemCount; item += 1) {
    const itemId = version < 2 ? file.readUInt16BE(offset) : file.readUInt32BE(offset);
    offset += version < 2 ? 2 : 4;
    const constructionMethod = version === 1 || version === 2 ? file.readUInt16BE(offset) & 0x0f : 0;
    if (version === 1 || version === 2) offset += 2;
    offset += 2; // data_reference_index
    const baseOffset = readSizedNumber(file, offset, baseOffsetSize);
    offset += baseOffsetSize;
    const extentCount = file.readUInt16BE(offset);
    offset += 2;
    const parts: Buffer[] = [];
    for (let extent = 0; extent < extentCount; extent += 1) {
      offset += indexSize;
      const extentOffset = readSizedNumber(file, offset, offsetSize);
      offset += offsetSize;
      const extentLength = readSizedNumber(file, offset, lengthSize);
      offset += lengthSize;
      const start = baseOffset + extentOffset;
      if (start + extentLength > file.length) throw new RangeError("item outside the file");
      parts.push(file.subarray(start, start + extentLength));
    }
    // Construction method 0: the bytes are at file offsets; the others (idat, another item) are not used for EXIF in practice.
    if (itemId === wantedId) return constructionMethod === 0 ? Buffer.concat(parts) : null;
  }
  return null;
}

function readIsoBmffExif(file: Buffer): Buffer | null {
  const meta = findBox(file, 0, file.length, "meta");
  if (!meta) return null;
  // `meta` is a full box: version and flags come before its children.
  const iinf = findBox(file, meta.start + 4, meta.end, "iinf");
  const iloc = findBox(file, meta.start + 4, meta.end, "iloc");
  if (!iinf || !iloc) return null;
  const exifId = findExifItemId(file, iinf);
  if (exifId === null) return null;
  const item = readItemBytes(file, iloc, exifId);
  if (!item || item.length < 4) return null;
  // The item starts with the offset of the TIFF header within the rest (usually past "Exif\0\0").
  return item.subarray(4 + item.readUInt32BE(0));
}

function readPngExif(file: Buffer): Buffer | null {
  let offset = 8;
  while (offset + 8 <= file.length) {
    const length = file.readUInt32BE(offset);
    const type = file.toString("latin1", offset + 4, offset + 8);
    if (type === "eXIf") return withoutExifHeader(file.subarray(offset + 8, offset + 8 + length));
    if (type === "IEND") return null;
    offset += 12 + length;
  }
  return null;
}

function readWebpExif(file: Buffer): Buffer | null {
  let offset = 12;
  while (offset + 8 <= file.length) {
    const type = file.toString("latin1", offset, offset + 4);
    const length = file.readUInt32LE(offset + 4);
    if (type === "EXIF") return withoutExifHeader(file.subarray(offset + 8, offset + 8 + length));
    offset += 8 + length + (length % 2);
  }
  return null;
}
