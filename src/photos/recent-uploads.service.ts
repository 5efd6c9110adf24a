import "server-only";
import { hasRole } from "@/src/access/roles";
import type { SessionUser } from "@/src/access/viewer";
import type { DatabaseHandle } from "@/src/db/client";
import type { PhotoRow } from "@/src/db/database";
import { AppError } from "@/src/errors/app-error";
import { toMediaUrl } from "./photo-publication";
import { listVariants } from "./photos.repository";
import { listRecentUploadRows } from "./recent-uploads.repository";

const RECENT_UPLOADS = 24;

export interface RecentUpload {
  id: string;
  name: string;
  status: PhotoRow["status"];
  /** The smallest JPEG or WebP variant, once processing has made one. */
  thumbnailUrl: string | null;
  uploadedAt: string;
  /** No alt text yet: the list nudges the uploader to write one. */
  needsAltText: boolean;
}

/**
 * What /admin/upload lists under the uploader after a reload: the user's own latest uploads (never
 * anyone else's, admins included: this is "what I just sent", not the library).
 */
export async function listRecentUploads(db: DatabaseHandle, user: SessionUser): Promise<RecentUpload[]> {
  if (!hasRole(user.role, "editor")) throw new AppError("FORBIDDEN", "Only editors and admins upload photos.");
  const rows = await listRecentUploadRows(db, user.id, RECENT_UPLOADS);
  const variants = await listVariants(db, rows.map((row) => row.id));
  return rows.map((row) => {
    // listVariants orders by width, so the first one that a browser surely decodes is the smallest.
    const smallest = variants.find((variant) => variant.photo_id === row.id && (variant.format === "webp" || variant.format === "jpeg"));
    return {
      id: row.id,
      name: row.original_name,
      status: row.status,
      thumbnailUrl: smallest ? toMediaUrl(row.publication_key, smallest.storage_key) : null,
      uploadedAt: row.created_at,
      needsAltText: row.alt_text.trim() === "",
    };
  });
}
