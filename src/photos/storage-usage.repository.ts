import type { DatabaseHandle } from "@/src/db/client";

export interface OwnerBytesRow {
  owner_id: string;
  owner_name: string;
  /** Counts and sums come back as strings from PostgreSQL (bigint), as numbers from SQLite. */
  photo_count: number | string;
  bytes: number | string | null;
}

/**
 * The originals' bytes per owner (or one owner's), as recorded at ingest (`photos.original_size`).
 * Trashed photos count: their files stay in storage until the trash is emptied.
 */
export function sumOriginalBytesByOwner(db: DatabaseHandle, ownerId: string | null): Promise<OwnerBytesRow[]> {
  return db
    .selectFrom("photos")
    .innerJoin("users", "users.id", "photos.owner_id")
    .select(["photos.owner_id", "users.name as owner_name", (eb) => eb.fn.countAll<number | string>().as("photo_count"), (eb) => eb.fn.sum<number | string | null>("photos.original_size").as("bytes")])
    .$if(ownerId !== null, (query) => query.where("photos.owner_id", "=", ownerId as string))
    .groupBy(["photos.owner_id", "users.name"])
    .execute();
}

/** The variants' bytes per owner (or one owner's), as recorded when each was stored (`photo_variants.byte_size`). */
export function sumVariantBytesByOwner(db: DatabaseHandle, ownerId: string | null): Promise<Array<Pick<OwnerBytesRow, "owner_id" | "bytes">>> {
  return db
    .selectFrom("photo_variants")
    .innerJoin("photos", "photos.id", "photo_variants.photo_id")
    .select(["photos.owner_id", (eb) => eb.fn.sum<number | string | null>("photo_variants.byte_size").as("bytes")])
    .$if(ownerId !== null, (query) => query.where("photos.owner_id", "=", ownerId as string))
    .groupBy("photos.owner_id")
    .execute();
}
