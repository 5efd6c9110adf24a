import type { PhotoRotation } from "@/src/db/database";

// What the photo editor's date, place and rotation fields send: only what the owner changed, so
// saving a title never rewrites the date the camera recorded, and in the API's words (takenAt,
// location, place, rotation; src/photos/photos.schemas.ts checks them again and answers 400).

/** The UTC offsets of the world's time zones, for the "time zone" choice beside the date taken. */
export const UTC_OFFSETS = [
  "-12:00", "-11:00", "-10:00", "-09:30", "-09:00", "-08:00", "-07:00", "-06:00", "-05:00", "-04:00", "-03:30", "-03:00",
  "-02:00", "-01:00", "+00:00", "+01:00", "+02:00", "+03:00", "+03:30", "+04:00", "+04:30", "+05:00", "+05:30", "+05:45",
  "+06:00", "+06:30", "+07:00", "+08:00", "+08:45", "+09:00", "+09:30", "+10:00", "+10:30", "+11:00", "+12:00", "+12:45",
  "+13:00", "+14:00",
] as const;

/** A stored date taken split for the form: the local time (a datetime-local value) and its offset, "" when none. */
export function splitTakenAt(takenAt: string | null): { local: string; offset: string } {
  if (!takenAt) return { local: "", offset: "" };
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?)(Z|[+-]\d{2}:\d{2})?/.exec(takenAt);
  if (!match) return { local: "", offset: "" };
  return { local: match[1], offset: match[2] === "Z" ? "+00:00" : (match[2] ?? "") };
}

/** The form's date taken as the API takes it: null when the field is empty (the date is unknown). */
export function joinTakenAt(local: string, offset: string): string | null {
  return local.trim() === "" ? null : `${local.trim()}${offset}`;
}

/** Turning by a quarter, to the left (counter-clockwise) or right, from a rotation. */
export function turn(rotation: PhotoRotation, direction: "left" | "right"): PhotoRotation {
  return (((rotation + (direction === "right" ? 90 : 270)) % 360) as PhotoRotation);
}

export interface CorrectionFields {
  takenAtLocal: string;
  takenAtOffset: string;
  latitude: string;
  longitude: string;
  /** The place in words, as the owner may correct it (the country follows the coordinates). */
  placeCity: string;
  placeRegion: string;
  rotation: PhotoRotation;
}

export interface Corrections {
  takenAt?: string | null;
  location?: { latitude: number; longitude: number } | null;
  place?: { city: string; region: string } | null;
  rotation?: PhotoRotation;
}

/**
 * What changed between the fields as the page filled them (`saved`) and as they are now: only
 * those go to the API. Both coordinates empty clears the location; a coordinate that is not a
 * number is sent as it is typed, so the API says what is wrong (a number out of range likewise).
 */
export function changedCorrections(saved: CorrectionFields, current: CorrectionFields): Corrections {
  const changes: Corrections = {};
  const savedTakenAt = joinTakenAt(saved.takenAtLocal, saved.takenAtOffset);
  const takenAt = joinTakenAt(current.takenAtLocal, current.takenAtOffset);
  if (takenAt !== savedTakenAt) changes.takenAt = takenAt;
  if (current.latitude.trim() !== saved.latitude.trim() || current.longitude.trim() !== saved.longitude.trim()) {
    const isEmpty = current.latitude.trim() === "" && current.longitude.trim() === "";
    changes.location = isEmpty ? null : { latitude: toNumber(current.latitude), longitude: toNumber(current.longitude) };
  }
  if (current.placeCity.trim() !== saved.placeCity.trim() || current.placeRegion.trim() !== saved.placeRegion.trim()) {
    // Both emptied: the gallery names the place from its coordinates again.
    const isEmpty = current.placeCity.trim() === "" && current.placeRegion.trim() === "";
    changes.place = isEmpty ? null : { city: current.placeCity.trim(), region: current.placeRegion.trim() };
  }
  if (current.rotation !== saved.rotation) changes.rotation = current.rotation;
  return changes;
}

function toNumber(text: string): number {
  // An empty or unreadable coordinate becomes NaN, which JSON sends as null: the API's 400 names the field.
  return text.trim() === "" ? Number.NaN : Number(text.trim());
}
