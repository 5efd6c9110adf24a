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
// Two or more MOVs before their still (a re-upload, a re-export, an edit saved beside the first):
// the first stored becomes the clip and the others go with it, so the outcome is the one the still
// first order gives, whatever the order. Not the newest (the still first order has dropped later
// MOVs before they are stored, and a clip is never replaced), nor the one whose duration fits (the
// still carries only the identifier, nothing to measure a MOV against); byte-identical MOVs never
// get this far (the upload answers them as duplicates by SHA-256).

/** A MOV on local disk that may become a still's motion clip. */
export interface LiveMotionSource {
  sourcePath: string;
  size: number;
}

function liveClipKey(photoId: string): string {
  return `${companionPrefix(photoId)}motion-${crypto.randomUUID()}.mov`;
}

/** The owner's items of this kind with this content identifier, outside the trash, the first stored first. */
function selectLiveItems(db: DatabaseHandle, ownerId: string, contentId: string, kind: "photo" | "video") {
  return db
    .selectFrom("photos")
    .selectAll()
    .where("owner_id", "=", ownerId)
    .where("live_content_id", "=", contentId)
    .where("media_kind", "=", kind)
    .where("trashed_at", "is", null)
    .orderBy("created_at", "asc")
    .orderBy("id", "asc");
}

/** The owner's still with this content identifier: a photo (not a video), outside the trash. */
export function findLiveStill(db: DatabaseHandle, ownerId: string, contentId: string): Promise<PhotoRow | undefined> {
  return selectLiveItems(db, ownerId, contentId, "photo").executeTakeFirst();
}

/** The owner's MOVs with this content identifier that are still videos of their own (they came before their still), the first stored first. */
export function findLoneLiveVideos(db: DatabaseHandle, ownerId: string, contentId: string): Promise<PhotoRow[]> {
  return selectLiveItems(db, ownerId, contentId, "video").execute();
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
  announcePhotosChanged([stillId]);
  return true;
}

class StillGoneError extends Error {}

/**
 * What became of MOVs that were videos of their own when their still took them over: "clip" when
 * the first became its motion clip, "dropped" when the still had its clip by then (the MOVs went
 * all the same: the still first order never stores them), "still gone" when the still went (in the
 * trash or removed) meanwhile: then nothing changed.
 */
export type LiveFoldOutcome = "clip" | "dropped" | "still gone";

/**
 * Makes MOVs that became videos of their own (they came before their still) one item with it: the
 * first one's file is copied under the still's companions, and in one transaction the still records
 * it as its motion clip (with the job for its playable copy) and every one of these videos' photos
 * is removed (through the lifecycle, which then deletes their originals, posters and playable
 * copies and tells the caches). `videos` come first stored first (findLoneLiveVideos).
 */
export async function foldLiveVideosInto(db: DatabaseHandle, videos: readonly PhotoRow[], stillId: string): Promise<LiveFoldOutcome> {
  const [first] = videos;
  if (!first) return "dropped";
  const key = liveClipKey(stillId);
  await copyStored(first.original_key, key, "video/quicktime");
  let outcome: LiveFoldOutcome = "dropped";
  try {
    await removePhotos(db, { photoIds: videos.map((video) => video.id) }, async (transaction, removed) => {
      const still = await transaction.selectFrom("photos").select(["motion_clip_key", "trashed_at"]).where("id", "=", stillId).executeTakeFirst();
      if (!still || still.trashed_at !== null) throw new StillGoneError();
      // The first video may have been taken by another request's fold meanwhile: then the clip is that one's.
      if (still.motion_clip_key === null && removed.some((video) => video.id === first.id)) {
        if (await recordMotionClip(transaction, stillId, key, first.original_size)) outcome = "clip";
      }
    });
  } catch (error) {
    await deleteStored(key);
    if (error instanceof StillGoneError) return "still gone";
    throw error;
  }
  if (outcome === "dropped") {
    await deleteStored(key);
    getLogger().info({ photoId: stillId, videoPhotoIds: videos.map((video) => video.id) }, "Live Photo: MOVs for a still that has its clip, removed");
    return outcome;
  }
  getLogger().info({ photoId: stillId, videoPhotoId: first.id, dropped: videos.length - 1 }, "Live Photo: the MOV's video taken over by its still");
  queueMotionPlayable();
  return outcome;
}

async function deleteStored(key: string): Promise<void> {
  await getStorage()
    .delete(key)
    .catch((error: unknown) => getLogger().error({ err: error, key }, "orphan motion clip left"));
}
