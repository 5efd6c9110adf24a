import "server-only";
import { hasRole } from "@/src/access/roles";
import type { SessionUser } from "@/src/access/viewer";
import type { DatabaseHandle } from "@/src/db/client";
import { AppError } from "@/src/errors/app-error";
import { cacheUntilPhotosChange } from "./cache-until-photos-change";
import { sumOriginalBytesByOwner, sumVariantBytesByOwner } from "./storage-usage.repository";

export interface StorageFigures {
  photoCount: number;
  originalBytes: number;
  variantBytes: number;
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

/** Like the dashboard's counts (photo-counts.ts): another process's upload shows within this long. */
const REMEMBER_MS = 5_000;
const remembered = cacheUntilPhotosChange<OwnerStorage[]>({ lifetimeMs: REMEMBER_MS, maxEntries: 1_000 });

/**
 * Storage used by photos (the originals and every variant), from the sizes recorded when each file
 * was stored, never from a walk of the disk or the bucket. The sums read every photo's row (or an
 * owner's), so they are remembered until photos change, as the dashboard's counts are.
 * An admin sees every owner and the total; an editor their own figures only.
 */
export async function getStorageUsage(db: DatabaseHandle, user: SessionUser): Promise<StorageUsage> {
  if (!hasRole(user.role, "editor")) throw new AppError("FORBIDDEN", "Only editors and admins see storage used.");
  const ownerId = user.role === "admin" ? null : user.id;
  const owners = await remembered.get(db, ownerId ?? "", () => loadOwnerStorage(db, ownerId));
  const total = owners.reduce<StorageFigures>(
    (sum, owner) => ({ photoCount: sum.photoCount + owner.photoCount, originalBytes: sum.originalBytes + owner.originalBytes, variantBytes: sum.variantBytes + owner.variantBytes }),
    { photoCount: 0, originalBytes: 0, variantBytes: 0 },
  );
  return { owners, total };
}

async function loadOwnerStorage(db: DatabaseHandle, ownerId: string | null): Promise<OwnerStorage[]> {
  const [originals, variants] = await Promise.all([sumOriginalBytesByOwner(db, ownerId), sumVariantBytesByOwner(db, ownerId)]);
  const variantBytes = new Map(variants.map((row) => [row.owner_id, Number(row.bytes ?? 0)]));
  return originals
    .map((row) => ({
      ownerId: row.owner_id,
      ownerName: row.owner_name,
      photoCount: Number(row.photo_count),
      originalBytes: Number(row.bytes ?? 0),
      variantBytes: variantBytes.get(row.owner_id) ?? 0,
    }))
    .sort((left, right) => right.originalBytes + right.variantBytes - (left.originalBytes + left.variantBytes) || left.ownerName.localeCompare(right.ownerName));
}
