import { open } from "node:fs/promises";
import { detectImageType, type ImageType } from "../image-type-detector";

/** The camera RAW formats we accept, decided by content. */
export type RawFormat = "dng" | "cr2" | "cr3" | "nef" | "arw" | "raf" | "rw2" | "orf" | "pef";

/** How far into a TIFF-structured file its directories are looked for (they sit near the start). */
const DIRECTORY_SEARCH_BYTES = 256 * 1024;
/** Bounds on the walk, so a crafted file with looping or huge directories costs nothing. */
const MAXIMUM_DIRECTORIES = 16;
const MAXIMUM_ENTRIES = 1000;

const TAG_MAKE = 271;
const TAG_PHOTOMETRIC = 262;
const TAG_SUB_IFDS = 330;
const TAG_DNG_VERSION = 50706;
/** Photometric interpretations only sensor data has: a colour filter array, or linear raw. */
const SENSOR_PHOTOMETRICS = new Set([32803, 34892]);

/**
 * Decides whether a file is a camera RAW, and which, from its content, never its name. The formats
 * with a signature of their own (CR2, CR3, RAF, RW2, ORF) are told by their first bytes; DNG, NEF,
 * ARW and PEF are TIFF files, told from a plain TIFF by their directories: a DNG version tag, or
 * an image of sensor data (CFA or linear raw) in IFD0, the next directories or their SubIFDs, with
 * the maker's name choosing the format. Answers null for everything else, TIFF photos included.
 */
export async function detectRawFormat(filePath: string): Promise<RawFormat | null> {
  const file = await open(filePath, "r");
  try {
    const head = Buffer.alloc(DIRECTORY_SEARCH_BYTES);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    return detectRawFormatFromHead(head.subarray(0, bytesRead));
  } finally {
    await file.close();
  }
}

/** `detectRawFormat` for bytes already read: the file's start, up to DIRECTORY_SEARCH_BYTES. */
export function detectRawFormatFromHead(head: Buffer): RawFormat | null {
  if (head.length < 16) return null;
  const ascii = (start: number, end: number) => head.toString("latin1", start, end);
  if (ascii(0, 16) === "FUJIFILMCCD-RAW ") return "raf";
  if (ascii(4, 8) === "ftyp" && ascii(8, 12) === "crx ") return "cr3";
  if (ascii(0, 4) === "IIU\0") return "rw2";
  if (["IIRO", "IIRS", "MMOR"].includes(ascii(0, 4))) return "orf";
  const littleEndian = ascii(0, 4) === "II*\0";
  if (!littleEndian && ascii(0, 4) !== "MM\0*") return null;
  if (littleEndian && ascii(8, 10) === "CR" && head[10] === 2) return "cr2";
  return detectTiffRaw(new TiffReader(head, littleEndian));
}

function detectTiffRaw(reader: TiffReader): RawFormat | null {
  const ifd0 = reader.uint32(4);
  const make = reader.readAscii(ifd0, TAG_MAKE)?.toUpperCase() ?? "";
  if (reader.findEntry(ifd0, TAG_DNG_VERSION) !== null) return "dng";
  if (!hasSensorData(reader, ifd0)) return null;
  if (make.startsWith("NIKON")) return "nef";
  if (make.startsWith("SONY")) return "arw";
  if (make.startsWith("PENTAX") || make.startsWith("RICOH") || make.startsWith("ASAHI")) return "pef";
  // Sensor data from a maker whose TIFF-based RAW we do not name: LibRaw may well read it, but we
  // accept only the formats we test.
  return null;
}

/** Whether IFD0, the directories chained after it, or their SubIFDs hold sensor data. */
function hasSensorData(reader: TiffReader, ifd0: number): boolean {
  const queue = [ifd0];
  const seen = new Set<number>();
  while (queue.length > 0 && seen.size < MAXIMUM_DIRECTORIES) {
    const offset = queue.shift() as number;
    if (offset === 0 || seen.has(offset) || !reader.holds(offset, 2)) continue;
    seen.add(offset);
    const photometric = reader.readNumbers(offset, TAG_PHOTOMETRIC)?.[0];
    if (photometric !== undefined && SENSOR_PHOTOMETRICS.has(photometric)) return true;
    queue.push(...(reader.readNumbers(offset, TAG_SUB_IFDS) ?? []));
    const next = reader.nextDirectory(offset);
    if (next !== null) queue.push(next);
  }
  return false;
}

/** Bounds-checked reads of a TIFF structure's directories within the bytes at hand. */
class TiffReader {
  constructor(
    private readonly bytes: Buffer,
    private readonly littleEndian: boolean,
  ) {}

  holds(offset: number, length: number): boolean {
    return offset >= 0 && offset + length <= this.bytes.length;
  }

  uint16(offset: number): number {
    return this.littleEndian ? this.bytes.readUInt16LE(offset) : this.bytes.readUInt16BE(offset);
  }

  uint32(offset: number): number {
    return this.littleEndian ? this.bytes.readUInt32LE(offset) : this.bytes.readUInt32BE(offset);
  }

  /** The offset of the 12-byte entry for `tag` in the directory at `directory`, or null. */
  findEntry(directory: number, tag: number): number | null {
    if (!this.holds(directory, 2)) return null;
    const count = Math.min(this.uint16(directory), MAXIMUM_ENTRIES);
    for (let index = 0; index < count; index += 1) {
      const entry = directory + 2 + index * 12;
      if (!this.holds(entry, 12)) return null;
      if (this.uint16(entry) === tag) return entry;
    }
    return null;
  }

  nextDirectory(directory: number): number | null {
    const pointer = directory + 2 + this.uint16(directory) * 12;
    return this.holds(pointer, 4) ? this.uint32(pointer) : null;
  }

  /** The SHORT or LONG values of a tag (at most 16), or null. */
  readNumbers(directory: number, tag: number): number[] | null {
    const entry = this.findEntry(directory, tag);
    if (entry === null) return null;
    const type = this.uint16(entry + 2);
    const count = Math.min(this.uint32(entry + 4), 16);
    const size = type === 3 ? 2 : type === 4 || type === 13 ? 4 : 0;
    if (size === 0) return null;
    const start = size * count <= 4 ? entry + 8 : this.uint32(entry + 8);
    if (!this.holds(start, size * count)) return null;
    return Array.from({ length: count }, (_, index) => (size === 2 ? this.uint16(start + index * 2) : this.uint32(start + index * 4)));
  }

  /** An ASCII tag's text (at most 64 characters), or null. */
  readAscii(directory: number, tag: number): string | null {
    const entry = this.findEntry(directory, tag);
    if (entry === null || this.uint16(entry + 2) !== 2) return null;
    const count = Math.min(this.uint32(entry + 4), 64);
    const start = count <= 4 ? entry + 8 : this.uint32(entry + 8);
    if (!this.holds(start, count)) return null;
    return this.bytes.toString("latin1", start, start + count).replace(/\0.*$/s, "");
  }
}

/**
 * The type of an upload by content: a camera RAW (which needs the file's directories, so the file
 * itself) or what its first bytes say. Only a head that looks like TIFF or like nothing we know can
 * be a RAW, so JPEGs and the rest cost no extra read.
 */
export async function resolveImageType(filePath: string, head: Uint8Array): Promise<ImageType | null> {
  const byHead = detectImageType(head);
  if (byHead !== null && byHead !== "tiff") return byHead;
  return (await detectRawFormat(filePath)) ? "raw" : byHead;
}
