import "server-only";
import type { SessionUser } from "@/src/access/viewer";
import type { DatabaseHandle } from "@/src/db/client";
import { findOwnPhotosBySha256s } from "@/src/photos/photo-hashes.repository";

/** A file the caller already has: the photo holding its bytes. */
export interface KnownFile {
  sha256: string;
  photoId: string;
  /** The photo is in the caller's trash; uploading the bytes again would restore it. */
  trashed: boolean;
}

/**
 * Which of these SHA-256s the caller already holds, so an importer sends only the new files. It
 * looks at the caller's own photos only (the trash included: a photo someone threw away is theirs
 * until they empty the trash, and an importer should not quietly bring it back), so the answer
 * never tells that another user holds the same bytes.
 */
export async function findKnownFiles(db: DatabaseHandle, user: SessionUser, hashes: readonly string[]): Promise<KnownFile[]> {
  const distinct = [...new Set(hashes)];
  const rows = await findOwnPhotosBySha256s(db, user.id, distinct);
  return rows.map((row) => ({ sha256: row.sha256, photoId: row.id, trashed: row.trashed_at !== null }));
}
