import "server-only";
import type { DatabaseHandle } from "@/src/db/client";
import { getLogger } from "@/src/log/logger";
import { getStorage } from "@/src/storage/app-storage";
import { COMPANIONS_PREFIX, ORIGINALS_PREFIX, photoIdOfCompanionKey, photoIdOfOriginalKey, photoIdOfVariantKey, VARIANTS_PREFIX } from "./photo-files";

/**
 * A file is stored a moment before the row that names it commits (an original before its photo,
 * a variant before its variant row); one this young may belong to work still in flight on another
 * instance, so only older ones are judged.
 */
export const ORPHAN_MINIMUM_AGE_MS = 60 * 60 * 1000;
const BATCH_SIZE = 500;

/** The stored files that belong to one photo, and how to tell which photo from a key. */
const PHOTO_FILES = [
  { prefix: ORIGINALS_PREFIX, photoIdOf: photoIdOfOriginalKey },
  { prefix: VARIANTS_PREFIX, photoIdOf: photoIdOfVariantKey },
  { prefix: COMPANIONS_PREFIX, photoIdOf: photoIdOfCompanionKey },
];

export interface OrphanFile {
  key: string;
  /** The photo its key names, which has no row. */
  photoId: string;
  size: number;
}

/**
 * Every stored original and variant whose photo has no row and which is at least `minimumAgeMs`
 * old. Keys not in the app's own formats are never answered. Lists every stored file once, asking
 * the database in batches.
 */
export async function* findOrphanFiles(db: DatabaseHandle, options: { now?: number; minimumAgeMs?: number } = {}): AsyncGenerator<OrphanFile> {
  const now = options.now ?? Date.now();
  const minimumAgeMs = options.minimumAgeMs ?? ORPHAN_MINIMUM_AGE_MS;
  const storage = getStorage();
  for (const { prefix, photoIdOf } of PHOTO_FILES) {
    let batch: Array<{ key: string; photoId: string }> = [];
    const judgeBatch = async function* (): AsyncGenerator<OrphanFile> {
      if (batch.length === 0) return;
      const photoIds = [...new Set(batch.map((file) => file.photoId))];
      const rows = await db.selectFrom("photos").select("id").where("id", "in", photoIds).execute();
      const known = new Set(rows.map((row) => row.id));
      const judged = batch;
      batch = [];
      for (const { key, photoId } of judged) {
        if (known.has(photoId)) continue;
        const info = await storage.stat(key);
        if (!info || now - info.modifiedAt.getTime() < minimumAgeMs) continue;
        yield { key, photoId, size: info.size };
      }
    };
    for await (const { key } of storage.list(prefix)) {
      const photoId = photoIdOf(key);
      if (!photoId) continue;
      batch.push({ key, photoId });
      if (batch.length >= BATCH_SIZE) yield* judgeBatch();
    }
    yield* judgeBatch();
  }
}

/**
 * Removes stored originals and variants of photos that no longer have a row: left by an upload
 * killed (SIGKILL, power cut) between storing its original and committing its row, or by a deleted
 * photo whose files could not all be deleted with it (the store was down). Answers how many files
 * it removed. Lists every stored file once, so it runs in the background after start-up.
 */
export async function removeOrphanFiles(db: DatabaseHandle, now = Date.now()): Promise<number> {
  const storage = getStorage();
  let removed = 0;
  for await (const { key } of findOrphanFiles(db, { now })) {
    await storage.delete(key);
    getLogger().warn({ key }, "removed a stored file of a photo that no longer exists");
    removed += 1;
  }
  return removed;
}
