import { FIRST_PHOTO_YEAR, LAST_PHOTO_YEAR } from "@/src/photos/taken-at-input";
import type { ImportMetadata } from "./import-metadata";
import { ImportReadError, type ImportReadResult } from "./import-read-error";
import { decodeSidecarText } from "./sidecar-text";

// A Google Takeout photo's JSON and an album folder's metadata.json, read into ImportMetadata.
// Takeout's `title` is, for almost every photo, just the file name as it was uploaded (Google
// Photos has no separate title); taking it as the photo's title would fill every title with
// "IMG_1234.jpg", so a title that looks like a file name is left out (it is still returned as
// `originalName`, which names a file whose name on disk Google cut). `photoTakenTime` is UTC seconds.
// `geoData` holds the owner's own corrections, `geoDataExif` the camera's; 0,0 means "none".

export interface TakeoutPhotoJson {
  metadata: ImportMetadata;
  /** The file name as uploaded to Google Photos, before Takeout cut it. */
  originalName?: string;
}

export interface TakeoutAlbumJson {
  title?: string;
  description?: string;
}

const LOOKS_LIKE_FILE_NAME = /\.[a-z0-9]{2,5}$/i;

export function readTakeoutPhotoJson(bytes: Uint8Array, fileName: string): ImportReadResult<TakeoutPhotoJson> {
  const json = parseJsonObject(bytes, fileName);
  const warnings: string[] = [];
  const warn = (what: string) => warnings.push(`${fileName}: ${what}`);
  const metadata: ImportMetadata = {};
  const result: TakeoutPhotoJson = { metadata };

  const title = text(json.title);
  if (title) {
    if (LOOKS_LIKE_FILE_NAME.test(title)) result.originalName = title;
    else metadata.title = title;
  }
  const description = text(json.description);
  if (description) metadata.description = description;

  const taken = record(json.photoTakenTime);
  if (taken && taken.timestamp !== undefined) {
    const takenAt = takenAtFromUnixSeconds(taken.timestamp);
    if (takenAt) metadata.takenAt = takenAt;
    else warn(`photoTakenTime "${String(taken.timestamp)}" is not a believable date, left out`);
  }

  for (const source of ["geoData", "geoDataExif"] as const) {
    const geo = record(json[source]);
    if (!geo) continue;
    const [latitude, longitude] = [Number(geo.latitude), Number(geo.longitude)];
    if (!Number.isFinite(latitude) || !Number.isFinite(longitude) || (latitude === 0 && longitude === 0)) continue;
    if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
      warn(`${source} ${latitude}, ${longitude} is not a place on Earth, left out`);
      continue;
    }
    metadata.location = { latitude, longitude };
    break;
  }

  if (json.favorited === true) metadata.favourite = true;
  return { value: result, warnings };
}

export function readTakeoutAlbumJson(bytes: Uint8Array, fileName: string): ImportReadResult<TakeoutAlbumJson> {
  const json = parseJsonObject(bytes, fileName);
  const album: TakeoutAlbumJson = {};
  const title = text(json.title);
  if (title) album.title = title;
  const description = text(json.description);
  if (description) album.description = description;
  return { value: album, warnings: [] };
}

/** Takeout writes the seconds as a string ("1557923530"); 0 is Google's "unknown". */
export function takenAtFromUnixSeconds(value: unknown): string | null {
  const seconds = typeof value === "string" && /^-?\d{1,12}$/.test(value) ? Number(value) : typeof value === "number" && Number.isInteger(value) ? value : NaN;
  if (!Number.isFinite(seconds) || seconds === 0) return null;
  const date = new Date(seconds * 1000);
  const year = date.getUTCFullYear();
  if (Number.isNaN(date.getTime()) || year < FIRST_PHOTO_YEAR || year > LAST_PHOTO_YEAR) return null;
  return `${date.toISOString().slice(0, 19)}+00:00`;
}

function parseJsonObject(bytes: Uint8Array, fileName: string): Record<string, unknown> {
  const source = decodeSidecarText(bytes, fileName);
  let parsed: unknown;
  try {
    parsed = JSON.parse(source);
  } catch {
    throw new ImportReadError(fileName, "not valid JSON, not read");
  }
  const object = record(parsed);
  if (!object) throw new ImportReadError(fileName, "not a JSON object, not read");
  return object;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
