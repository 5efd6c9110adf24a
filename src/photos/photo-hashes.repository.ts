import type { DatabaseHandle } from "@/src/db/client";
import type { PhotoRow } from "@/src/db/database";

/** One of the owner's photos as a hash check names it. */
export type OwnPhotoHash = Pick<PhotoRow, "id" | "sha256" | "trashed_at">;

/**
 * The owner's photos (in the trash too) whose bytes have one of these SHA-256s: the unique
 * `(owner_id, sha256)` index answers it, whatever other users hold.
 */
export function findOwnPhotosBySha256s(db: DatabaseHandle, ownerId: string, hashes: readonly string[]): Promise<OwnPhotoHash[]> {
  if (hashes.length === 0) return Promise.resolve([]);
  return db.selectFrom("photos").select(["id", "sha256", "trashed_at"]).where("owner_id", "=", ownerId).where("sha256", "in", [...hashes]).execute();
}
