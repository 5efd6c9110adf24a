import "server-only";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { DatabaseHandle } from "@/src/db/client";
import type { ImageType } from "@/src/images/image-type-detector";
import { locateMotionClip } from "@/src/images/motion/motion-photo-locator";
import { getLogger } from "@/src/log/logger";
import { getStorage } from "@/src/storage/app-storage";
import { getTemporaryDirectory, ownedTemporaryName } from "@/src/storage/temporary-files";
import { announcePhotosChanged } from "./photo-changes";
import { companionPrefix } from "./photo-files";

// Motion photos: Android phones (Google's format, Samsung's too) append an MP4 to the JPEG or HEIC
// still and say where in the still's XMP. On upload the clip is copied out into a file of its own,
// kept beside the photo as its motion clip (GET /api/photos/[id]/motion, the original's rule). The
// original is stored untouched, clip included: it is the file the phone made (and what its SHA-256
// names), every decoder reads the still from it, and a download copy for anyone else is made from
// the still alone (a JPEG's rewrite stops at its end-of-image, a HEIC's copy is a variant).

/** A clip copied out of an upload, waiting for its photo. */
export interface ExtractedMotionClip {
  path: string;
  size: number;
}

/**
 * Copies the appended clip of a motion photo into a temporary file (the caller removes it), or
 * answers null for an ordinary photo and for a motion photo whose clip cannot be taken (its reason
 * logged; the photo is then a still alone).
 */
export async function extractMotionClip(sourcePath: string, type: ImageType, fileName: string): Promise<ExtractedMotionClip | null> {
  if (type !== "jpeg" && type !== "heic") return null;
  const answer = await locateMotionClip(sourcePath);
  if (answer.kind === "none") return null;
  if (answer.kind === "unusable") {
    getLogger().warn({ fileName, reason: answer.reason }, "motion photo kept as a still alone: its clip cannot be taken");
    return null;
  }
  const directory = getTemporaryDirectory();
  await fs.mkdir(directory, { recursive: true });
  const clipPath = path.join(directory, ownedTemporaryName("motion-clip"));
  const { start, length } = answer.clip;
  try {
    await pipeline(createReadStream(sourcePath, { start, end: start + length - 1 }), createWriteStream(clipPath));
  } catch (error) {
    await fs.rm(clipPath, { force: true });
    throw error;
  }
  return { path: clipPath, size: length };
}

/**
 * Stores an extracted clip as the photo's motion clip, unless it has one (the same bytes uploaded
 * twice at once): then the stored copy is deleted again. The caller removes the temporary file.
 */
export async function keepMotionClip(db: DatabaseHandle, photoId: string, clip: ExtractedMotionClip): Promise<void> {
  const key = `${companionPrefix(photoId)}motion-${crypto.randomUUID()}.mp4`;
  const storage = getStorage();
  await storage.putFile(key, clip.path, { contentType: "video/mp4" });
  try {
    const result = await db
      .updateTable("photos")
      .set({ motion_clip_key: key, motion_clip_size: clip.size })
      .where("id", "=", photoId)
      .where("motion_clip_key", "is", null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) await storage.delete(key);
  } catch (error) {
    await storage.delete(key).catch((deleteError: unknown) => getLogger().error({ err: deleteError, key }, "orphan motion clip left"));
    throw error;
  }
  announcePhotosChanged();
}
