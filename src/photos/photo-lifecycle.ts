import "server-only";
import type { Transaction } from "kysely";
import { insertAuditEntry } from "@/src/audit/audit.repository";
import { getEnv } from "@/src/config/env";
import type { DatabaseHandle } from "@/src/db/client";
import type { Database, PhotoRotation, PhotoRow, PhotoVariantRow } from "@/src/db/database";
import { isUniqueViolation } from "@/src/db/errors";
import type { ImageType } from "@/src/images/image-type-detector";
import type { DecodedPhoto } from "@/src/images/photo-decoder";
import { insertJob } from "@/src/jobs/jobs.repository";
import { notifyJobQueued } from "@/src/jobs/worker";
import { getLogger } from "@/src/log/logger";
import { purgeFromCdn } from "@/src/media/cdn-purge";
import { getHotMedia } from "@/src/media/hot-media-fast-path";
import { bumpMediaAccessVersion } from "@/src/media/media-access-version.repository";
import { getSiteSettings } from "@/src/settings/site-settings.service";
import type { VideoProbe } from "@/src/video/video-probe";
import { VIDEO_CONTENT_TYPES, type VideoType } from "@/src/video/video-type-detector";
import { getStorage } from "@/src/storage/app-storage";
import { announcePhotosChanged } from "./photo-changes";
import { deletePhotoFiles, originalKey } from "./photo-files";
import { processingJobOf, RENDER_PHOTO_JOB } from "./photo-job-kinds";
import { newPublicationKey, toMediaUrl } from "./photo-publication";
import {
  deletePhotoRows,
  deletePhotoVariantRows,
  findOwnPhotoBySha256,
  findPhotoByIdEvenTrashed,
  insertPhoto,
  insertVariants,
  listPhotoFiles,
  listVariants,
  type PhotoFiles,
  updatePhoto,
} from "./photos.repository";
import { handOverVideoProbe } from "./video-probe-handoff";
import { handOverVisibleDecode } from "./visible-decode-handoff";

// A photo's life in one place: it is created (original stored, row and job committed together),
// its access changes (caches and CDN told), and it is removed (rows, then files). Whoever starts
// one of these (uploads, photos.service, users.service, later albums, shares and the CLI) goes
// through here, so nothing that must follow is left to each caller to remember.

const CONTENT_TYPES: Record<ImageType | VideoType, string> = {
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  avif: "image/avif",
  heic: "image/heic",
  tiff: "image/tiff",
  gif: "image/gif",
  ...VIDEO_CONTENT_TYPES,
  // Stored as the camera wrote it; never served inline (the original is only ever a download).
  raw: "application/octet-stream",
};

/** A file that passed the upload checks, to become a photo. */
export interface NewPhoto {
  ownerId: string;
  sha256: string;
  /** The name shown for the original, already made safe (sanitizeFileName). */
  originalName: string;
  type: ImageType | VideoType;
  /** A video's length from the upload's probe, shown on its tile while it is processed; null for photos. */
  durationMs?: number | null;
  size: number;
  /** The file on local disk; it may be moved into storage, so the caller must not use it afterwards. */
  sourcePath: string;
  /** The name without its extension, lower case, by which a RAW and a JPEG of one shot pair (src/photos/raw-pairing.ts). */
  pairingName?: string;
  /** Apple's content identifier, by which a Live Photo's still and MOV pair (src/photos/live-photo-pairing.ts). */
  liveContentId?: string | null;
  /** The upload check's decode, handed to the visible phase when the worker runs here; null when there is none (HEIC). */
  visibleDecode: DecodedPhoto | null;
  /** A video's probe from the upload check, handed to its poster job when the worker runs here. */
  videoProbe?: VideoProbe | null;
}

/** The photo that has the bytes now: the new one, or the one the owner already had. */
export interface CreatedPhoto {
  id: string;
  status: PhotoRow["status"];
  isDuplicate: boolean;
}

/**
 * Makes a photo of a received file: stores the original, then commits the row and its processing
 * job in one transaction, so there is never a photo without a job or a job without a photo. If
 * the owner already has these bytes (also when the same bytes arrive twice at once), answers that
 * photo instead. An original whose row did not commit is deleted again.
 *
 * `db` opens the transaction, so it must not be a transaction itself.
 */
export async function createPhoto(db: DatabaseHandle, photo: NewPhoto): Promise<CreatedPhoto> {
  const existing = await findOwnPhotoBySha256(db, photo.ownerId, photo.sha256);
  if (existing) {
    // The same bytes again while the photo is in the trash: it comes back, as restoring would bring it.
    if (existing.trashed_at !== null) {
      const now = new Date().toISOString();
      await db.transaction().execute(async (transaction) => {
        await updatePhoto(transaction, existing.id, { trashed_at: null, updated_at: now });
        const details = { photoIds: [existing.id], reason: "uploaded again", before: { trashedAt: existing.trashed_at }, after: { trashedAt: null } };
        await insertAuditEntry(transaction, { actorId: photo.ownerId, action: "photo.restore", targetId: existing.id, details }, now);
      });
      announcePhotosChanged([existing.id]);
    }
    return { id: existing.id, status: existing.status, isDuplicate: true };
  }

  const id = crypto.randomUUID();
  const storedKey = originalKey(id);
  const mediaKind = photo.type in VIDEO_CONTENT_TYPES ? "video" : "photo";
  // New uploads start as the site's settings say (PRODUCT.md: private unless an admin changes it).
  // Read before the original is stored: a failed read after it (a saturated pool) left the stored
  // original with no row and outside the try that deletes it (bench:load found two such orphans).
  const { defaultVisibility, showLocationByDefault } = await getSiteSettings(db);
  const storage = getStorage();
  await storage.putFile(storedKey, photo.sourcePath, { contentType: CONTENT_TYPES[photo.type], mayMoveSource: true });
  const now = new Date().toISOString();
  try {
    await db.transaction().execute(async (transaction) => {
      await insertPhoto(transaction, {
        id,
        owner_id: photo.ownerId,
        sha256: photo.sha256,
        status: "processing",
        failure_reason: null,
        visibility: defaultVisibility,
        show_location: showLocationByDefault ? 1 : 0,
        original_key: storedKey,
        original_name: photo.originalName,
        original_type: photo.type,
        original_size: photo.size,
        media_kind: mediaKind,
        duration_ms: photo.durationMs ?? null,
        pairing_name: photo.pairingName ?? null,
        live_content_id: photo.liveContentId ?? null,
        sort_at: now,
        created_at: now,
        updated_at: now,
      });
      await insertJob(transaction, { kind: processingJobOf(mediaKind), photoId: id, priority: 0 }, now);
      const after = { name: photo.originalName, type: photo.type, size: photo.size, visibility: defaultVisibility, showLocation: showLocationByDefault };
      await insertAuditEntry(transaction, { actorId: photo.ownerId, action: "photo.upload", targetId: id, details: { after } }, now);
    });
  } catch (error) {
    // The row never committed: its original must not stay behind as an orphan.
    await storage.delete(storedKey).catch((deleteError: unknown) => getLogger().error({ err: deleteError, key: storedKey }, "orphan original left"));
    if (isUniqueViolation(error)) {
      // The same bytes were uploaded at the same moment; that upload won.
      const winner = await findOwnPhotoBySha256(db, photo.ownerId, photo.sha256);
      if (winner) return { id: winner.id, status: winner.status, isDuplicate: true };
    }
    throw error;
  }
  // The worker in this process can start from the check's pixels rather than decode again.
  if (photo.visibleDecode && getEnv().RUN_WORKER) handOverVisibleDecode(id, photo.visibleDecode);
  if (photo.videoProbe && mediaKind === "video" && getEnv().RUN_WORKER) handOverVideoProbe(id, photo.videoProbe);
  notifyJobQueued();
  announcePhotosChanged([id]);
  return { id, status: "processing", isDuplicate: false };
}

/**
 * In the transaction that makes a public photo stop being public: gives it a new publication key,
 * so every URL it had dies for good (see photo-publication.ts), and moves the media access version
 * on, so every instance drops its cached public media. Answers the withdrawn URLs, for
 * onPhotoAccessChanged once the transaction has committed.
 */
export async function withdrawPublication(transaction: Transaction<Database>, photo: Pick<PhotoRow, "id" | "publication_key">): Promise<string[]> {
  const variants = await listVariants(transaction, [photo.id]);
  await updatePhoto(transaction, photo.id, { publication_key: newPublicationKey() });
  await bumpMediaAccessVersion(transaction);
  return variants.map((variant) => toMediaUrl(photo.publication_key, variant.storage_key));
}

/**
 * withdrawPublication for many photos at once (a bulk change of visibility, moving photos to the
 * trash): a new publication key for each, the media access version moved on once. Answers the
 * withdrawn URLs, for onPhotoAccessChanged once the transaction has committed.
 */
export async function withdrawPublications(transaction: Transaction<Database>, photos: Array<Pick<PhotoRow, "id" | "publication_key">>): Promise<string[]> {
  if (photos.length === 0) return [];
  const variants = await listVariants(transaction, photos.map((photo) => photo.id));
  const keys = new Map(photos.map((photo) => [photo.id, photo.publication_key]));
  for (const photo of photos) await updatePhoto(transaction, photo.id, { publication_key: newPublicationKey() });
  await bumpMediaAccessVersion(transaction);
  return variants.map((variant) => toMediaUrl(keys.get(variant.photo_id) as string, variant.storage_key));
}

/**
 * After a change to photos has committed (their visibility, or anything else they show): stops
 * serving them from this process's memory and tells the CDN to drop the withdrawn URLs. After the
 * write, never before, so a /media request that read the old row cannot put it back (see the hot
 * cache's epoch).
 */
export function onPhotoAccessChanged(photoIds: string[], withdrawnUrls: string[] = []): void {
  const cache = getHotMedia().cache;
  for (const photoId of photoIds) cache.dropPhoto(photoId);
  purgeFromCdn(withdrawnUrls);
  announcePhotosChanged(photoIds);
}

/**
 * Which photos to remove: these (only those trashed before `trashedBefore` when given, so a photo
 * restored meanwhile stays), or every photo of one owner, in the trash or not.
 */
export type PhotoSelection = { photoIds: string[]; trashedBefore?: string } | { ownerId: string };

/**
 * Removes photos for good: deletes their rows in one transaction, together with `alongside` (for
 * instance their owner's row and its audit entry; it is told which photos went), then, once that has committed, stops serving
 * them on every instance, deletes their stored files and tells the CDN to drop the public ones.
 * Files go only after the commit: a rolled-back removal leaves the photos whole.
 *
 * `db` opens the transaction, so it must not be a transaction itself.
 */
export async function removePhotos(
  db: DatabaseHandle,
  selection: PhotoSelection,
  alongside?: (transaction: Transaction<Database>, removed: PhotoFiles[]) => Promise<void>,
): Promise<PhotoFiles[]> {
  const removed = await db.transaction().execute(async (transaction) => {
    const photos = await listPhotoFiles(transaction, selection);
    await deletePhotoRows(transaction, photos.map((photo) => photo.id));
    await alongside?.(transaction, photos);
    return photos;
  });
  await cleanUpRemovedPhotos(db, removed);
  return removed;
}

async function cleanUpRemovedPhotos(db: DatabaseHandle, photos: PhotoFiles[]): Promise<void> {
  // After the rows are gone, never before: see bumpMediaAccessVersion.
  if (photos.some((photo) => photo.visibility === "public")) await bumpMediaAccessVersion(db);
  announcePhotosChanged(photos.map((photo) => photo.id));
  for (const photo of photos) {
    getHotMedia().cache.dropPhoto(photo.id);
    const variantKeys = await deletePhotoFiles(photo);
    if (photo.visibility === "public") purgeFromCdn(variantKeys.map((key) => toMediaUrl(photo.publication_key, key)));
  }
}

/**
 * In the transaction that changes a photo's rotation: queues its variants to be made again (the
 * worker is woken by `afterPhotoRenderQueued` once it commits). Its current variants keep being
 * served until the new ones replace them.
 */
export async function queuePhotoRender(transaction: Transaction<Database>, photoId: string, now: string): Promise<void> {
  // After every waiting upload is made visible (priority 0), before their larger sizes (5): the owner is waiting to see it.
  await insertJob(transaction, { kind: RENDER_PHOTO_JOB, photoId, priority: 1 }, now);
}

/** After the transaction that queued a render has committed. */
export function afterPhotoRenderQueued(): void {
  notifyJobQueued();
}

/** Variants made again at one rotation, already stored, with what they make the photo. */
export interface RenderedVariants {
  rotation: PhotoRotation;
  variants: PhotoVariantRow[];
  width: number;
  height: number;
  thumbhash: string;
  dominantColor: string;
}

/**
 * Puts variants made again (after a turn) in place of the photo's old ones: the rows swapped in one
 * transaction with the photo's new size and placeholder, unless the photo is gone or was turned
 * again meanwhile (then these are dropped, and the later render wins). Once committed, the old
 * files are deleted, this process stops serving them from memory and the CDN is told to drop their
 * public URLs. Variant keys are named by their content, so the new variants have new URLs and no
 * browser or CDN shows the old picture. Answers whether they were put in place.
 *
 * `db` opens the transaction, so it must not be a transaction itself.
 */
export async function replacePhotoVariants(db: DatabaseHandle, photoId: string, rendered: RenderedVariants): Promise<boolean> {
  const outcome = await db.transaction().execute(async (transaction) => {
    const photo = await findPhotoByIdEvenTrashed(transaction, photoId);
    if (!photo || photo.rotation !== rendered.rotation) return null;
    const old = await listVariants(transaction, [photoId]);
    await deletePhotoVariantRows(transaction, photoId);
    await insertVariants(transaction, rendered.variants);
    await updatePhoto(transaction, photoId, {
      width: rendered.width,
      height: rendered.height,
      thumbhash: rendered.thumbhash,
      dominant_color: rendered.dominantColor,
      updated_at: new Date().toISOString(),
    });
    return { photo, old };
  });
  const newKeys = new Set(rendered.variants.map((variant) => variant.storage_key));
  const storage = getStorage();
  if (outcome === null) {
    // Not put in place: these files belong to no row (unless a later render made the same bytes).
    const current = new Set((await listVariants(db, [photoId])).map((variant) => variant.storage_key));
    for (const key of newKeys) if (!current.has(key)) await deleteQuietly(storage, key);
    return false;
  }
  const dropped = outcome.old.filter((variant) => !newKeys.has(variant.storage_key));
  const droppedUrls = outcome.photo.visibility === "public" ? dropped.map((variant) => toMediaUrl(outcome.photo.publication_key, variant.storage_key)) : [];
  onPhotoAccessChanged([photoId], droppedUrls);
  for (const variant of dropped) await deleteQuietly(storage, variant.storage_key);
  return true;
}

async function deleteQuietly(storage: ReturnType<typeof getStorage>, key: string): Promise<void> {
  // A file that cannot be deleted is only bytes nobody can reach (no row names it); logged for collection.
  await storage.delete(key).catch((error: unknown) => getLogger().warn({ err: error, key }, "could not delete a replaced variant"));
}
