import "server-only";
import type { DatabaseHandle } from "@/src/db/client";
import type { PhotoRow } from "@/src/db/database";
import { getLogger } from "@/src/log/logger";
import { getStorage } from "@/src/storage/app-storage";
import { announcePhotosChanged } from "./photo-changes";
import { companionPrefix } from "./photo-files";
import { removePhotos } from "./photo-lifecycle";
import { queueMotionPlayable, recordMotionClip } from "./motion-clip";
import { copyStored } from "./raw-pairing";

// Live Photos: an iPhone writes a still (HEIC or JPEG) and a short MOV for one shot, both carrying
// the same content identifier (src/images/live/content-identifier.ts). They become one photo that
// shows the still; the MOV is kept beside it as its motion clip (as a motion photo's clip is), and
// a copy without sound or metadata is made for viewers to play (motion-playable.job.ts). The halves
// may come in one upload or in separate requests in either order (tus sends one file at a time):
// - a MOV whose still is already a photo is attached to it (attachLiveMotion), and is no item of its own;
// - a MOV that comes first is a video of its own until its still arrives; the still then takes it
//   over (foldLiveVideoInto): the MOV's file becomes the still's clip and the video's photo goes.
// Halves pair only within one owner (a MOV never joins another user's still), outside the trash.
// The first MOV wins: a still that has its clip takes no other, and a later MOV with its
// identifier is answered as that photo and not stored (the same MOV sent again by an importer too).

/** A MOV on local disk that may become a still's motion clip. */
export interface LiveMotionSource {
  sourcePath: string;
  size: number;
}

function liveClipKey(photoId: string): string {
  return `${companionPrefix(photoId)}motion-${crypto.randomUUID()}.mov`;
}

/** The first stored of the owner's items of this kind with this content identifier, outside the trash. */
function findLiveItem(db: DatabaseHandle, ownerId: string, contentId: string, kind: "photo" | "video"): Promise<PhotoRow | undefined> {
  return db
    .selectFrom("photos")
    .selectAll()
    .where("owner_id", "=", ownerId)
    .where("live_content_id", "=", contentId)
    .where("media_kind", "=", kind)
    .where("trashed_at", "is", null)
    .orderBy("created_at", "asc")
    .orderBy("id", "asc")
    .executeTakeFirst();
}

/** The owner's still with this content identifier: a photo (not a video), outside the trash. */
export function findLiveStill(db: DatabaseHandle, ownerId: string, contentId: string): Promise<PhotoRow | undefined> {
  return findLiveItem(db, ownerId, contentId, "photo");
}

/** The owner's MOV with this content identifier that is still a video of its own (it came before its still): the first stored. */
export function findLoneLiveVideo(db: DatabaseHandle, ownerId: string, contentId: string): Promise<PhotoRow | undefined> {
  return findLiveItem(db, ownerId, contentId, "video");
}

/**
 * Stores the MOV and records it as the still's motion clip, with the job that makes its playable
 * copy, unless the still has a clip by then (or went): then the stored copy is deleted again and
 * false is answered. The caller still owns (and removes) the source file.
 */
export async function attachLiveMotion(db: DatabaseHandle, stillId: string, source: LiveMotionSource): Promise<boolean> {
  const key = liveClipKey(stillId);
  await getStorage().putFile(key, source.sourcePath, { contentType: "video/quicktime" });
  let attached: boolean;
  try {
    attached = await db.transaction().execute((transaction) => recordMotionClip(transaction, stillId, key, source.size));
  } catch (error) {
    await deleteStored(key);
    throw error;
  }
  if (!attached) {
    await deleteStored(key);
    return false;
  }
  getLogger().info({ photoId: stillId, size: source.size }, "Live Photo: MOV kept beside its still");
  queueMotionPlayable();
  announcePhotosChanged();
  return true;
}

class StillTakenError extends Error {}

/**
 * Makes a MOV that became a video of its own (it came before its still) the still's motion clip:
 * its file is copied under the still's companions, and in one transaction the still records it
 * (with the job for its playable copy) and the video's photo is removed (through the lifecycle,
 * which then deletes its original, poster and playable copy and tells the caches). Answers false,
 * changing nothing, when the still has a clip by then or went.
 */
export async function foldLiveVideoInto(db: DatabaseHandle, video: PhotoRow, stillId: string): Promise<boolean> {
  const key = liveClipKey(stillId);
  await copyStored(video.original_key, key, "video/quicktime");
  try {
    await removePhotos(db, { photoIds: [video.id] }, async (transaction, removed) => {
      if (removed.length !== 1 || !(await recordMotionClip(transaction, stillId, key, video.original_size))) throw new StillTakenError();
    });
  } catch (error) {
    await deleteStored(key);
    if (error instanceof StillTakenError) return false;
    throw error;
  }
  getLogger().info({ photoId: stillId, videoPhotoId: video.id }, "Live Photo: the MOV's video taken over by its still");
  queueMotionPlayable();
  return true;
}

async function deleteStored(key: string): Promise<void> {
  await getStorage()
    .delete(key)
    .catch((error: unknown) => getLogger().error({ err: error, key }, "orphan motion clip left"));
}
