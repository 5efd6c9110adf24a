// Where each exported photo goes: `photos/<year>/<month>/<its original name>`, by the date it was
// taken (else the day it was uploaded), so a photo in several albums is written once and albums are
// described in albums.json instead of by folders. Names must be safe on every system the folder
// may be copied to: no path separators or `..`, no control characters or characters Windows
// refuses (`<>:"/\|?*`), no trailing dot or space, no reserved device names (CON, NUL, COM1…),
// at most 150 bytes; two photos whose names then collide (compared without case, as macOS and
// Windows do) are numbered `name (2).jpg`.

/** Bytes a name may take: well under every file system's 255, leaving room for `.xmp` and `.contact-sheet.json`. */
const MAX_NAME_BYTES = 150;
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;

/** One path segment made safe; never empty, never `.` or `..`. */
export function safeFileName(name: string, fallback = "photo"): string {
  let cleaned = name
    .normalize("NFC")
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, "")
    .replace(/[<>:"/\\|?*]/g, "_")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[. ]+$/, "");
  cleaned = cleaned.replace(/^\.+/, (dots) => "_".repeat(dots.length));
  if (cleaned === "") cleaned = fallback;
  const dot = cleaned.lastIndexOf(".");
  const stem = dot > 0 ? cleaned.slice(0, dot) : cleaned;
  const extension = dot > 0 ? cleaned.slice(dot) : "";
  const safeStem = WINDOWS_RESERVED.test(stem) ? `_${stem}` : stem;
  return fitBytes(safeStem, extension.slice(0, 16));
}

/** Cuts the stem (never inside a character) so stem + extension fit MAX_NAME_BYTES. */
function fitBytes(stem: string, extension: string): string {
  const room = MAX_NAME_BYTES - Buffer.byteLength(extension);
  let cut = stem;
  while (Buffer.byteLength(cut) > room) cut = Array.from(cut).slice(0, -1).join("");
  return `${cut.trim() || "photo"}${extension}`;
}

/** `photos/2019/05` from a stored date taken (`2019-05-03T14:32…`) or an upload time; `photos/undated` otherwise. */
export function dateFolder(takenAt: string | null, uploadedAt: string): string {
  const match = /^(\d{4})-(\d{2})/.exec(takenAt ?? "") ?? /^(\d{4})-(\d{2})/.exec(uploadedAt);
  return match ? `photos/${match[1]}/${match[2]}` : "photos/undated";
}

/**
 * Gives each photo its relative path (POSIX separators), numbering collisions within a folder. Paths
 * an earlier export gave (read from its manifest) are kept first, so a rerun after the library
 * changed still finds, and skips, what it wrote.
 */
export class ExportPathPlanner {
  private readonly taken = new Set<string>();

  constructor(private readonly earlier: ReadonlyMap<string, string> = new Map()) {
    for (const path of earlier.values()) this.taken.add(path.toLowerCase());
  }

  pathFor(photo: { id: string; originalName: string; takenAt: string | null; uploadedAt: string }): string {
    const kept = this.earlier.get(photo.id);
    if (kept) return kept;
    const folder = dateFolder(photo.takenAt, photo.uploadedAt);
    const name = safeFileName(photo.originalName);
    const dot = name.lastIndexOf(".");
    const stem = dot > 0 ? name.slice(0, dot) : name;
    const extension = dot > 0 ? name.slice(dot) : "";
    for (let number = 1; ; number += 1) {
      const candidate = `${folder}/${number === 1 ? name : fitBytes(stem, ` (${number})${extension}`)}`;
      if (!this.taken.has(candidate.toLowerCase())) {
        this.taken.add(candidate.toLowerCase());
        return candidate;
      }
    }
  }
}
