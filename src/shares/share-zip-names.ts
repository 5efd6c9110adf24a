/**
 * The names a share's visitors see for downloaded files: the photo's title when it has one, else a
 * neutral numbering after the share's title ("Wedding 007.jpg"), never the uploaded file's name
 * or path (it can hold a camera's serial, a person's name or a folder structure). Names are made
 * safe for every file system a ZIP may be unpacked on, and unique within one ZIP.
 */

const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff/\\:*?"<>|]/g;
const MAXIMUM_STEM_LENGTH = 100;
// Names Windows refuses whatever their extension.
const RESERVED_STEMS = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

/** A title as the stem of a file name: no separators, control or direction characters; trimmed, at most 100 characters. */
export function sanitiseFileStem(text: string): string {
  const cleaned = text.normalize("NFC").replace(UNSAFE_CHARACTERS, " ").replace(/\s+/g, " ").trim().replace(/^[.\s]+|[.\s]+$/g, "");
  const stem = Array.from(cleaned).slice(0, MAXIMUM_STEM_LENGTH).join("").trim().replace(/[.\s]+$/, "");
  return RESERVED_STEMS.test(stem) ? `${stem} photo` : stem;
}

/** "Wedding 007": the share's title and the photo's place in it, padded to at least three digits. */
export function numberedStem(shareTitle: string, rank: number, count: number): string {
  const digits = Math.max(3, String(count).length);
  return `${sanitiseFileStem(shareTitle) || "Photo"} ${String(rank).padStart(digits, "0")}`;
}

/** The file name of the photo at `rank` (1-based) of `count` in a share. */
export function sharedPhotoFileName(photo: { title: string }, shareTitle: string, rank: number, count: number, extension = "jpg"): string {
  return `${sanitiseFileStem(photo.title) || numberedStem(shareTitle, rank, count)}.${extension}`;
}

/** The ZIP's own name. */
export function shareZipFileName(shareTitle: string): string {
  return `${sanitiseFileStem(shareTitle) || "Photos"}.zip`;
}

/** Hands out names unique within one ZIP, ignoring case (as Windows and macOS do): "Sunset.jpg", "Sunset (2).jpg"… */
export class UniqueFileNames {
  private readonly taken = new Set<string>();

  take(fileName: string): string {
    const dot = fileName.lastIndexOf(".");
    const stem = dot > 0 ? fileName.slice(0, dot) : fileName;
    const extension = dot > 0 ? fileName.slice(dot) : "";
    let candidate = fileName;
    for (let copy = 2; this.taken.has(candidate.toLowerCase()); copy += 1) candidate = `${stem} (${copy})${extension}`;
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }
}
