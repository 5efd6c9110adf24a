import type { DatabaseHandle } from "@/src/db/client";
import type { PhotoRow } from "@/src/db/database";

export type TrashedPhotoRow = Pick<PhotoRow, "id" | "owner_id" | "title" | "alt_text" | "original_name" | "visibility" | "publication_key" | "trashed_at">;

/** Moves these photos to the trash (`trashedAt`) or back out of it (null). */
export async function setPhotosTrashedAt(db: DatabaseHandle, ids: string[], trashedAt: string | null, now: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable("photos")
    .set({ trashed_at: trashedAt, updated_at: now })
    .where("id", "in", ids)
    .where("trashed_at", trashedAt === null ? "is not" : "is", null)
    .execute();
}

/** The trash, most recently trashed first, through its partial index (one owner's, or everyone's for null). */
export function listTrashedPhotos(
  db: DatabaseHandle,
  ownerId: string | null,
  page: { after?: { trashedAt: string; id: string }; limit: number },
): Promise<TrashedPhotoRow[]> {
  const after = page.after;
  return db
    .selectFrom("photos")
    .select(["id", "owner_id", "title", "alt_text", "original_name", "visibility", "publication_key", "trashed_at"])
    .where("trashed_at", "is not", null)
    .$if(ownerId !== null, (select) => select.where("owner_id", "=", ownerId as string))
    .$if(after !== undefined, (select) => select.where((eb) => eb(eb.refTuple("trashed_at", "id"), "<", eb.tuple(after!.trashedAt, after!.id))))
    .orderBy("trashed_at", "desc")
    .orderBy("id", "desc")
    .limit(page.limit)
    .execute();
}

/** These photos if they are in the trash. */
export function findTrashedPhotos(db: DatabaseHandle, ids: string[]): Promise<Array<Pick<PhotoRow, "id" | "owner_id" | "visibility" | "trashed_at">>> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom("photos").select(["id", "owner_id", "visibility", "trashed_at"]).where("id", "in", ids).where("trashed_at", "is not", null).execute();
}

/** Up to `limit` photos trashed before `before` (one owner's, or everyone's for null). */
export async function listTrashedIdsBefore(db: DatabaseHandle, ownerId: string | null, before: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom("photos")
    .select("id")
    .where("trashed_at", "is not", null)
    .where("trashed_at", "<", before)
    .$if(ownerId !== null, (select) => select.where("owner_id", "=", ownerId as string))
    .orderBy("trashed_at")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}
