import "server-only";
import type { Viewer } from "@/src/access/viewer";
import type { DatabaseHandle } from "@/src/db/client";
import type { ServableVariant } from "@/src/media/serve-media";
import { canEditPhoto, canViewPhoto } from "./photo-access";
import { parseMediaPath } from "./photo-publication";
import { findVariantOrPlayableByKey } from "./photos.repository";

/**
 * The variant at this media path (what follows `/media/`) when the viewer may have it; null when it
 * does not exist, the viewer may not see its photo, or the URL is from before the photo last
 * stopped being public (its publication key is not the photo's now). The three look the same.
 * A photo in the trash is served to nobody but those who may restore it (its thumbnail on the
 * trash page), never as public.
 * Asks who is viewing only for a photo that is not public: public bytes cost no session lookup.
 */
export async function findServableVariant(
  db: DatabaseHandle,
  resolveViewer: () => Promise<Viewer>,
  mediaPath: string,
): Promise<ServableVariant | null> {
  const parsed = parseMediaPath(mediaPath);
  if (!parsed) return null;
  // A video's playable copy is served under exactly a variant's rules.
  const variant = await findVariantOrPlayableByKey(db, parsed.storageKey);
  if (!variant || variant.publication_key !== parsed.publicationKey) return null;
  const isTrashed = variant.trashed_at !== null;
  if (isTrashed && !canEditPhoto(await resolveViewer(), variant)) return null;
  if (variant.visibility !== "public" && !canViewPhoto(await resolveViewer(), variant)) return null;
  return {
    storageKey: variant.storage_key,
    photoId: variant.photo_id,
    format: variant.format,
    byteSize: variant.byte_size,
    isPublic: variant.visibility === "public" && !isTrashed,
  };
}
