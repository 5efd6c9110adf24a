// The paths named on the command line, walked into the files to import: folders recursively (in
// name order, so runs and plans are repeatable), zips listed in place, everything else skipped with
// its reason. Symbolic links are followed, but a folder already walked (a link back up the tree, a
// second link to the same folder) is walked once, so a loop ends.
import fs from "node:fs";
import path from "node:path";
import { skipReasonForName } from "./importable-files";
import type { ImportSource, SkippedSource } from "./import-source";
import { isNeighbourMetadataName } from "./neighbour-reader";
import { ZipFolderIndex } from "./zip-folders";
import { listZipSources } from "./zip-sources";

export interface WalkedSources {
  sources: ImportSource[];
  skipped: SkippedSource[];
  /** Closes the zips that were opened; call once every source has been read. */
  close(): void;
}

function fileSource(filePath: string, folders: string[], stats: fs.Stats): ImportSource {
  const absolute = path.resolve(filePath);
  return {
    key: absolute,
    name: path.basename(absolute),
    folders,
    size: stats.size,
    // Whole milliseconds, rounded: tools that copy a modification time (cp -p, rsync, utimes) pass it
    // through floating-point seconds and may land a nanosecond below it.
    mtimeMs: Math.round(stats.mtimeMs),
    filePath: absolute,
    open: () => Promise.resolve(fs.createReadStream(absolute, { highWaterMark: 1024 * 1024 })),
  };
}

function describeError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return "not found";
  if (code === "EACCES" || code === "EPERM") return "not readable (permission denied)";
  if (code === "ELOOP") return "a symbolic link loop";
  return error instanceof Error ? error.message : String(error);
}

export async function walkSources(paths: readonly string[], options: { maxFileBytes: number }): Promise<WalkedSources> {
  const sources: ImportSource[] = [];
  const skipped: SkippedSource[] = [];
  const closers: Array<() => void> = [];
  const walkedFolders = new Set<string>();
  // One for all the run's zips: Takeout's JSON may be in another zip than its photo.
  const zipFolders = new ZipFolderIndex();

  async function addZip(zipPath: string, folders: string[]): Promise<void> {
    try {
      const listing = await listZipSources(zipPath, options.maxFileBytes, folders, zipFolders);
      sources.push(...listing.sources);
      skipped.push(...listing.skipped);
      closers.push(listing.close);
    } catch (error) {
      skipped.push({ path: zipPath, reason: `not a readable zip: ${describeError(error)}` });
    }
  }

  async function visit(entryPath: string, folders: string[], named: boolean): Promise<void> {
    const name = path.basename(path.resolve(entryPath));
    // A hidden file or folder inside a walked tree is skipped; one named on the command line is not.
    if (!named && name.startsWith(".")) {
      skipped.push({ path: entryPath, reason: "hidden file" });
      return;
    }
    let stats: fs.Stats;
    try {
      stats = await fs.promises.stat(entryPath);
    } catch (error) {
      skipped.push({ path: entryPath, reason: describeError(error) });
      return;
    }
    if (stats.isDirectory()) {
      const identity = `${stats.dev}:${stats.ino}`;
      if (walkedFolders.has(identity)) {
        skipped.push({ path: entryPath, reason: "a folder already walked (a symbolic link loop or a second link to it)" });
        return;
      }
      walkedFolders.add(identity);
      let names: string[];
      try {
        names = (await fs.promises.readdir(entryPath)).sort();
      } catch (error) {
        skipped.push({ path: entryPath, reason: describeError(error) });
        return;
      }
      const below = [...folders, name];
      for (const child of names) await visit(path.join(entryPath, child), below, false);
      return;
    }
    if (!stats.isFile()) {
      skipped.push({ path: entryPath, reason: "not a regular file" });
      return;
    }
    if (name.toLowerCase().endsWith(".zip")) return addZip(entryPath, folders);
    if (isNeighbourMetadataName(name)) return;
    const reason = skipReasonForName(name);
    if (reason) skipped.push({ path: entryPath, reason });
    else if (stats.size === 0) skipped.push({ path: entryPath, reason: "empty file" });
    else if (stats.size > options.maxFileBytes) skipped.push({ path: entryPath, reason: `larger than the server takes (${stats.size} bytes)` });
    else sources.push(fileSource(entryPath, folders, stats));
  }

  // A folder named on the command line is the top album; a file named directly has no folder album.
  for (const named of paths) await visit(path.normalize(named.replace(/[\\/]+$/, "") || named), [], true);
  return { sources, skipped, close: () => closers.forEach((close) => close()) };
}
