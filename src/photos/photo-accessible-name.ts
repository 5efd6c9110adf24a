interface NameablePhoto {
  altText: string;
  title: string;
  takenAt: string | null;
  /** The place in words, only when this viewer may see where the photo was taken. */
  placeName?: string | null;
}

const DATE_FORMAT = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/**
 * What a screen reader says for a photo: its alt text, else its title, else when and where it was
 * taken ("Photo taken on 3 May 2019 in Lisbon, Portugal"), so no image is ever announced by its
 * file name or not at all.
 */
export function photoAccessibleName(photo: NameablePhoto): string {
  const written = photo.altText.trim() || photo.title.trim();
  if (written) return written;
  const date = photo.takenAt ? DATE_FORMAT.format(new Date(photo.takenAt)) : null;
  const place = photo.placeName?.trim() || null;
  if (date && place) return `Photo taken on ${date} in ${place}`;
  if (date) return `Photo taken on ${date}`;
  if (place) return `Photo taken in ${place}`;
  return "Untitled photo";
}
