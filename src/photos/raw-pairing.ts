import "server-only";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { DatabaseHandle } from "@/src/db/client";
import type { PhotoRow } from "@/src/db/database";
import type { ImageType } from "@/src/images/image-type-detector";
import { type PhotoMetadata, readPhotoMetadata } from "@/src/images/photo-metadata-reader";
import { readRawMetadata } from "@/src/images/raw/raw-metadata-reader";
import { getLogger } from "@/src/log/logger";
import { getStorage } from "@/src/storage/app-storage";
import { getTemporaryDirectory, ownedTemporaryName } from "@/src/storage/temporary-files";
import { announcePhotosChanged } from "./photo-changes";
import { companionPrefix } from "./photo-files";
import { removePhotos } from "./photo-lifecycle";

// RAW+JPEG: a camera set to write both names the two files of one shot alike (IMG_0042.CR2 and
// IMG_0042.JPG). They become one photo that shows the JPEG; the RAW is kept beside it, as the
// photo's RAW companion, for its owner to download. The halves may come in one upload or in
// separate requests in either order (the uploader sends three files at a time), so each half,
// once stored, looks for the other:
// - a RAW whose JPEG is already a photo is attached to it (attachRawCompanion);
// - a JPEG whose RAW is already a photo of its own takes that RAW over (foldRawPhotoInto): the
//   RAW's file becomes the JPEG photo's companion and the RAW's photo goes.
// Halves pair when they have the same owner and name without extension (case aside), neither is
// in the trash, the JPEG side has no RAW yet, and their capture times agree where both are known
// (a camera's file counter wraps after 9999, so a name alone may meet an older shot).

/** A file on local disk that may become a photo's RAW companion. */
export interface RawCompanionSource {
  sourcePath: string;
  /** Already made safe (sanitizeFileName). */
  name: string;
  size: number;
  sha256: string;
}

/** The name a pair shares: the file name without its last extension, NFC, lower case. */
export function pairingNameOf(fileName: string): string {
  const stem = fileName.normalize("NFC").replace(/\.[^.]*$/, "");
  return (stem || fileName).toLowerCase();
}

/**
 * When a file says it was taken (ISO 8601 to the second, without offset), or null: the check that a
 * pair is one shot. `known` is the metadata the upload check's decode already read from this file,
 * so the file is not read again (two exifr passes per upload).
 */
export async function readCaptureTime(filePath: string, type: ImageType, known?: PhotoMetadata): Promise<string | null> {
  const { exif } = known ?? (type === "raw" ? await readRawMetadata(filePath) : await readPhotoMetadata(filePath));
  return exif.takenAt?.slice(0, 19) ?? null;
}

function capturesAgree(a: string | null, b: string | null): boolean {
  return a === null || b === null || a.slice(0, 19) === b.slice(0, 19);
}

/** The owner's photo a RAW of this name and capture time belongs beside: not a RAW, no RAW yet, not in the trash. */
export async function findRawHost(db: DatabaseHandle, ownerId: string, pairingName: string, takenAt: string | null): Promise<PhotoRow | undefined> {
  const candidates = await db
    .selectFrom("photos")
    .selectAll()
    .where("owner_id", "=", ownerId)
    .where("pairing_name", "=", pairingName)
    .where("original_type", "!=", "raw")
    .where("raw_companion_key", "is", null)
    .where("trashed_at", "is", null)
    .orderBy("created_at", "desc")
    .limit(20)
    .execute();
  return candidates.find((photo) => capturesAgree(photo.taken_at, takenAt));
}

/** The owner's RAW photo of this name and capture time that a new JPEG should take over, if any. */
export async function findLoneRawPhoto(db: DatabaseHandle, ownerId: string, pairingName: string, takenAt: string | null): Promise<PhotoRow | undefined> {
  const candidates = await db
    .selectFrom("photos")
    .selectAll()
    .where("owner_id", "=", ownerId)
    .where("pairing_name", "=", pairingName)
    .where("original_type", "=", "raw")
    .where("trashed_at", "is", null)
    .orderBy("created_at", "desc")
    .limit(20)
    .execute();
  return candidates.find((photo) => capturesAgree(photo.taken_at, takenAt));
}

/** The owner's photo that already keeps a RAW with these bytes, so the same RAW again is a duplicate. */
export function findPhotoWithRawCompanion(db: DatabaseHandle, ownerId: string, sha256: string): Promise<PhotoRow | undefined> {
  return db.selectFrom("photos").selectAll().where("owner_id", "=", ownerId).where("raw_companion_sha256", "=", sha256).executeTakeFirst();
}

function rawCompanionKey(photoId: string, sha256: string): string {
  return `${companionPrefix(photoId)}raw-${sha256.slice(0, 16)}`;
}

/**
 * Stores the RAW and records it as the host photo's companion, unless the host got one meanwhile
 * (or went): then the stored copy is deleted again and false is answered. The caller still owns
 * (and removes) the source file.
 */
export async function attachRawCompanion(db: DatabaseHandle, hostId: string, source: RawCompanionSource): Promise<boolean> {
  const key = rawCompanionKey(hostId, source.sha256);
  await getStorage().putFile(key, source.sourcePath, { contentType: "application/octet-stream" });
  const attached = await recordRawCompanion(db, hostId, key, source).catch(async (error: unknown) => {
    await deleteStored(key);
    throw error;
  });
  if (!attached) {
    await deleteStored(key);
    return false;
  }
  getLogger().info({ photoId: hostId, size: source.size }, "RAW kept beside its JPEG");
  announcePhotosChanged([hostId]);
  return true;
}

/** Sets the companion only where none is set: of two RAWs racing for one JPEG, one wins. */
async function recordRawCompanion(db: DatabaseHandle, hostId: string, key: string, source: RawCompanionSource): Promise<boolean> {
  const result = await db
    .updateTable("photos")
    .set({
      raw_companion_key: key,
      raw_companion_name: source.name,
      raw_companion_size: source.size,
      raw_companion_sha256: source.sha256,
      updated_at: new Date().toISOString(),
    })
    .where("id", "=", hostId)
    .where("raw_companion_key", "is", null)
    .where("trashed_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

class HostTakenError extends Error {}

/**
 * Makes a RAW that became a photo of its own (it came before its JPEG) the companion of the JPEG's
 * photo: its file is copied under the host's companions, and in one transaction the host records
 * it and the RAW's photo is removed (through the lifecycle, which then deletes its original and
 * variants and tells the caches). Answers false, changing nothing, when the host has a RAW by then.
 */
export async function foldRawPhotoInto(db: DatabaseHandle, raw: PhotoRow, hostId: string): Promise<boolean> {
  const key = rawCompanionKey(hostId, raw.sha256);
  await copyStored(raw.original_key, key);
  const source: RawCompanionSource = { sourcePath: "", name: raw.original_name, size: raw.original_size, sha256: raw.sha256 };
  try {
    await removePhotos(db, { photoIds: [raw.id] }, async (transaction, removed) => {
      if (removed.length !== 1 || !(await recordRawCompanion(transaction, hostId, key, source))) throw new HostTakenError();
    });
  } catch (error) {
    await deleteStored(key);
    if (error instanceof HostTakenError) return false;
    throw error;
  }
  getLogger().info({ photoId: hostId, rawPhotoId: raw.id }, "RAW photo taken over by its JPEG");
  return true;
}

/** Copies a stored file to another key through a temporary file (the stores have no copy of their own). */
export async function copyStored(fromKey: string, toKey: string, contentType = "application/octet-stream"): Promise<void> {
  const storage = getStorage();
  const localPath = await storage.localPathOf(fromKey);
  if (localPath) return storage.putFile(toKey, localPath, { contentType });
  const directory = getTemporaryDirectory();
  await fs.mkdir(directory, { recursive: true });
  const temporaryPath = path.join(directory, ownedTemporaryName("companion"));
  try {
    const object = await storage.read(fromKey);
    await pipeline(object.body, createWriteStream(temporaryPath));
    await storage.putFile(toKey, temporaryPath, { contentType, mayMoveSource: true });
  } finally {
    await fs.rm(temporaryPath, { force: true });
  }
}

async function deleteStored(key: string): Promise<void> {
  await getStorage()
    .delete(key)
    .catch((error: unknown) => getLogger().error({ err: error, key }, "orphan companion file left"));
}
