import { ImportReadError } from "./import-read-error";

// Sidecars arrive as bytes in whatever encoding their writer chose: Lightroom writes UTF-8,
// older Adobe tools UTF-16 with a byte-order mark (the corpus's own XMP files are UTF-16 LE). The
// text is decoded by its BOM, else as strict UTF-8, so a file in some other encoding is refused
// by name instead of being read as mojibake into titles and tags.

/** Sidecars are a few KB; anything past this is not a sidecar (and parsing it would cost memory). */
export const SIDECAR_MAX_BYTES = 10 * 1024 * 1024;

export function decodeSidecarText(bytes: Uint8Array, fileName: string): string {
  if (bytes.byteLength > SIDECAR_MAX_BYTES) {
    throw new ImportReadError(fileName, `larger than ${SIDECAR_MAX_BYTES / 1024 / 1024} MB, not read`);
  }
  const encoding = byteOrderMark(bytes);
  try {
    // ignoreBOM: false (the default) drops the mark itself; fatal makes a bad sequence an error.
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    throw new ImportReadError(fileName, `not valid ${encoding.toUpperCase()} text, not read`);
  }
}

function byteOrderMark(bytes: Uint8Array): "utf-8" | "utf-16le" | "utf-16be" {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return "utf-8";
}
