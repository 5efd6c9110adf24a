// Which of the paths given to `contact-sheet import` are folders `contact-sheet export` wrote (they
// hold its manifest.json, of its format), and reading one of their lists (albums.json,
// shares.json) checked against the export's own schema, so a damaged list is one clear sentence.
import fs from "node:fs";
import path from "node:path";
import type { z } from "zod";
import { EXPORT_FORMAT, EXPORT_FILES } from "../export/export-format";

export class ExportFolderError extends Error {}

function isExportFolder(named: string): boolean {
  const manifestPath = path.join(named, EXPORT_FILES.manifest);
  if (!fs.existsSync(manifestPath) || !fs.statSync(named).isDirectory()) return false;
  try {
    return (JSON.parse(fs.readFileSync(manifestPath, "utf8")) as { format?: unknown }).format === EXPORT_FORMAT;
  } catch {
    return false;
  }
}

/** Every item of `list` in `file` of each export folder among `paths`; [] when none is one, or it has no such file. */
export function readExportFolderList<T>(paths: readonly string[], file: string, list: string, itemSchema: z.ZodType<T>, what: string): T[] {
  const items: T[] = [];
  for (const named of paths) {
    if (!isExportFolder(named)) continue;
    const filePath = path.join(named, file);
    if (!fs.existsSync(filePath)) continue;
    let json: unknown;
    try {
      json = JSON.parse(fs.readFileSync(filePath, "utf8"));
    } catch {
      throw new ExportFolderError(`${filePath} is not JSON: the export is damaged (run the export again).`);
    }
    const value = (json as Record<string, unknown> | null)?.[list];
    if (!Array.isArray(value)) throw new ExportFolderError(`${filePath} is not ${what}: it has no "${list}" list.`);
    for (const [index, item] of value.entries()) {
      const parsed = itemSchema.safeParse(item);
      if (!parsed.success) throw new ExportFolderError(`${filePath} is not ${what}: ${[list, index, ...parsed.error.issues[0].path].join(".")}: ${parsed.error.issues[0].message}`);
      items.push(parsed.data);
    }
  }
  return items;
}
