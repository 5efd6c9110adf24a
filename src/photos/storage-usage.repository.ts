import type { DatabaseHandle } from "@/src/db/client";

export interface OwnerStorageRow {
  owner_id: string;
  owner_name: string;
  photo_count: number;
  /** PostgreSQL answers bigints as strings, SQLite numbers. */
  original_bytes: number | string;
  variant_bytes: number | string;
  companion_bytes: number | string;
}

/**
 * Bytes stored per owner with photos (or one owner's), from the totals the database keeps in step
 * with photos and photo_variants (migrations 2026-11-30T0700-storage-usage and
 * 2026-12-01T1800-storage-usage-companions): a row per user.
 */
export function listOwnerStorage(db: DatabaseHandle, ownerId: string | null): Promise<OwnerStorageRow[]> {
  return db
    .selectFrom("storage_usage")
    .innerJoin("users", "users.id", "storage_usage.owner_id")
    .select(["storage_usage.owner_id", "users.name as owner_name", "storage_usage.photo_count", "storage_usage.original_bytes", "storage_usage.variant_bytes", "storage_usage.companion_bytes"])
    .where("storage_usage.photo_count", ">", 0)
    .$if(ownerId !== null, (query) => query.where("storage_usage.owner_id", "=", ownerId as string))
    .execute();
}
