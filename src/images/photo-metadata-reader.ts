import exifr from "exifr";
import { type EmbeddedNotes, readEmbeddedNotes } from "./embedded-notes-reader";
import { configureSharp, getHeaderInputOptions } from "./sharp-setup";

/** The EXIF summary shown on a photo's page. Every field is null when absent or implausible. */
export interface ExifSummary {
  cameraMake: string | null;
  cameraModel: string | null;
  lens: string | null;
  /** Millimetres, as recorded (not 35 mm-equivalent). */
  focalLength: number | null;
  /** The f-number, e.g. 2.8. */
  aperture: number | null;
  /** Shutter speed for display: "1/250" below one second, "2" or "2.5" (seconds) above. */
  exposureTime: string | null;
  iso: number | null;
  /**
   * When the photo was taken, ISO 8601. With the camera's UTC offset when it recorded one
   * ("2022-02-16T12:55:41+01:00"); otherwise the camera's local wall-clock time without an offset
   * ("2008-05-30T15:56:01"), because EXIF gives no time zone and guessing one would be wrong.
   */
  takenAt: string | null;
}

/** Where the photo was taken. Kept for the owner; shown publicly only when the owner allows it. */
export interface GpsPosition {
  latitude: number;
  longitude: number;
  /** Metres above sea level (negative below), or null when not recorded. */
  altitude: number | null;
}

/** Everything we keep from a photo's metadata. */
export interface PhotoMetadata {
  exif: ExifSummary;
  gps: GpsPosition | null;
  /** The rating and colour label in the file's XMP, when it has either (JPEG, TIFF, HEIC, PNG). */
  notes?: EmbeddedNotes;
}

const MAXIMUM_TEXT_LENGTH = 100;

const EXIF_TAGS = [
  "Make",
  "Model",
  "LensModel",
  "LensMake",
  "LensInfo",
  "FocalLength",
  "FNumber",
  "ExposureTime",
  "ISO",
  "DateTimeOriginal",
  "CreateDate",
  "OffsetTimeOriginal",
  "OffsetTime",
  "GPSLatitude",
  "GPSLatitudeRef",
  "GPSLongitude",
  "GPSLongitudeRef",
  "GPSAltitude",
  "GPSAltitudeRef",
];

const EXIFR_OPTIONS = {
  tiff: true,
  exif: true,
  gps: true,
  // Only the tags above: maker notes, XMP, IPTC, ICC and thumbnails are where huge or malformed
  // blocks live, and nothing we show comes from them.
  ifd1: false,
  interop: false,
  makerNote: false,
  userComment: false,
  xmp: false,
  iptc: false,
  icc: false,
  jfif: false,
  ihdr: false,
  // Raw values: exifr would otherwise turn EXIF's zone-less dates into Dates in the server's zone.
  reviveValues: false,
  translateValues: false,
  pick: EXIF_TAGS,
};

/** A summary with every field empty: what a photo without usable metadata gets. */
export function createEmptyMetadata(): PhotoMetadata {
  return {
    exif: {
      cameraMake: null,
      cameraModel: null,
      lens: null,
      focalLength: null,
      aperture: null,
      exposureTime: null,
      iso: null,
      takenAt: null,
    },
    gps: null,
  };
}

/**
 * Reads the EXIF summary and GPS position of an image file with exifr. Never throws: a missing,
 * huge or malformed block gives null fields. Text is trimmed, stripped of control and bidi
 * characters, and capped at 100 characters; numbers outside plausible ranges become null.
 */
export async function readPhotoMetadata(filePath: string): Promise<PhotoMetadata> {
  const tags = (await readTagsFromFile(filePath)) ?? (await readTagsFromEmbeddedExif(filePath));
  // Its own read: a file with XMP but no EXIF (an exported PNG) still has its rating.
  const notes = await readEmbeddedNotes(filePath);
  const summary = tags ? summariseOrEmpty(tags) : createEmptyMetadata();
  return notes ? { ...summary, notes } : summary;
}

function summariseOrEmpty(tags: Record<string, unknown>): PhotoMetadata {
  try {
    return summariseTags(tags);
  } catch {
    return createEmptyMetadata();
  }
}

/** exifr reads JPEG, TIFF, HEIC and PNG directly (for TIFF this includes tags no EXIF block holds). */
async function readTagsFromFile(filePath: string): Promise<Record<string, unknown> | null> {
  try {
    return toTagRecord(await exifr.parse(filePath, EXIFR_OPTIONS));
  } catch {
    return null;
  }
}

/**
 * For WebP, AVIF and GIF exifr cannot find the EXIF block itself; libvips extracts it from the
 * header and exifr parses the TIFF structure inside.
 */
async function readTagsFromEmbeddedExif(filePath: string): Promise<Record<string, unknown> | null> {
  try {
    const sharp = configureSharp();
    const { exif } = await sharp(filePath, getHeaderInputOptions()).metadata();
    if (!exif || exif.length < 8) return null;
    const hasExifPrefix = exif.subarray(0, 6).toString("latin1") === "Exif\0\0";
    return toTagRecord(await exifr.parse(hasExifPrefix ? exif.subarray(6) : exif, EXIFR_OPTIONS));
  } catch {
    return null;
  }
}

function toTagRecord(value: unknown): Record<string, unknown> | null {
  if (typeof value !== "object" || value === null) return null;
  const record = value as Record<string, unknown>;
  return EXIF_TAGS.some((tag) => record[tag] !== undefined) ? record : null;
}

/**
 * The summary of tags read by any reader that names them as EXIF does (exifr here, ExifTool for
 * RAW files in src/images/raw): numbers as numbers, dates as EXIF's text, GPS as unsigned degrees
 * with a hemisphere letter.
 */
export function summariseTags(tags: Record<string, unknown>): PhotoMetadata {
  const focalLength = readNumber(tags.FocalLength, 0.1, 10_000);
  return {
    exif: {
      cameraMake: cleanText(tags.Make),
      cameraModel: cleanText(tags.Model),
      lens: cleanText(tags.LensModel) ?? formatLensInfo(tags.LensInfo),
      focalLength: focalLength === null ? null : roundTo(focalLength, 1),
      aperture: roundOrNull(readNumber(tags.FNumber, 0.5, 256), 1),
      exposureTime: formatExposureTime(readNumber(tags.ExposureTime, 1e-6, 24 * 60 * 60)),
      iso: roundOrNull(readNumber(tags.ISO, 1, 10_000_000), 0),
      takenAt: formatTakenAt(
        tags.DateTimeOriginal ?? tags.CreateDate,
        tags.OffsetTimeOriginal ?? tags.OffsetTime,
      ),
    },
    gps: readGpsPosition(tags),
  };
}

/**
 * EXIF strings are attacker-controlled: control characters (including NUL, CR, LF) and bidi
 * overrides, which could disguise text or break a header, are removed, whitespace is collapsed,
 * and the length is capped. Empty strings become null.
 */
export function cleanText(value: unknown, maximumLength = MAXIMUM_TEXT_LENGTH): string | null {
  if (typeof value !== "string") return null;
  const cleaned = value
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff\ufffd]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (cleaned.length === 0) return null;
  // Cut by code points so that a surrogate pair is never split in half.
  const codePoints = Array.from(cleaned);
  return codePoints.length > maximumLength ? codePoints.slice(0, maximumLength).join("").trimEnd() : cleaned;
}

/** A finite number within [minimum, maximum], from a number or the first element of a list. */
function readNumber(value: unknown, minimum: number, maximum: number): number | null {
  const candidate = Array.isArray(value) || ArrayBuffer.isView(value) ? readFirst(value) : value;
  if (typeof candidate !== "number" || !Number.isFinite(candidate)) return null;
  return candidate >= minimum && candidate <= maximum ? candidate : null;
}

function readFirst(value: unknown): unknown {
  if (Array.isArray(value)) return value[0];
  if (value instanceof Uint8Array || value instanceof Uint16Array || value instanceof Uint32Array) return value[0];
  return undefined;
}

function readNumberList(value: unknown): number[] | null {
  if (!Array.isArray(value)) return null;
  const numbers = value.filter((item): item is number => typeof item === "number" && Number.isFinite(item));
  return numbers.length === value.length ? numbers : null;
}

function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

function roundOrNull(value: number | null, decimals: number): number | null {
  return value === null ? null : roundTo(value, decimals);
}

/** "1/250" below a second (one decimal for slow speeds like 1/2.5), "2" or "2.5" at or above. */
export function formatExposureTime(seconds: number | null): string | null {
  if (seconds === null || seconds <= 0) return null;
  if (seconds >= 1) return String(roundTo(seconds, 1));
  const denominator = 1 / seconds;
  return `1/${denominator >= 10 ? Math.round(denominator) : roundTo(denominator, 1)}`;
}

/** LensInfo is [shortest focal, longest focal, widest f at short, widest f at long]. */
function formatLensInfo(value: unknown): string | null {
  const numbers = readNumberList(value);
  if (!numbers || numbers.length !== 4 || numbers[0] <= 0 || numbers[0] > 10_000) return null;
  const [shortFocal, longFocal, shortAperture, longAperture] = numbers.map((number) => roundTo(number, 1));
  const focal = longFocal > shortFocal ? `${shortFocal}-${longFocal}mm` : `${shortFocal}mm`;
  if (!(shortAperture > 0)) return focal;
  const aperture = longAperture > shortAperture ? `${shortAperture}-${longAperture}` : `${shortAperture}`;
  return `${focal} f/${aperture}`;
}

const EXIF_DATE = /^(\d{4})[:-](\d{2})[:-](\d{2})[ T](\d{2}):(\d{2}):(\d{2})/;
const UTC_OFFSET = /^([+-])(\d{2}):(\d{2})$/;

/** EXIF's "YYYY:MM:DD HH:MM:SS" plus an optional "+HH:MM" offset, as ISO 8601; null when invalid. */
export function formatTakenAt(dateValue: unknown, offsetValue: unknown): string | null {
  if (typeof dateValue !== "string") return null;
  const match = EXIF_DATE.exec(dateValue.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number);
  // Cameras without a set clock write 0000:00:00 or dates before photography existed.
  if (year < 1826 || year > 2200 || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > daysInMonth) return null;
  const local = `${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6]}`;
  const offset = typeof offsetValue === "string" ? UTC_OFFSET.exec(offsetValue.trim()) : null;
  if (!offset || Number(offset[2]) > 14 || Number(offset[3]) > 59) return local;
  return `${local}${offset[1]}${offset[2]}:${offset[3]}`;
}

function readGpsPosition(tags: Record<string, unknown>): GpsPosition | null {
  const latitude = readCoordinate(tags.GPSLatitude, tags.GPSLatitudeRef, "S", 90);
  const longitude = readCoordinate(tags.GPSLongitude, tags.GPSLongitudeRef, "W", 180);
  if (latitude === null || longitude === null) return null;
  // 0,0 is what receivers without a fix write; nobody photographs that spot in the Gulf of Guinea.
  if (latitude === 0 && longitude === 0) return null;
  const altitude = readNumber(tags.GPSAltitude, -20_000, 100_000);
  const isBelowSeaLevel = readNumber(tags.GPSAltitudeRef, 0, 255) === 1;
  return {
    latitude: roundTo(latitude, 7),
    longitude: roundTo(longitude, 7),
    altitude: altitude === null ? null : roundTo(isBelowSeaLevel ? -altitude : altitude, 1),
  };
}

/** Degrees, minutes, seconds and a hemisphere letter as signed decimal degrees. */
function readCoordinate(value: unknown, reference: unknown, negativeReference: string, limit: number): number | null {
  const parts = readNumberList(value) ?? (typeof value === "number" ? [value] : null);
  if (!parts || parts.length === 0 || parts.length > 3) return null;
  const [degrees, minutes = 0, seconds = 0] = parts;
  if (degrees < 0 || minutes < 0 || minutes >= 60 || seconds < 0 || seconds >= 60) return null;
  const magnitude = degrees + minutes / 60 + seconds / 3600;
  if (magnitude > limit) return null;
  const hemisphere = typeof reference === "string" ? reference.trim().toUpperCase() : "";
  return hemisphere === negativeReference ? -magnitude : magnitude;
}
