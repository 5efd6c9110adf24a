import "server-only";
import { getDb } from "@/src/db/client";
import { getLogger } from "@/src/log/logger";
import { getStorage } from "@/src/storage/app-storage";
import { ORIGINALS_PREFIX, photoIdOfOriginalKey } from "./photo-files";

/**
 * An original is stored a moment before its photo row commits; one this young may belong to an
 * upload still in flight on another instance, so only older ones are judged.
 */
const MINIMUM_AGE_MS = 60 * 60 * 1000;
const BATCH_SIZE = 500;

/**
 * Removes stored originals that no photo row names: left by an upload killed (SIGKILL, power cut)
 * between storing its original and committing its row, or by a photo whose files could not be
 * deleted with it. Keys not in the upload's own format are never touched. Answers how many it
 * removed. Lists every original once, so it runs in the background after start-up.
 */
export async function removeOrphanOriginals(now = Date.now()): Promise<number> {
  const storage = getStorage();
  let removed = 0;
  let batch: Array<{ key: string; photoId: string }> = [];
  const judgeBatch = async () => {
    if (batch.length === 0) return;
    const photoIds = batch.map((original) => original.photoId);
    const rows = await getDb().selectFrom("photos").select("id").where("id", "in", photoIds).execute();
    const known = new Set(rows.map((row) => row.id));
    for (const { key, photoId } of batch) {
      if (known.has(photoId)) continue;
      const info = await storage.stat(key);
      if (!info || now - info.modifiedAt.getTime() < MINIMUM_AGE_MS) continue;
      await storage.delete(key);
      getLogger().warn({ key }, "removed an original that no photo names");
      removed += 1;
    }
    batch = [];
  };
  for await (const { key } of storage.list(ORIGINALS_PREFIX)) {
    const photoId = photoIdOfOriginalKey(key);
    if (!photoId) continue;
    batch.push({ key, photoId });
    if (batch.length >= BATCH_SIZE) await judgeBatch();
  }
  await judgeBatch();
  return removed;
}
