import "server-only";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { DatabaseHandle } from "@/src/db/client";
import { AppError } from "@/src/errors/app-error";
import { notifyJobQueued } from "@/src/jobs/worker";
import { getStorage } from "@/src/storage/app-storage";
import { hasUnfinishedJob, listPhotosToVerify, listVariantsOfPhotos, type VerifiedPhotoRow } from "./library-verification.repository";
import { findOrphanFiles } from "./orphan-files";
import { variantPrefix } from "./photo-files";
import { RENDER_PHOTO_JOB } from "./photo-job-kinds";
import { queuePhotoRender } from "./photo-lifecycle";

const PAGE_SIZE = 200;

/** One thing wrong between the database and storage. */
export type LibraryProblem =
  | { kind: "missing-original"; photoId: string; key: string }
  | { kind: "original-mismatch"; photoId: string; key: string; expected: string; actual: string }
  | { kind: "missing-variants"; photoId: string; keys: string[] }
  | { kind: "orphan-file"; photoId: string; key: string; size: number };

export interface LibraryVerification {
  photos: number;
  originalBytes: number;
  variants: number;
  problems: LibraryProblem[];
}

export interface VerifyOptions {
  /** Orphans younger than this may be an upload still committing its row (see orphan-files.ts). */
  orphanMinimumAgeMs?: number;
  /** Called after each page of photos, for progress lines. */
  onProgress?: (photosChecked: number) => void;
}

/**
 * Checks that storage and the database agree: every photo row has its original, whose SHA-256 is
 * the one recorded at upload; every finished photo has each of its variants' files; every stored
 * original and variant belongs to a row. Reads every original whole (that is what a checksum
 * costs), one at a time, so the site keeps answering; photos still processing have their variants
 * judged only once they are done.
 */
export async function verifyLibrary(db: DatabaseHandle, options: VerifyOptions = {}): Promise<LibraryVerification> {
  const storage = getStorage();
  const result: LibraryVerification = { photos: 0, originalBytes: 0, variants: 0, problems: [] };
  let afterId: string | null = null;
  for (;;) {
    const photos: VerifiedPhotoRow[] = await listPhotosToVerify(db, afterId, PAGE_SIZE);
    if (photos.length === 0) break;
    afterId = photos[photos.length - 1].id;
    const variantsByPhoto = new Map<string, string[]>();
    for (const variant of await listVariantsOfPhotos(db, photos.map((photo) => photo.id))) {
      variantsByPhoto.set(variant.photo_id, [...(variantsByPhoto.get(variant.photo_id) ?? []), variant.storage_key]);
    }
    for (const photo of photos) {
      result.photos += 1;
      const actual = await sha256OfStored(photo.original_key);
      if (actual === null) result.problems.push({ kind: "missing-original", photoId: photo.id, key: photo.original_key });
      else if (actual !== photo.sha256) result.problems.push({ kind: "original-mismatch", photoId: photo.id, key: photo.original_key, expected: photo.sha256, actual });
      else result.originalBytes += photo.original_size;
      if (photo.status !== "ready") continue;
      const expected = variantsByPhoto.get(photo.id) ?? [];
      result.variants += expected.length;
      const stored = new Set<string>();
      for await (const object of storage.list(variantPrefix(photo.id))) stored.add(object.key);
      const missing = expected.filter((key) => !stored.has(key));
      // A finished photo without a single variant row lost them too: a render makes them all again.
      if (missing.length > 0 || expected.length === 0) result.problems.push({ kind: "missing-variants", photoId: photo.id, keys: missing });
    }
    options.onProgress?.(result.photos);
  }
  for await (const orphan of findOrphanFiles(db, { minimumAgeMs: options.orphanMinimumAgeMs })) {
    result.problems.push({ kind: "orphan-file", photoId: orphan.photoId, key: orphan.key, size: orphan.size });
  }
  return result;
}

async function sha256OfStored(key: string): Promise<string | null> {
  let stream;
  try {
    stream = await getStorage().read(key);
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") return null;
    throw error;
  }
  const hash = createHash("sha256");
  await pipeline(stream.body, hash);
  return hash.digest("hex");
}

export interface LibraryRepair {
  /** Photos whose variants are being made again (a render job each). */
  rendersQueued: string[];
  /** Orphan files moved out of storage, and where to. */
  quarantined: Array<{ key: string; path: string }>;
  /** Problems no repair may fix: a missing or changed original is never rewritten or deleted. */
  left: LibraryProblem[];
}

/**
 * Fixes what may be fixed: queues a render (every variant made again from the original) for each
 * photo missing variants, and moves each orphan file into `quarantineDirectory` (copied whole, then
 * removed from storage), so nothing is ever deleted. Originals are never touched.
 */
export async function repairLibrary(db: DatabaseHandle, problems: LibraryProblem[], quarantineDirectory: string): Promise<LibraryRepair> {
  const storage = getStorage();
  const repair: LibraryRepair = { rendersQueued: [], quarantined: [], left: [] };
  for (const problem of problems) {
    if (problem.kind === "missing-variants") {
      if (!(await hasUnfinishedJob(db, problem.photoId, RENDER_PHOTO_JOB))) {
        await db.transaction().execute((transaction) => queuePhotoRender(transaction, problem.photoId, new Date().toISOString()));
      }
      repair.rendersQueued.push(problem.photoId);
    } else if (problem.kind === "orphan-file") {
      const target = path.join(quarantineDirectory, ...problem.key.split("/"));
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      const partial = `${target}.partial`;
      await pipeline((await storage.read(problem.key)).body, fs.createWriteStream(partial));
      await fs.promises.rename(partial, target);
      await storage.delete(problem.key);
      repair.quarantined.push({ key: problem.key, path: target });
    } else {
      repair.left.push(problem);
    }
  }
  if (repair.rendersQueued.length > 0) notifyJobQueued();
  return repair;
}
