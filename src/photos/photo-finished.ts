import { processSingleton } from "@/src/config/process-singleton";
import { getLogger } from "@/src/log/logger";

/**
 * "This photo's variants are all made": after its processing's last phase, and after a turn made
 * them again. Work that reads the finished variants and must never delay "ready" listens here (face
 * detection queues its job): photos never import those domains, they import photos.
 */
type PhotoFinishedListener = (photoId: string) => Promise<void>;

function listeners(): Set<PhotoFinishedListener> {
  return processSingleton("photo-finished-listeners", () => new Set<PhotoFinishedListener>());
}

/** Calls `listener` after every photo this process finishes, until the returned function is called. */
export function onPhotoFinished(listener: PhotoFinishedListener): () => void {
  listeners().add(listener);
  return () => listeners().delete(listener);
}

/** Tells the listeners; one that fails is logged, never the photo's failure. */
export async function announcePhotoFinished(photoId: string): Promise<void> {
  for (const listener of listeners()) {
    await listener(photoId).catch((error: unknown) => getLogger().warn({ err: error, photoId }, "a listener of finished photos failed"));
  }
}
