interface NameablePhoto {
  altText: string;
  title: string;
  takenAt: string | null;
  /** The place in words, only when this viewer may see where the photo was taken. */
  placeName?: string | null;
}

/**
 * What tells one untitled photo from the next, by who is listening. The owner (and admins) may hear
 * the uploaded file name; a share link's visitor may not (the file name is private metadata:
 * PRODUCT.md, the share's metadata policy), so they hear the photo's number in the link instead.
 */
export type PhotoNameContext = { audience: "owner"; fileName: string } | { audience: "visitor"; number: number };

const DATE_FORMAT = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/**
 * What a screen reader says for a photo: its alt text, else its title, else when and where it was
 * taken ("Photo taken on 3 May 2019 in Lisbon, Portugal"), so no image is ever announced by its
 * file name or not at all. Where many untitled photos sit side by side and a person chooses among
 * them (the album editor, a share link's grid and picks), `context` adds what tells them apart:
 * "Photo taken on 3 May 2019 (IMG_0042.jpg)" for the owner, "Photo 3, taken on 3 May 2019" for a
 * visitor. Written words are never changed: they already are the photographer's own name for it.
 */
export function photoAccessibleName(photo: NameablePhoto, context?: PhotoNameContext): string {
  const written = photo.altText.trim() || photo.title.trim();
  if (written) return written;
  const date = photo.takenAt ? DATE_FORMAT.format(new Date(photo.takenAt)) : null;
  const place = photo.placeName?.trim() || null;
  const when = [date ? `on ${date}` : null, place ? `in ${place}` : null].filter(Boolean).join(" ");
  if (context?.audience === "visitor") return when ? `Photo ${context.number}, taken ${when}` : `Photo ${context.number}`;
  const described = when ? `Photo taken ${when}` : "Untitled photo";
  const fileName = context?.audience === "owner" ? context.fileName.trim() : "";
  return fileName ? `${described} (${fileName})` : described;
}
