// `contact-sheet export`, from the site to a folder: list every photo in scope with its fields
// (GET /api/export/photos), its albums and share links, give each photo a safe path, then fetch
// each original the way its owner downloads it (GET /api/photos/{id}/original), streamed to disk
// and checked against the SHA-256 the site holds, with its two sidecars beside it. A rerun skips an
// original already there with the right SHA-256. A photo that fails (its original missing, the
// site answering 500) is told with its reason and the run goes on; the manifest is written last,
// naming every file with its SHA-256, and says when the export is incomplete.
import fs from "node:fs";
import path from "node:path";
import type { ExportAlbum, ExportPhoto, ExportShare } from "@/src/export/export-api.schemas";
import { contactSheetSidecarName, contactSheetSidecarOf } from "@/src/import/contact-sheet-sidecar";
import type { ImportReporter } from "../import/import-report";
import { runPool } from "../import/run-pool";
import { type SiteApi, SiteApiError } from "../import/site-api";
import { EXPORT_FILES, EXPORT_FORMAT, EXPORT_FORMAT_VERSION } from "./export-format";
import { ExportPathPlanner, safeFileName } from "./export-file-names";
import { hashExisting, removeLeftoverPartials, settlePartial, writeSmallFile, writeStream, type WrittenFile } from "./export-files";
import { xmpSidecarFor } from "./xmp-sidecar-writer";

export interface ExportOptions {
  directory: string;
  api: SiteApi;
  all: boolean;
  concurrency: number;
  reporter: ImportReporter;
}

export interface ExportSummary {
  exported: number;
  unchanged: number;
  failed: number;
  albums: number;
  shares: number;
  bytes: number;
}

export class ExportDirectoryError extends Error {}

/** Originals fetched at once when the command is not told (--concurrency). */
export const DEFAULT_EXPORT_CONCURRENCY = 3;

interface ManifestPhoto {
  id: string;
  sha256: string;
  path: string;
}

/** The folder must be a folder we may write in: made when missing, refused when it is a file or read-only. */
export async function prepareDirectory(directory: string): Promise<void> {
  const stats = await fs.promises.stat(directory).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw new ExportDirectoryError(`${directory} cannot be read (${error.code}).`);
  });
  if (stats && !stats.isDirectory()) throw new ExportDirectoryError(`${directory} is a file, not a folder: name a folder to export into (it is made when missing).`);
  try {
    await fs.promises.mkdir(directory, { recursive: true });
    await fs.promises.access(directory, fs.constants.W_OK | fs.constants.X_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EACCES" || code === "EPERM" || code === "EROFS") throw new ExportDirectoryError(`${directory} is not writable (permission denied).`);
    throw new ExportDirectoryError(`${directory} cannot be made (${code ?? String(error)}).`);
  }
}

/** The paths an earlier export into this folder gave its photos, so a rerun finds them; only paths that are still safe. */
function earlierPaths(directory: string): Map<string, string> {
  const paths = new Map<string, string>();
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(directory, EXPORT_FILES.manifest), "utf8")) as { format?: string; photos?: ManifestPhoto[]; failed?: ManifestPhoto[] };
    if (manifest.format !== EXPORT_FORMAT || !Array.isArray(manifest.photos)) return paths;
    for (const photo of [...manifest.photos, ...(Array.isArray(manifest.failed) ? manifest.failed : [])]) {
      if (typeof photo?.id !== "string" || typeof photo.path !== "string") continue;
      const segments = photo.path.split("/");
      // A manifest is a file anyone could edit: a path is reused only if it is one this export would write.
      if (segments[0] === "photos" && segments.length === 4 && segments.every((segment) => segment !== "" && safeFileName(segment) === segment)) paths.set(photo.id, photo.path);
    }
  } catch {
    // No manifest yet (a first run, or one killed before it ended): paths are planned afresh, the same way.
  }
  return paths;
}

function reasonOf(error: unknown): string {
  if (error instanceof SiteApiError) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOSPC") return "the disk is full";
  if (code === "EACCES" || code === "EPERM") return "not writable (permission denied)";
  return error instanceof Error ? error.message : String(error);
}

async function listAllPhotos(api: SiteApi, all: boolean): Promise<ExportPhoto[]> {
  const photos: ExportPhoto[] = [];
  let cursor: string | null = null;
  do {
    const page = await api.exportPhotos(all, cursor);
    photos.push(...page.photos);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return photos;
}

export async function runExport(options: ExportOptions): Promise<ExportSummary> {
  const { api, reporter, directory } = options;
  await prepareDirectory(directory);
  // Everything is listed before any file is written: a refused token ends the run here.
  const photos = await listAllPhotos(api, options.all);
  const albums = await api.exportAlbums(options.all);
  const shares = await api.exportShares(options.all);

  // A run killed part way (SIGKILL, a power cut) leaves only `.partial` files beside whole ones; they go first.
  const leftovers = await removeLeftoverPartials(directory);
  if (leftovers > 0) reporter.note(`removed ${leftovers} unfinished file${leftovers === 1 ? "" : "s"} (.partial) left by an earlier export that was stopped part way`);
  const planner = new ExportPathPlanner(earlierPaths(directory));
  const planned = photos.map((photo) => ({ photo, path: planner.pathFor(photo) }));
  const summary: ExportSummary = { exported: 0, unchanged: 0, failed: 0, albums: albums.length, shares: shares.length, bytes: 0 };
  const files: WrittenFile[] = [];
  const exportedPhotos: ManifestPhoto[] = [];
  const failures: Array<{ id: string; path: string; reason: string }> = [];

  const totalBytes = photos.reduce((sum, photo) => sum + photo.originalSize, 0);
  reporter.startPhase("exporting", photos.length, totalBytes);
  let doneFiles = 0;
  let doneBytes = 0;
  await runPool(planned, options.concurrency, async ({ photo, path: relative }) => {
    try {
      const original = await exportOriginal(api, directory, photo, relative, (bytes) => {
        doneBytes += bytes;
        reporter.progress(doneFiles, doneBytes);
      });
      const json = await writeSmallFile(directory, contactSheetSidecarName(relative), `${JSON.stringify(contactSheetSidecarOf(photo), null, 2)}\n`);
      const xmp = await writeSmallFile(directory, `${relative}.xmp`, xmpSidecarFor(photo));
      files.push(original.file, json, xmp);
      exportedPhotos.push({ id: photo.id, sha256: photo.sha256, path: relative });
      if (original.unchanged) summary.unchanged += 1;
      else summary.exported += 1;
      summary.bytes += original.file.size;
      reporter.file({ path: relative, status: original.unchanged ? "unchanged" : "exported", photoId: photo.id, bytes: original.file.size });
    } catch (error) {
      summary.failed += 1;
      failures.push({ id: photo.id, path: relative, reason: reasonOf(error) });
      reporter.file({ path: relative, status: "failed", photoId: photo.id, reason: reasonOf(error) });
    }
    doneFiles += 1;
    reporter.progress(doneFiles, doneBytes);
  });
  reporter.endPhase();

  files.push(await writeSmallFile(directory, EXPORT_FILES.albums, `${JSON.stringify({ albums }, null, 2)}\n`));
  files.push(await writeSmallFile(directory, EXPORT_FILES.tags, `${JSON.stringify({ tags: tagCounts(photos) }, null, 2)}\n`));
  files.push(await writeSmallFile(directory, EXPORT_FILES.shares, `${JSON.stringify({ shares }, null, 2)}\n`));
  await writeManifest(options, files, exportedPhotos, failures, albums, shares);
  return summary;
}

/** The original, from the site unless the file there already has the right SHA-256. */
async function exportOriginal(
  api: SiteApi,
  directory: string,
  photo: ExportPhoto,
  relative: string,
  onBytes: (bytes: number) => void,
): Promise<{ file: WrittenFile; unchanged: boolean }> {
  const existing = await hashExisting(path.join(directory, relative));
  if (existing && existing.sha256 === photo.sha256) {
    onBytes(existing.size);
    return { file: { path: relative, ...existing }, unchanged: true };
  }
  const written = await writeStream(directory, relative, await api.openOriginal(photo.id), onBytes);
  const matches = written.sha256 === photo.sha256;
  await settlePartial(directory, relative, matches);
  if (!matches) throw new Error(`the site sent bytes whose SHA-256 is not the photo's (${written.size} bytes): the stored original may be damaged`);
  return { file: written, unchanged: false };
}

function tagCounts(photos: readonly ExportPhoto[]): Array<{ name: string; photos: number }> {
  const counts = new Map<string, number>();
  for (const photo of photos) for (const tag of photo.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([name, count]) => ({ name, photos: count }));
}

async function writeManifest(
  options: ExportOptions,
  files: WrittenFile[],
  photos: ManifestPhoto[],
  failures: Array<{ id: string; path: string; reason: string }>,
  albums: readonly ExportAlbum[],
  shares: readonly ExportShare[],
): Promise<void> {
  const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  const manifest = {
    format: EXPORT_FORMAT,
    version: EXPORT_FORMAT_VERSION,
    exportedAt: new Date().toISOString(),
    site: options.api.origin,
    scope: options.all ? "all users" : "the token's user",
    complete: failures.length === 0,
    counts: { photos: photos.length, failed: failures.length, albums: albums.length, shares: shares.length },
    failed: failures.sort(byPath),
    photos: photos.sort(byPath),
    files: files.sort(byPath),
  };
  await writeSmallFile(options.directory, EXPORT_FILES.manifest, `${JSON.stringify(manifest, null, 2)}\n`);
}
