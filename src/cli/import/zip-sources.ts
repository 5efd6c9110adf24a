// A .zip's photos read in place (a Google Takeout arrives as zips of several GB): yauzl lists the
// central directory and streams one entry at a time, so nothing is unpacked to disk. Names are
// checked here rather than by yauzl, so one hostile entry is reported and the others still come in.
import path from "node:path";
import type { Readable } from "node:stream";
import yauzl, { type Entry, type ZipFile } from "yauzl";
import { skipReasonForName } from "./importable-files";
import type { ImportSource, SkippedSource } from "./import-source";

/** How much larger than its compressed bytes an entry may claim to be; photos barely compress. */
const MAX_COMPRESSION_RATIO = 100;

export interface ZipListing {
  sources: ImportSource[];
  skipped: SkippedSource[];
  /** Closes the zip once every entry has been read. */
  close(): void;
}

/** Why an entry's name is refused, or null: no parent steps, no absolute paths, no drive letters. */
export function unsafeZipEntryName(name: string): string | null {
  if (name.includes("\0")) return "a NUL in its name";
  const normalised = name.replace(/\\/g, "/");
  if (normalised.startsWith("/") || /^[a-zA-Z]:/.test(normalised)) return "an absolute path as its name";
  if (normalised.split("/").includes("..")) return "a '../' in its name (it would land outside the folder)";
  return null;
}

/** Entry names are UTF-8 when the zip says so (general purpose bit 11), else the old DOS code page, read as Latin-1. */
function decodeName(entry: Entry): string {
  const raw = entry.fileNameRaw;
  return (entry.generalPurposeBitFlag & 0x800) !== 0 ? raw.toString("utf8") : raw.toString("latin1");
}

function openZip(zipPath: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    // decodeStrings off: yauzl would refuse the whole zip on one bad name; validateEntrySizes on: an
    // entry that inflates to more (or less) than it declares fails as it is read (a zip bomb).
    yauzl.open(zipPath, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true }, (error, zip) => (error ? reject(error) : resolve(zip)));
  });
}

function readEntries(zip: ZipFile): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    zip.on("entry", (entry: Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.once("end", () => resolve(entries));
    zip.once("error", reject);
    zip.readEntry();
  });
}

function openEntry(zip: ZipFile, entry: Entry): Promise<Readable> {
  return new Promise((resolve, reject) => zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))));
}

/**
 * The zip's importable entries and the ones skipped (with why), each entry's folders starting with
 * `foldersAbove` (where the zip lies in a walked tree). `maxFileBytes` is the server's
 * limit: a larger entry, or one claiming more than 100 times its compressed size, is never inflated.
 */
export async function listZipSources(zipPath: string, maxFileBytes: number, foldersAbove: readonly string[] = []): Promise<ZipListing> {
  const absolute = path.resolve(zipPath);
  const zip = await openZip(absolute);
  // A zip is a folder of its own: its name is one more level below the folders it sits in.
  const albumRoot = path.basename(absolute).replace(/\.zip$/i, "");
  const sources: ImportSource[] = [];
  const skipped: SkippedSource[] = [];
  for (const entry of await readEntries(zip)) {
    const name = decodeName(entry);
    const shown = `${zipPath}!/${name}`;
    if (name.endsWith("/")) continue;
    const unsafe = unsafeZipEntryName(name);
    if (unsafe) {
      skipped.push({ path: shown, reason: `refused: ${unsafe}` });
      continue;
    }
    const parts = name.split("/").filter(Boolean);
    const baseName = parts.at(-1) ?? name;
    const reason = parts.some((part) => part.startsWith(".")) ? "hidden file" : skipReasonForName(baseName);
    if (reason) {
      skipped.push({ path: shown, reason });
      continue;
    }
    if (entry.uncompressedSize > maxFileBytes) {
      skipped.push({ path: shown, reason: `refused: larger than the server takes (${entry.uncompressedSize} bytes)` });
      continue;
    }
    if (entry.uncompressedSize > Math.max(entry.compressedSize, 1) * MAX_COMPRESSION_RATIO) {
      skipped.push({ path: shown, reason: "refused: it claims to inflate over 100 times (a zip bomb?)" });
      continue;
    }
    sources.push({
      key: `${absolute}!/${name}`,
      name: baseName,
      folders: [...foldersAbove, albumRoot, ...parts.slice(0, -1)],
      size: entry.uncompressedSize,
      mtimeMs: entry.getLastModDate().getTime(),
      open: () => openEntry(zip, entry),
    });
  }
  return { sources, skipped, close: () => zip.close() };
}
