import "server-only";
import { getDb } from "@/src/db/client";
import { onFileKeywords } from "@/src/photos/file-keywords";
import { tagPhotoFromItsFile } from "./tags.service";

/** For every process that runs a worker: the keywords processing reads from a photo's file become its tags. */
export function registerFileKeywordTags(): void {
  onFileKeywords((photoId, keywords) => tagPhotoFromItsFile(getDb(), photoId, keywords));
}
