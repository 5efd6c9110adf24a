// A .zip's photos read in place (a Google Takeout arrives as zips of several GB): yauzl lists the
// central directory and streams one entry at a time, so nothing is unpacked to disk. Names are
// checked here rather than by yauzl, so one hostile entry is reported and the others still come in.
// Its sidecars (XMP, Takeout JSON) are not sources: they are registered in the run's ZipFolderIndex
// by their folder inside the zip, where the neighbour reader finds them, from this zip or another.
// Every entry is counted as it inflates and stopped past the size its header declares (at most the
// server's limit), so a header that lies about its size cannot inflate without end.
import path from "node:path";
import { type Readable, Transform } from "node:stream";
import yauzl, { type Entry, type ZipFile } from "yauzl";
import { skipReasonForName } from "./importable-files";
import type { ImportSource, SkippedSource } from "./import-source";
import { isNeighbourMetadataName } from "./neighbour-reader";
import { ZipFolderIndex } from "./zip-folders";

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
    // decodeStrings off: yauzl would refuse the whole zip on one bad name; validateEntrySizes off:
    // boundedEntry counts the bytes itself, so the refusal can say what happened in words.
    yauzl.open(zipPath, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: false }, (error, zip) => (error ? reject(error) : resolve(zip)));
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

/** Why an entry's inflated bytes are refused, as the run reports it beside the entry's path. */
export class ZipEntrySizeError extends Error {}

/**
 * The entry's bytes, counted as they come out of the inflater: past `declaredSize` the stream fails
 * at once (and yauzl's inflater behind it is destroyed), so a header claiming 1 KB that inflates to
 * gigabytes costs one chunk, not the gigabytes; short of it at the end, it fails too (a damaged zip).
 */
export function boundedEntry(inflated: Readable, declaredSize: number): Readable {
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > declaredSize) {
        done(new ZipEntrySizeError(`refused: it inflates past the ${declaredSize} bytes its zip header declares (a zip bomb?); stopped there`));
        return;
      }
      done(null, chunk);
    },
    flush(done) {
      done(bytes < declaredSize ? new ZipEntrySizeError(`the zip is damaged: the entry ends after ${bytes} of the ${declaredSize} bytes its header declares`) : null);
    },
  });
  inflated.once("error", (error) => counter.destroy(error));
  counter.once("close", () => inflated.destroy());
  return inflated.pipe(counter);
}

function openEntry(zip: ZipFile, entry: Entry): Promise<Readable> {
  return new Promise((resolve, reject) => zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(boundedEntry(stream, entry.uncompressedSize)))));
}

/**
 * The zip's importable entries and the ones skipped (with why), each entry's folders starting with
 * `foldersAbove` (where the zip lies in a walked tree). `maxFileBytes` is the server's
 * limit: a larger entry, or one claiming more than 100 times its compressed size, is never inflated.
 * Its sidecars and every media name go into `index` (one per run, shared by its zips).
 */
export async function listZipSources(zipPath: string, maxFileBytes: number, foldersAbove: readonly string[] = [], index = new ZipFolderIndex()): Promise<ZipListing> {
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
    const folderInZip = parts.slice(0, -1).join("/");
    const hidden = parts.some((part) => part.startsWith("."));
    const open = () => openEntry(zip, entry);
    if (!hidden && isNeighbourMetadataName(baseName)) {
      // Read with its photo (never uploaded, never counted as skipped), from whichever zip holds it.
      index.add(folderInZip, baseName, { shown, open });
      continue;
    }
    const reason = hidden ? "hidden file" : skipReasonForName(baseName);
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
      open,
      zipFolder: index.add(folderInZip, baseName, { shown, open }),
    });
  }
  return { sources, skipped, close: () => zip.close() };
}
