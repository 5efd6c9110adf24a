// `contact-sheet import`, from the named paths to photos on the site: walk, hash (or take the hash
// the state remembers for an unchanged file, reading nothing), ask the site in batches which hashes
// it already has, upload only the new files through tus, then put the visibility, tags and albums on
// them. Albums are made only once their photos exist, so no run leaves an empty album behind. Each
// file's failure is told with its path and the run goes on; the next run finishes the job.
import type { Visibility } from "@/src/db/database";
import type { ImportMetadata } from "@/src/import/import-metadata";
import { MAX_ALBUM_PHOTOS_PER_REQUEST } from "@/src/albums/albums.types";
import { type AlbumMode, albumPathKey, type AlbumTarget, albumTargetFor } from "./album-folders";
import fs from "node:fs";
import type { ExportAlbum, ExportShare } from "@/src/export/export-api.schemas";
import { contactSheetSidecarName } from "@/src/import/contact-sheet-sidecar";
import { AlbumResolver } from "./album-resolver";
import { restoreExportAlbums } from "./export-albums";
import { restoreExportShares, sharesRestoredText } from "./export-shares";
import { applyImportMetadata } from "./apply-metadata";
import { hashSource } from "./hash-source";
import { formatBytes, type ImportReporter, type ImportSummary } from "./import-report";
import type { ImportSource } from "./import-source";
import { ImportState } from "./import-state";
import { runPool } from "./run-pool";
import { type KnownFile, type SiteApi, SiteApiError } from "./site-api";
import { uploadSource } from "./tus-upload";
import { takeoutPlaceOf } from "./takeout-albums";
import { walkSources } from "./walk-sources";

/** What POST /api/upload/known takes per call (src/uploads/known-files.schemas.ts). */
const HASHES_PER_CHECK = 500;
/** Hashing is bound by the disk, not the network: two files at a time keep it busy. */
const HASHING_CONCURRENCY = 2;
/** How often the state is written while files are uploaded, so a killed run loses little. */
const STATE_SAVE_INTERVAL_MS = 2000;
/** PATCH /api/photos takes at most 1,000 ids; the tags API 500. */
const PHOTOS_PER_BULK_REQUEST = 500;

export interface ImportOptions {
  paths: string[];
  api: SiteApi;
  statePath: string;
  dryRun: boolean;
  albums: AlbumMode;
  visibility: Visibility | null;
  tags: string[];
  concurrency: number;
  reporter: ImportReporter;
  /**
   * What the sidecar and Takeout readers (src/import) know about a file, applied to it once it is
   * uploaded. Not given yet: the readers are wired in separately.
   */
  readMetadata?: (source: ImportSource) => Promise<ImportMetadata>;
  /** The title in the metadata.json beside a source (a Google Takeout album's), for `--albums folders`. */
  readAlbumTitle?: (source: ImportSource) => Promise<string | null>;
  /** The albums of a folder `contact-sheet export` wrote (its albums.json), made once the photos are in. */
  exportAlbums?: readonly ExportAlbum[];
  /** Its share links (shares.json), made again for the importing user once the photos and albums are in. */
  exportShares?: readonly ExportShare[];
  /** --owner: from an export of several users (`export --all`), only the photos whose sidecar names this owner. */
  ownerEmail?: string;
}

interface HashedSource {
  source: ImportSource;
  sha256: string;
  album: AlbumTarget | null;
}

function reasonOf(error: unknown): string {
  if (error instanceof SiteApiError) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return "it is gone (moved or deleted during the run)";
  if (code === "EACCES" || code === "EPERM") return "not readable (permission denied)";
  return error instanceof Error ? error.message : String(error);
}

/** The owner an export's JSON sidecar names for this file (lower case), or null when it has none. */
function exportedOwnerOf(source: ImportSource): string | null {
  if (!source.filePath) return null;
  try {
    const sidecar = JSON.parse(fs.readFileSync(contactSheetSidecarName(source.filePath), "utf8")) as { ownerEmail?: unknown };
    return typeof sidecar.ownerEmail === "string" ? sidecar.ownerEmail.toLowerCase() : null;
  } catch {
    return null;
  }
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

function displayPath(source: ImportSource): string {
  return source.key;
}

export async function runImport(options: ImportOptions): Promise<ImportSummary> {
  const { api, reporter } = options;
  const summary: ImportSummary = { uploaded: 0, duplicates: 0, skipped: 0, failed: 0, albumsCreated: 0 };

  // Who we are and what the site takes; a refused token ends the run here, before any file is read.
  const limits = await api.uploadLimits();
  const state = ImportState.load(options.statePath, api.origin, limits.uploaderId);
  const walked = await walkSources(options.paths, { maxFileBytes: limits.maxFileBytes });
  if (options.ownerEmail !== undefined) walked.sources = walked.sources.filter((source) => exportedOwnerOf(source) === options.ownerEmail?.toLowerCase());
  try {
    for (const skipped of walked.skipped) reporter.file({ path: skipped.path, status: "skipped", reason: skipped.reason });
    summary.skipped = walked.skipped.length;

    const hashed = await hashAll(walked.sources, state, options, summary);
    const known = await checkKnown(api, hashed);

    // New files, each hash once; a second copy of a file in this run (or one the site has) is a duplicate.
    const toUpload: HashedSource[] = [];
    const duplicates: Array<HashedSource & { photoId?: string; trashed?: boolean }> = [];
    const firstOfHash = new Map<string, HashedSource>();
    for (const file of hashed) {
      const onSite = known.get(file.sha256);
      if (onSite) duplicates.push({ ...file, photoId: onSite.photoId, trashed: onSite.trashed });
      else if (firstOfHash.has(file.sha256)) duplicates.push(file);
      else {
        firstOfHash.set(file.sha256, file);
        toUpload.push(file);
      }
    }

    const albumTargets = new Map<string, AlbumTarget>();
    for (const file of hashed) if (file.album) albumTargets.set(albumPathKey(file.album.titles), file.album);
    const resolver = albumTargets.size > 0 ? new AlbumResolver(api) : null;

    if (options.dryRun) {
      await tellPlan(options, toUpload, duplicates, albumTargets, resolver, summary);
      const links = options.exportShares?.length ?? 0;
      if (links > 0) reporter.note(`plan: ${links} share link${links === 1 ? "" : "s"} from the export to make again, with new addresses (ones already made by an earlier run are skipped)`);
      reporter.summary(summary, true);
      return summary;
    }

    // Duplicates need no upload; remembering them lets the next run only stat them.
    const photoIdByHash = new Map<string, string>();
    for (const [hash, file] of known) photoIdByHash.set(hash, file.photoId);
    const uploadedIds: string[] = [];
    await uploadAll(toUpload, state, options, summary, photoIdByHash, uploadedIds);
    for (const file of duplicates) {
      const photoId = file.photoId ?? photoIdByHash.get(file.sha256);
      if (!photoId) {
        summary.failed += 1;
        reporter.file({ path: displayPath(file.source), status: "failed", reason: "a copy of a file that failed to upload in this run" });
        continue;
      }
      summary.duplicates += 1;
      state.remember(file.source.key, { size: file.source.size, mtimeMs: file.source.mtimeMs, sha256: file.sha256, photoId });
      reporter.file({ path: displayPath(file.source), status: "duplicate", photoId, ...(file.trashed ? { reason: "in your trash; left there" } : {}) });
    }
    state.save();

    await finishPhotos(options, summary, uploadedIds);
    if (resolver) await fillAlbums(options, summary, resolver, hashed, photoIdByHash);
    let siteAlbumIdByPath = new Map<string, string>();
    if (options.exportAlbums && options.exportAlbums.length > 0) {
      const restored = await restoreExportAlbums(api, options.exportAlbums, photoIdByHash);
      summary.albumsCreated += restored.created;
      summary.failed += restored.failures.length;
      siteAlbumIdByPath = restored.siteIdByPath;
      for (const text of [...restored.failures, ...restored.notes]) reporter.note(text);
    }
    if (options.exportShares && options.exportShares.length > 0) {
      const context = { uploaderId: limits.uploaderId, photoIdByHash, albums: options.exportAlbums ?? [], siteAlbumIdByPath };
      const restored = await restoreExportShares(api, options.exportShares, context);
      summary.failed += restored.failures.length;
      for (const text of [...restored.failures, ...sharesRestoredText(restored)]) reporter.note(text);
    }
    reporter.summary(summary, false);
    return summary;
  } finally {
    walked.close();
    if (!options.dryRun) state.save();
  }
}

async function hashAll(sources: ImportSource[], state: ImportState, options: ImportOptions, summary: ImportSummary): Promise<HashedSource[]> {
  const { reporter } = options;
  // An unchanged file (same size and modification time) is not read: its hash is remembered. The
  // phase counts only the files it reads, so a rerun says "hashing: 0 files" rather than the tree's size.
  const remembered = sources.map((source) => state.unchangedHash(source.key, source.size, source.mtimeMs));
  const unchanged = remembered.filter((sha256) => sha256 !== undefined).length;
  const bytesToRead = sources.reduce((sum, source, index) => (remembered[index] === undefined ? sum + source.size : sum), 0);
  reporter.startPhase(unchanged > 0 ? `hashing (${unchanged} unchanged, not read)` : "hashing", sources.length - unchanged, bytesToRead);
  const results: Array<HashedSource | null> = new Array<HashedSource | null>(sources.length).fill(null);
  let doneFiles = 0;
  let doneBytes = 0;
  await runPool(sources, HASHING_CONCURRENCY, async (source, index) => {
    const known = remembered[index];
    try {
      const sha256 = known ?? (await hashSource(source));
      results[index] = { source, sha256, album: await albumFor(source, options) };
    } catch (error) {
      summary.failed += 1;
      reporter.file({ path: displayPath(source), status: "failed", reason: reasonOf(error) });
    }
    if (known !== undefined) return;
    doneFiles += 1;
    doneBytes += source.size;
    reporter.progress(doneFiles, doneBytes);
  });
  reporter.endPhase();
  return results.filter((result): result is HashedSource => result !== null);
}

/** The folder albums, except in a Google Takeout: its album folders by their metadata.json title, its year folders none. */
async function albumFor(source: ImportSource, options: ImportOptions): Promise<AlbumTarget | null> {
  if (options.albums.kind === "folders") {
    const takeout = takeoutPlaceOf(source.folders);
    if (takeout.kind === "no-album") return null;
    if (takeout.kind === "album") return albumTargetFor([(await options.readAlbumTitle?.(source)) ?? takeout.folder], options.albums);
  }
  return albumTargetFor(source.folders, options.albums);
}

async function checkKnown(api: SiteApi, hashed: HashedSource[]): Promise<Map<string, KnownFile>> {
  const known = new Map<string, KnownFile>();
  const distinct = [...new Set(hashed.map((file) => file.sha256))];
  for (const batch of chunks(distinct, HASHES_PER_CHECK)) for (const file of await api.knownFiles(batch)) known.set(file.sha256, file);
  return known;
}

async function tellPlan(
  options: ImportOptions,
  toUpload: HashedSource[],
  duplicates: Array<HashedSource & { trashed?: boolean }>,
  albumTargets: Map<string, AlbumTarget>,
  resolver: AlbumResolver | null,
  summary: ImportSummary,
): Promise<void> {
  const { reporter } = options;
  for (const file of toUpload) reporter.file({ path: displayPath(file.source), status: "new", bytes: file.source.size });
  for (const file of duplicates) reporter.file({ path: displayPath(file.source), status: "duplicate", ...(file.trashed ? { reason: "in your trash; left there" } : {}) });
  summary.uploaded = toUpload.length;
  summary.duplicates = duplicates.length;
  const bytes = toUpload.reduce((sum, file) => sum + file.source.size, 0);
  reporter.note(`plan: ${toUpload.length} new file${toUpload.length === 1 ? "" : "s"} to send (${formatBytes(bytes)}), ${duplicates.length} already on the site, ${summary.skipped} skipped`);
  if (!resolver) return;
  const toCreate = new Set<string>();
  try {
    for (const target of albumTargets.values()) {
      const { missing } = await resolver.lookUp(target.titles);
      // Each missing level of a path is one album; a parent shared by several paths is counted once.
      for (let level = target.titles.length - missing; level < target.titles.length; level += 1) toCreate.add(albumPathKey(target.titles.slice(0, level + 1)));
    }
  } catch (error) {
    reporter.note(`albums: could not look them up: ${reasonOf(error)}`);
  }
  summary.albumsCreated = toCreate.size;
  for (const key of [...toCreate].sort()) reporter.note(`album to create: ${key.split("\u0000").join(" › ")}`);
  const folded = [...albumTargets.values()].filter((target) => target.folded);
  if (folded.length > 0) reporter.note(`albums nest at most ${folded[0].titles.length} levels: photos in deeper folders go into ${folded.map((target) => target.titles.join(" › ")).join("; ")}`);
}

async function uploadAll(
  toUpload: HashedSource[],
  state: ImportState,
  options: ImportOptions,
  summary: ImportSummary,
  photoIdByHash: Map<string, string>,
  uploadedIds: string[],
): Promise<void> {
  const { reporter } = options;
  const totalBytes = toUpload.reduce((sum, file) => sum + file.source.size, 0);
  reporter.startPhase("uploading", toUpload.length, totalBytes);
  const sentByFile = new Map<HashedSource, number>();
  let finishedBytes = 0;
  let doneFiles = 0;
  let lastSave = Date.now();
  const tell = () => reporter.progress(doneFiles, finishedBytes + [...sentByFile.values()].reduce((sum, sent) => sum + sent, 0));
  await runPool(toUpload, options.concurrency, async (file) => {
    const path = displayPath(file.source);
    try {
      const photo = await uploadSource(options.api, state, file.source, file.sha256, (sent) => {
        sentByFile.set(file, sent);
        tell();
      });
      photoIdByHash.set(file.sha256, photo.id);
      state.remember(file.source.key, { size: file.source.size, mtimeMs: file.source.mtimeMs, sha256: file.sha256, photoId: photo.id });
      if (photo.isDuplicate) {
        summary.duplicates += 1;
        reporter.file({ path, status: "duplicate", photoId: photo.id });
      } else {
        summary.uploaded += 1;
        uploadedIds.push(photo.id);
        reporter.file({ path, status: "uploaded", photoId: photo.id, bytes: file.source.size });
        if (options.readMetadata) await applyImportMetadata(options.api, photo.id, await options.readMetadata(file.source));
      }
    } catch (error) {
      summary.failed += 1;
      reporter.file({ path, status: "failed", reason: reasonOf(error) });
    }
    sentByFile.delete(file);
    finishedBytes += file.source.size;
    doneFiles += 1;
    tell();
    if (Date.now() - lastSave > STATE_SAVE_INTERVAL_MS) {
      state.save();
      lastSave = Date.now();
    }
  });
  reporter.endPhase();
}

/** --visibility and --tag, on the photos this run uploaded (photos already there keep what their owner chose). */
async function finishPhotos(options: ImportOptions, summary: ImportSummary, uploadedIds: string[]): Promise<void> {
  if (uploadedIds.length === 0) return;
  const steps: Array<[string, (ids: string[]) => Promise<void>]> = [];
  if (options.visibility) steps.push([`visibility ${options.visibility}`, (ids) => options.api.setVisibility(ids, options.visibility as Visibility)]);
  if (options.tags.length > 0) steps.push([`tags ${options.tags.join(", ")}`, (ids) => options.api.addTags(ids, options.tags)]);
  for (const [what, step] of steps) {
    try {
      for (const batch of chunks(uploadedIds, PHOTOS_PER_BULK_REQUEST)) await step(batch);
    } catch (error) {
      summary.failed += 1;
      options.reporter.note(`failed to set ${what} on the uploaded photos: ${reasonOf(error)}`);
    }
  }
}

/** Each album path with at least one photo: found or created, then its photos added (ones already in it are skipped by the site). */
async function fillAlbums(
  options: ImportOptions,
  summary: ImportSummary,
  resolver: AlbumResolver,
  hashed: HashedSource[],
  photoIdByHash: Map<string, string>,
): Promise<void> {
  const photosByAlbum = new Map<string, { target: AlbumTarget; photoIds: Set<string> }>();
  for (const file of hashed) {
    const photoId = photoIdByHash.get(file.sha256);
    if (!file.album || !photoId) continue;
    const key = albumPathKey(file.album.titles);
    const entry = photosByAlbum.get(key) ?? { target: file.album, photoIds: new Set<string>() };
    entry.photoIds.add(photoId);
    photosByAlbum.set(key, entry);
  }
  for (const { target, photoIds } of photosByAlbum.values()) {
    const name = target.titles.join(" › ");
    try {
      const album = await resolver.findOrCreate(target.titles);
      if (!album) continue;
      for (const batch of chunks([...photoIds], MAX_ALBUM_PHOTOS_PER_REQUEST)) await options.api.addPhotosToAlbum(album.id, batch);
    } catch (error) {
      summary.failed += 1;
      options.reporter.note(`failed to fill the album ${name}: ${reasonOf(error)}`);
    }
  }
  summary.albumsCreated = resolver.createdCount;
  const folded = [...photosByAlbum.values()].filter(({ target }) => target.folded);
  if (folded.length > 0) options.reporter.note(`albums nest at most ${folded[0].target.titles.length} levels: photos in deeper folders went into ${folded.map(({ target }) => target.titles.join(" › ")).join("; ")}`);
}
