import { processSingleton } from "@/src/config/process-singleton";

/**
 * "This photo's file lists these keywords": said once per photo, on its first processing. Tags
 * listen here and make them the photo's tags; photos never import tags (the arrows' "never
 * photos → tags"), tags import photos. Unlike a finished photo's listeners, a listener that fails
 * fails the processing step, which the queue then retries: the keywords are not lost quietly.
 */
type FileKeywordsListener = (photoId: string, keywords: readonly string[]) => Promise<void>;

function listeners(): Set<FileKeywordsListener> {
  return processSingleton("file-keywords-listeners", () => new Set<FileKeywordsListener>());
}

/** Calls `listener` with every photo's file keywords this process reads, until the returned function is called. */
export function onFileKeywords(listener: FileKeywordsListener): () => void {
  listeners().add(listener);
  return () => listeners().delete(listener);
}

export async function announceFileKeywords(photoId: string, keywords: readonly string[]): Promise<void> {
  for (const listener of listeners()) await listener(photoId, keywords);
}
