import "server-only";
import { hasRole } from "@/src/access/roles";
import type { SessionUser } from "@/src/access/viewer";
import type { DatabaseHandle } from "@/src/db/client";
import type { PhotoRow, PhotoVariantRow } from "@/src/db/database";
import { AppError } from "@/src/errors/app-error";
import { toMediaUrl } from "./photo-publication";
import { listVariants } from "./photos.repository";
import { type DashboardUploadRow, listDashboardUploadRows, listRecentUploadRows } from "./recent-uploads.repository";

const RECENT_UPLOADS = 24;
const DASHBOARD_UPLOADS = 8;

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
    return {
      id: row.id,
      name: row.original_name,
      status: row.status,
      thumbnailUrl: smallestThumbnail(row, variants),
      uploadedAt: row.created_at,
      needsAltText: row.alt_text.trim() === "",
    };
  });
}

/** The smallest JPEG or WebP variant's URL; listVariants orders by width, so the first one found. */
function smallestThumbnail(row: Pick<PhotoRow, "id" | "publication_key">, variants: PhotoVariantRow[]): string | null {
  const smallest = variants.find((variant) => variant.photo_id === row.id && (variant.format === "webp" || variant.format === "jpeg"));
  return smallest ? toMediaUrl(row.publication_key, smallest.storage_key) : null;
}

export interface DashboardUpload {
  id: string;
  /** The uploaded file's name: the dashboard is the owner's or an admin's, who may know it. */
  name: string;
  ownerName: string;
  status: PhotoRow["status"];
  failureReason: string | null;
  thumbnailUrl: string | null;
  uploadedAt: string;
}

/**
 * The dashboard's "Recent uploads": the last few photos that arrived, still processing, ready or
 * failed, with who sent them. Everyone's for an admin, an editor's own otherwise.
 */
export async function listDashboardUploads(db: DatabaseHandle, user: SessionUser): Promise<DashboardUpload[]> {
  if (!hasRole(user.role, "editor")) throw new AppError("FORBIDDEN", "Only editors and admins see recent uploads.");
  const rows: DashboardUploadRow[] = await listDashboardUploadRows(db, user.role === "admin" ? null : user.id, DASHBOARD_UPLOADS);
  const variants = await listVariants(db, rows.map((row) => row.id));
  return rows.map((row) => ({
    id: row.id,
    name: row.original_name,
    ownerName: row.owner_name,
    status: row.status,
    failureReason: row.failure_reason,
    thumbnailUrl: smallestThumbnail(row, variants),
    uploadedAt: row.created_at,
  }));
}
