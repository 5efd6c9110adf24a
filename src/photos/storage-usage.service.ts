import "server-only";
import { hasRole } from "@/src/access/roles";
import type { SessionUser } from "@/src/access/viewer";
import type { DatabaseHandle } from "@/src/db/client";
import { AppError } from "@/src/errors/app-error";
import { listOwnerStorage } from "./storage-usage.repository";

export interface StorageFigures {
  photoCount: number;
  originalBytes: number;
  variantBytes: number;
  /** Files kept beside photos: RAWs of RAW+JPEG pairs, motion photos' clips, videos' playable copies. */
  companionBytes: number;
}

/** Everything stored for these photos. */
export function totalBytes(figures: StorageFigures): number {
  return figures.originalBytes + figures.variantBytes + figures.companionBytes;
}

export interface OwnerStorage extends StorageFigures {
  ownerId: string;
  ownerName: string;
}

export interface StorageUsage {
  /** Every owner with photos, most bytes first, for an admin; only the user's own row for an editor. */
  owners: OwnerStorage[];
  /** The sum of `owners`: the whole site for an admin, the user's own for an editor. */
  total: StorageFigures;
}

/**
 * Storage used by photos (the originals, every variant and the files kept beside them), from the sizes recorded when each file
 * was stored, never from a walk of the disk or the bucket: the database keeps a total per owner in
 * step (storage_usage), so this reads a row per user. An admin sees every owner and the total; an
 * editor their own figures only. The trash counts until it is emptied: its files are still stored.
 */
export async function getStorageUsage(db: DatabaseHandle, user: SessionUser): Promise<StorageUsage> {
  if (!hasRole(user.role, "editor")) throw new AppError("FORBIDDEN", "Only editors and admins see storage used.");
  const ownerId = user.role === "admin" ? null : user.id;
  const owners = (await listOwnerStorage(db, ownerId))
    .map((row) => ({
      ownerId: row.owner_id,
      ownerName: row.owner_name,
      photoCount: Number(row.photo_count),
      originalBytes: Number(row.original_bytes),
      variantBytes: Number(row.variant_bytes),
      companionBytes: Number(row.companion_bytes),
    }))
    .sort((left, right) => totalBytes(right) - totalBytes(left) || left.ownerName.localeCompare(right.ownerName));
  const total = owners.reduce<StorageFigures>(
    (sum, owner) => ({
      photoCount: sum.photoCount + owner.photoCount,
      originalBytes: sum.originalBytes + owner.originalBytes,
      variantBytes: sum.variantBytes + owner.variantBytes,
      companionBytes: sum.companionBytes + owner.companionBytes,
    }),
    { photoCount: 0, originalBytes: 0, variantBytes: 0, companionBytes: 0 },
  );
  return { owners, total };
}
