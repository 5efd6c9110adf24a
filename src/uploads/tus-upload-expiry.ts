import fs from "node:fs/promises";
import path from "node:path";

/** A tus upload nobody has written to for this long is abandoned: its bytes are removed. */
export const ABANDONED_TUS_UPLOAD_MS = 24 * 60 * 60 * 1000;

/**
 * Removes the file store's uploads (the data file `<id>` and its `<id>.json`) whose newest part was
 * last written before `now - maxAgeMs`. Judged by the last write rather than the creation date, so
 * a slow upload that is still moving is never cut off, and leftovers of a crash (a data file
 * without its JSON, or the other way round) go too. Answers the ids removed.
 */
export async function removeAbandonedTusUploads(directory: string, maxAgeMs: number, now = Date.now()): Promise<string[]> {
  let names: string[];
  try {
    names = await fs.readdir(/*turbopackIgnore: true*/ directory);
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return [];
    throw error;
  }
  const ids = new Set(names.map((name) => name.replace(/\.json$/, "")));
  const removed: string[] = [];
  for (const id of ids) {
    // The directory is the tus store's, known only at run time: the ignore comments below tell
    // Turbopack not to trace these paths (it would otherwise include the whole project in the build).
    const files = [path.join(/*turbopackIgnore: true*/ directory, id), path.join(/*turbopackIgnore: true*/ directory, `${id}.json`)];
    const modified = await Promise.all(files.map((file) => fs.stat(/*turbopackIgnore: true*/ file).then((stats) => stats.mtimeMs, () => 0)));
    if (Math.max(...modified) >= now - maxAgeMs) continue;
    await Promise.all(files.map((file) => fs.rm(/*turbopackIgnore: true*/ file, { force: true })));
    removed.push(id);
  }
  return removed;
}
