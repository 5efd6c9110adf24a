import { createUnsupportedTypeError } from "./processing-limits";
import { readAscii, readUint32, startsWith } from "./file-head";

/**
 * The image types we accept, decided by content: from the file's first bytes here, and "raw" (any
 * camera RAW, src/images/raw) from its directories by `resolveImageType`.
 */
export type ImageType = "jpeg" | "png" | "webp" | "avif" | "heic" | "tiff" | "gif" | "raw";

/** How many leading bytes `detectImageType` needs at most: the `ftyp` box with its brands fits in this. */
export const IMAGE_TYPE_HEAD_BYTES = 256;

const AVIF_BRANDS = new Set(["avif", "avis"]);
// HEVC-coded HEIF (image, sequence, and their multi-layer and extended-range forms).
const HEIC_BRANDS = new Set(["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"]);
// Generic HEIF brands that name no codec; Nokia and others write `mif1` as the major brand.
const GENERIC_HEIF_BRANDS = new Set(["mif1", "msf1"]);

/**
 * Decides the type of an upload from its first bytes (pass at least `IMAGE_TYPE_HEAD_BYTES` when
 * the file is that long), never from its name or declared type. Returns null for anything we do not
 * accept: SVG, HTML, XML, PDF, executables, other image formats, and truncated heads.
 */
export function detectImageType(head: Uint8Array): ImageType | null {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (readAscii(head, 0, 6) === "GIF87a" || readAscii(head, 0, 6) === "GIF89a") return "gif";
  if (readAscii(head, 0, 4) === "RIFF" && readAscii(head, 8, 12) === "WEBP") return "webp";
  if (isTiff(head)) return "tiff";
  if (readAscii(head, 4, 8) === "ftyp") return detectHeifFamily(head);
  return null;
}

/**
 * Like `detectImageType`, for callers that refuse what it does not recognise.
 *
 * @throws AppError UNSUPPORTED_MEDIA_TYPE (415) for anything but an accepted image type.
 */
export function getImageType(head: Uint8Array): ImageType {
  const type = detectImageType(head);
  if (!type) throw createUnsupportedTypeError();
  return type;
}

/** Classic TIFF (`II*\0`, `MM\0*`) and BigTIFF (`II+\0`, `MM\0+`), which libtiff reads alike. */
function isTiff(head: Uint8Array): boolean {
  return (
    startsWith(head, [0x49, 0x49, 0x2a, 0x00]) ||
    startsWith(head, [0x4d, 0x4d, 0x00, 0x2a]) ||
    startsWith(head, [0x49, 0x49, 0x2b, 0x00]) ||
    startsWith(head, [0x4d, 0x4d, 0x00, 0x2b])
  );
}

/**
 * AVIF and HEIC share the ISO-BMFF `ftyp` box: a major brand, a minor version, then compatible
 * brands. The major brand decides when it names a codec; otherwise the compatible brands do, AVIF
 * first because AV1 files often list `mif1` and `miaf` too. Other `ftyp` files (MP4, MOV, JPEG 2000,
 * CR3) are refused.
 */
function detectHeifFamily(head: Uint8Array): ImageType | null {
  const boxSize = readUint32(head, 0);
  // Sizes 0 ("to the end") and 1 ("64-bit size") are legal for other boxes, never for a real ftyp.
  if (boxSize < 16 || head.length < 16) return null;
  // A box longer than the head we were given: judge by the brands that are there.
  const end = Math.min(head.length, boxSize);
  const major = readAscii(head, 8, 12);
  const compatible: string[] = [];
  for (let offset = 16; offset + 4 <= end; offset += 4) compatible.push(readAscii(head, offset, offset + 4));

  if (AVIF_BRANDS.has(major)) return "avif";
  if (HEIC_BRANDS.has(major)) return "heic";
  if (compatible.some((brand) => AVIF_BRANDS.has(brand))) return "avif";
  if (compatible.some((brand) => HEIC_BRANDS.has(brand))) return "heic";
  if (GENERIC_HEIF_BRANDS.has(major) || compatible.some((brand) => GENERIC_HEIF_BRANDS.has(brand))) return "heic";
  return null;
}
