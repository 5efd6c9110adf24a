/**
 * Rewrites a JPEG's metadata without touching its compressed pixels (a lossless rewrite): the
 * segments that carry pixels or are needed to decode them are copied byte for byte, the EXIF
 * segment is replaced by the one given (or left out), and every other metadata segment is dropped.
 *
 * Kept: JFIF (with its thumbnail size set to none), the ICC colour profile (APP2 `ICC_PROFILE`),
 * Adobe's APP14 (it says how to read CMYK and YCCK colours), and everything that is not APPn or a
 * comment. Dropped: the old EXIF (with its maker notes, serials, GPS and thumbnail), XMP (which can
 * hold location, names and edit history), IPTC/Photoshop (APP13), MPF and the images it points at
 * after the end of the first one, FlashPix, maker-specific APPn, comments, and any bytes after EOI.
 */

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const APP0 = 0xe0;
const APP1 = 0xe1;
const APP2 = 0xe2;
const APP14 = 0xee;
const COM = 0xfe;
const MAXIMUM_SEGMENT_DATA = 0xffff - 2;

export class MalformedJpegError extends Error {}

function segment(marker: number, data: Buffer): Buffer {
  if (data.length > MAXIMUM_SEGMENT_DATA) throw new MalformedJpegError("segment too large");
  const header = Buffer.from([0xff, marker, 0, 0]);
  header.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([header, data]);
}

/** JFIF's fixed fields (identifier, version, density), with no thumbnail. */
function jfifWithoutThumbnail(data: Buffer): Buffer | null {
  if (data.length < 14 || data.toString("latin1", 0, 5) !== "JFIF\0") return null;
  const fixed = Buffer.from(data.subarray(0, 14));
  fixed[12] = 0;
  fixed[13] = 0;
  return fixed;
}

function startsWithText(data: Buffer, text: string): boolean {
  return data.toString("latin1", 0, text.length) === text;
}

/** Where the entropy-coded data that starts at `offset` ends: at the next marker that is not a restart or a stuffed byte. */
function endOfScanData(jpeg: Buffer, offset: number): number {
  for (let index = offset; index + 1 < jpeg.length; index += 1) {
    if (jpeg[index] !== 0xff) continue;
    const next = jpeg[index + 1];
    if (next === 0x00 || next === 0xff || (next >= 0xd0 && next <= 0xd7)) continue;
    return index;
  }
  throw new MalformedJpegError("the image data has no end");
}

/** The JPEG with `exif` (a TIFF block, or null for none) as its only EXIF and no other metadata but the colour profile. */
export function rewriteJpegMetadata(jpeg: Buffer, exif: Buffer | null): Buffer {
  if (jpeg[0] !== 0xff || jpeg[1] !== SOI) throw new MalformedJpegError("not a JPEG");
  const leading: Buffer[] = [jpeg.subarray(0, 2)];
  const rest: Buffer[] = [];
  let offset = 2;
  for (;;) {
    if (offset + 2 > jpeg.length || jpeg[offset] !== 0xff) throw new MalformedJpegError("expected a marker");
    const marker = jpeg[offset + 1];
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === EOI) {
      rest.push(jpeg.subarray(offset, offset + 2));
      break;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      rest.push(jpeg.subarray(offset, offset + 2));
      offset += 2;
      continue;
    }
    if (offset + 4 > jpeg.length) throw new MalformedJpegError("truncated segment");
    const end = offset + 2 + jpeg.readUInt16BE(offset + 2);
    if (end > jpeg.length) throw new MalformedJpegError("truncated segment");
    const data = jpeg.subarray(offset + 4, end);
    if (marker === APP0) {
      const jfif = jfifWithoutThumbnail(data);
      if (jfif && leading.length === 1) leading.push(segment(APP0, jfif));
    } else if (marker === APP2 && startsWithText(data, "ICC_PROFILE\0")) {
      rest.push(jpeg.subarray(offset, end));
    } else if (marker === APP14 && startsWithText(data, "Adobe")) {
      rest.push(jpeg.subarray(offset, end));
    } else if ((marker >= APP0 && marker <= 0xef) || marker === COM) {
      // Every other APPn (APP1's EXIF and XMP among them) and comments: dropped.
    } else if (marker === SOS) {
      const scanEnd = endOfScanData(jpeg, end);
      rest.push(jpeg.subarray(offset, scanEnd));
      offset = scanEnd;
      continue;
    } else {
      rest.push(jpeg.subarray(offset, end));
    }
    offset = end;
  }
  // JFIF first when there is one (its rule), then EXIF, then the rest in their order.
  const exifSegment = exif ? [segment(APP1, Buffer.concat([Buffer.from("Exif\0\0", "latin1"), exif]))] : [];
  return Buffer.concat([...leading, ...exifSegment, ...rest]);
}
