import type { DatabaseHandle } from "@/src/db/client";
import type { PhotoRow } from "@/src/db/database";

export type OriginalNameRow = Pick<PhotoRow, "id" | "owner_id" | "visibility" | "original_name">;

/** The uploaded file names (and owners) of these photos, by primary key. */
export function findOriginalNameRows(db: DatabaseHandle, photoIds: string[]): Promise<OriginalNameRow[]> {
  if (photoIds.length === 0) return Promise.resolve([]);
  return db.selectFrom("photos").select(["id", "owner_id", "visibility", "original_name"]).where("id", "in", photoIds).execute();
}
