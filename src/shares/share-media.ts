import "server-only";
import type { DatabaseHandle } from "@/src/db/client";
import type { ServableVariant } from "@/src/media/serve-media";
import { findVariantOrPlayableByKey } from "@/src/photos/photos.repository";
import { findSharedPhoto } from "./share-photos.repository";
import { sharePath } from "./share-key";

/**
 * The variant a share link may serve at `/s/[key]/media/<storage key>`: one of the stored sizes of
 * a photo this share opens (ready, not in the trash, in share_photos). Originals and download
 * copies are not variants and never answer here. A photo outside the share answers null (404),
 * the same whether the variant exists or not. Never public: the bytes go out `private, no-store`
 * and are never offered to the hot cache, so revoking the link ends them from the next request.
 */
export async function findShareServableVariant(db: DatabaseHandle, shareId: string, storageKey: string): Promise<ServableVariant | null> {
  if (!storageKey || storageKey.includes("..")) return null;
  // A shared video's playable copy (metadata stripped) plays here too; its original never does.
  const variant = await findVariantOrPlayableByKey(db, storageKey);
  if (!variant || variant.trashed_at !== null) return null;
  const photo = await findSharedPhoto(db, shareId, variant.photo_id);
  if (!photo) return null;
  return { storageKey: variant.storage_key, photoId: variant.photo_id, format: variant.format, byteSize: variant.byte_size, isPublic: false };
}

/** Where a share's visitor fetches a variant: under the link's path, so the grant cookie goes with it. */
export function toShareMediaUrl(key: string, storageKey: string): string {
  return `${sharePath(key)}/media/${storageKey}`;
}
