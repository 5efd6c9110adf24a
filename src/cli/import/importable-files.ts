// Which files the importer offers to the server, judged by name only: the server judges each file
// by its bytes again, these only keep obviously wrong files (documents, sidecars, system files) from
// being read and sent. The list follows the upload page's (src/uploads/accepted-file-types.ts).
import path from "node:path";

const IMPORTABLE_EXTENSIONS = new Set([".jpg", ".jpeg", ".png", ".webp", ".avif", ".heic", ".heif", ".tif", ".tiff", ".gif"]);

/** Why a file is not imported, or null when it is offered to the server. */
export function skipReasonForName(name: string): string | null {
  const base = path.basename(name);
  if (base.startsWith(".")) return "hidden file";
  const extension = path.extname(base).toLowerCase();
  if (!IMPORTABLE_EXTENSIONS.has(extension)) return extension ? `unsupported type (${extension})` : "unsupported type (no extension)";
  return null;
}

/** The type declared to tus (the server decides from the bytes; this is only the upload page's hint). */
export function declaredTypeForName(name: string): string {
  const extension = path.extname(name).toLowerCase();
  if (extension === ".jpg" || extension === ".jpeg") return "image/jpeg";
  if (extension === ".tif" || extension === ".tiff") return "image/tiff";
  return `image/${extension.slice(1)}`;
}
