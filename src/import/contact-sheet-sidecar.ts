import { z } from "zod";
import { exportPhotoSchema, type ExportPhoto } from "@/src/export/export-api.schemas";
import type { ImportMetadata } from "./import-metadata";
import { ImportReadError, type ImportReadResult } from "./import-read-error";
import { decodeSidecarText } from "./sidecar-text";

// The JSON sidecar `contact-sheet export` writes beside each original (`IMG_1.jpg.contact-sheet.json`):
// every field the owner set on the photo, as GET /api/export/photos answers it, under a format name
// and version. The importer reads it over an XMP sidecar (it carries more: alt text, visibility,
// the place in words, download and location choices), so an export imports back to the same library.

export const CONTACT_SHEET_SIDECAR_FORMAT = "contact-sheet-photo";
export const CONTACT_SHEET_SIDECAR_VERSION = 1;
const SUFFIX = ".contact-sheet.json";

export const contactSheetSidecarSchema = exportPhotoSchema.extend({
  format: z.literal(CONTACT_SHEET_SIDECAR_FORMAT),
  version: z.literal(CONTACT_SHEET_SIDECAR_VERSION),
});

export type ContactSheetSidecar = z.output<typeof contactSheetSidecarSchema>;

export function contactSheetSidecarName(mediaName: string): string {
  return `${mediaName}${SUFFIX}`;
}

export function isContactSheetSidecarName(name: string): boolean {
  return name.toLowerCase().endsWith(SUFFIX);
}

export function contactSheetSidecarOf(photo: ExportPhoto): ContactSheetSidecar {
  return { format: CONTACT_SHEET_SIDECAR_FORMAT, version: CONTACT_SHEET_SIDECAR_VERSION, ...photo };
}

export function readContactSheetSidecar(bytes: Uint8Array, fileName: string): ImportReadResult<ImportMetadata> {
  let json: unknown;
  try {
    json = JSON.parse(decodeSidecarText(bytes, fileName));
  } catch (error) {
    if (error instanceof ImportReadError) throw error;
    throw new ImportReadError(fileName, "not JSON, not read");
  }
  const parsed = contactSheetSidecarSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ImportReadError(fileName, `not a Contact Sheet photo sidecar (version ${CONTACT_SHEET_SIDECAR_VERSION}): ${issue.path.join(".") || "the file"}: ${issue.message}`);
  }
  const photo = parsed.data;
  // Every field is sent, blank ones too: on a site that already had the photo, the export's word wins.
  const metadata: ImportMetadata = {
    title: photo.title,
    description: photo.caption,
    altText: photo.altText,
    tags: photo.tags,
    // The owner's list as it was, keyword tags they took off left off: the new site must not read them back from the file.
    tagsComplete: true,
    rating: photo.rating,
    visibility: photo.visibility,
    showLocation: photo.showLocation,
    allowDownload: photo.allowDownload,
  };
  if (photo.label) metadata.label = photo.label;
  // Only a turn is sent: each turn makes every variant again, and a video cannot be turned.
  if (photo.rotation !== 0 && photo.mediaKind === "photo") metadata.rotation = photo.rotation;
  if (photo.takenAt) metadata.takenAt = photo.takenAt;
  if (photo.location) metadata.location = { latitude: photo.location.latitude, longitude: photo.location.longitude };
  if (photo.location && photo.place) metadata.place = { city: photo.place.city, region: photo.place.region, countryCode: photo.place.countryCode };
  return { value: metadata, warnings: [] };
}
