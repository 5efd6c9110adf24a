// Applies what a reader learnt about a file (ImportMetadata, src/import/import-metadata.ts) to its
// uploaded photo through the same API the photo editor uses: PATCH /api/photos/{id} for the title,
// caption, alt text, date taken, location and place, rating, colour label, visibility and the
// location and download choices, the owner's rotation (an export's own sidecar: the editor's turn,
// on top of the file's orientation), the tags API for keywords (a favourite becomes the tag
// "Favourite"). An XMP sidecar's orientation is not sent: it says how to show the file, not the
// owner's turn on top of it, and sending it as a turn would turn the photo twice.
//
// Keywords from an XMP sidecar or Takeout are added to whatever the file's own keywords give. An
// export's own sidecar lists the photo's whole tag list (`tagsComplete`): it is set as it is
// (PUT, [] too), and setting a whole list tells the site the file's keywords are read, so a keyword
// tag the owner had taken off on the old site is not added back when the new site processes the file.
import type { ImportMetadata } from "@/src/import/import-metadata";
import type { SiteApi } from "./site-api";

/** The tag a Google Photos favourite becomes, so the owner can find them. */
export const FAVOURITE_TAG = "Favourite";

/** The PATCH /api/photos/{id} body for these metadata, or null when there is nothing for it. */
export function photoChangeFor(metadata: ImportMetadata): Record<string, unknown> | null {
  const change: Record<string, unknown> = {};
  if (metadata.title !== undefined) change.title = metadata.title;
  if (metadata.description !== undefined) change.caption = metadata.description;
  if (metadata.takenAt !== undefined) change.takenAt = metadata.takenAt;
  if (metadata.location !== undefined) change.location = { latitude: metadata.location.latitude, longitude: metadata.location.longitude };
  if (metadata.rating !== undefined) change.rating = metadata.rating;
  if (metadata.label !== undefined) change.label = metadata.label;
  if (metadata.altText !== undefined) change.altText = metadata.altText;
  if (metadata.visibility !== undefined) change.visibility = metadata.visibility;
  if (metadata.showLocation !== undefined) change.showLocation = metadata.showLocation;
  if (metadata.allowDownload !== undefined) change.allowDownload = metadata.allowDownload;
  if (metadata.rotation !== undefined) change.rotation = metadata.rotation;
  if (metadata.place !== undefined && metadata.location !== undefined) change.place = metadata.place;
  return Object.keys(change).length > 0 ? change : null;
}

export function tagsFor(metadata: ImportMetadata): string[] {
  const tags = [...(metadata.tags ?? [])];
  if (metadata.favourite) tags.push(FAVOURITE_TAG);
  return [...new Set(tags.map((tag) => tag.trim()).filter(Boolean))];
}

/** Needs a token with `photos:write`; a refusal is thrown as the API's SiteApiError. */
export async function applyImportMetadata(api: Pick<SiteApi, "updatePhoto" | "addTags" | "setPhotoTags">, photoId: string, metadata: ImportMetadata): Promise<void> {
  const change = photoChangeFor(metadata);
  if (change) await api.updatePhoto(photoId, change);
  const tags = tagsFor(metadata);
  if (metadata.tagsComplete) await api.setPhotoTags(photoId, tags);
  else if (tags.length > 0) await api.addTags([photoId], tags);
}
