import type { DatabaseHandle } from "@/src/db/client";
import type { NewPhotoRow, PhotoRow, PhotoVariantRow, Visibility } from "@/src/db/database";
import { newPublicationKey } from "./photo-publication";

export function findPhotoById(db: DatabaseHandle, id: string): Promise<PhotoRow | undefined> {
  return db.selectFrom("photos").selectAll().where("id", "=", id).executeTakeFirst();
}

/** What removing a photo's files needs: where they are, and whether its URLs were public. */
export type PhotoFiles = Pick<PhotoRow, "id" | "original_key" | "visibility" | "publication_key">;

/** What is needed to delete the stored files of these photos, or of every photo a user owns. */
export function listPhotoFiles(db: DatabaseHandle, selection: { photoIds: string[] } | { ownerId: string }): Promise<PhotoFiles[]> {
  const query = db.selectFrom("photos").select(["id", "original_key", "visibility", "publication_key"]);
  if ("ownerId" in selection) return query.where("owner_id", "=", selection.ownerId).execute();
  if (selection.photoIds.length === 0) return Promise.resolve([]);
  return query.where("id", "in", selection.photoIds).execute();
}

/** The owner's photo with these bytes, if they uploaded them before. */
export function findOwnPhotoBySha256(db: DatabaseHandle, ownerId: string, sha256: string): Promise<PhotoRow | undefined> {
  return db.selectFrom("photos").selectAll().where("owner_id", "=", ownerId).where("sha256", "=", sha256).executeTakeFirst();
}

/** The bytes of every original the user has stored, for the upload quota. */
export async function sumOriginalBytes(db: DatabaseHandle, ownerId: string): Promise<number> {
  const row = await db
    .selectFrom("photos")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<string | number>("original_size"), eb.lit(0)).as("total"))
    .where("owner_id", "=", ownerId)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export async function insertPhoto(db: DatabaseHandle, photo: NewPhotoRow): Promise<void> {
  await db.insertInto("photos").values({ publication_key: newPublicationKey(), ...photo }).execute();
}

export async function updatePhoto(db: DatabaseHandle, id: string, changes: Partial<Omit<PhotoRow, "id">>): Promise<void> {
  await db.updateTable("photos").set(changes).where("id", "=", id).execute();
}

/** Deletes photos' rows; their variants' and jobs' rows go with them (cascade). */
export async function deletePhotoRows(db: DatabaseHandle, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom("photos").where("id", "in", ids).execute();
}

export interface PhotoListQuery {
  /** What the viewer may list: photos of these visibilities, and every photo of `viewerId`. */
  access: { visibilities: Visibility[]; viewerId: string | null };
  /** Narrowing filters, applied on top of the access rule. */
  ownerId?: string;
  visibility?: Visibility;
  onlyReady: boolean;
  after?: { sortAt: string; id: string };
  limit: number;
}

/** Newest first by date taken, walking the (sort_at, id) keyset. */
export function listPhotos(db: DatabaseHandle, query: PhotoListQuery): Promise<PhotoRow[]> {
  return db
    .selectFrom("photos")
    .selectAll()
    .where((eb) => {
      const access = [eb("visibility", "in", query.access.visibilities)];
      if (query.access.viewerId) access.push(eb("owner_id", "=", query.access.viewerId));
      const conditions = [eb.or(access)];
      if (query.ownerId) conditions.push(eb("owner_id", "=", query.ownerId));
      if (query.visibility) conditions.push(eb("visibility", "=", query.visibility));
      if (query.onlyReady) conditions.push(eb("status", "=", "ready"));
      if (query.after) {
        const { sortAt, id } = query.after;
        conditions.push(eb.or([eb("sort_at", "<", sortAt), eb.and([eb("sort_at", "=", sortAt), eb("id", "<", id)])]));
      }
      return eb.and(conditions);
    })
    .orderBy("sort_at", "desc")
    .orderBy("id", "desc")
    .limit(query.limit)
    .execute();
}

/** The id of the photo just newer or just older than this one, among those the access rule allows. */
export function listAdjacentPhotos(
  db: DatabaseHandle,
  access: PhotoListQuery["access"],
  from: { sortAt: string; id: string },
  direction: "newer" | "older",
  limit: number,
): Promise<PhotoRow[]> {
  const isOlder = direction === "older";
  return db
    .selectFrom("photos")
    .selectAll()
    .where((eb) => {
      const visible = [eb("visibility", "in", access.visibilities)];
      if (access.viewerId) visible.push(eb("owner_id", "=", access.viewerId));
      const comparison = isOlder ? "<" : ">";
      return eb.and([
        eb.or(visible),
        eb("status", "=", "ready"),
        eb.or([eb("sort_at", comparison, from.sortAt), eb.and([eb("sort_at", "=", from.sortAt), eb("id", comparison, from.id)])]),
      ]);
    })
    .orderBy("sort_at", isOlder ? "desc" : "asc")
    .orderBy("id", isOlder ? "desc" : "asc")
    .limit(limit)
    .execute();
}

export function listVariants(db: DatabaseHandle, photoIds: string[]): Promise<PhotoVariantRow[]> {
  if (photoIds.length === 0) return Promise.resolve([]);
  return db.selectFrom("photo_variants").selectAll().where("photo_id", "in", photoIds).orderBy("width").execute();
}

export function findVariantByKey(
  db: DatabaseHandle,
  storageKey: string,
): Promise<(PhotoVariantRow & Pick<PhotoRow, "owner_id" | "visibility" | "publication_key">) | undefined> {
  return db
    .selectFrom("photo_variants")
    .innerJoin("photos", "photos.id", "photo_variants.photo_id")
    .selectAll("photo_variants")
    .select(["photos.owner_id", "photos.visibility", "photos.publication_key"])
    .where("photo_variants.storage_key", "=", storageKey)
    .executeTakeFirst();
}

export async function insertVariants(db: DatabaseHandle, variants: PhotoVariantRow[]): Promise<void> {
  if (variants.length === 0) return;
  await db
    .insertInto("photo_variants")
    .values(variants)
    .onConflict((conflict) => conflict.columns(["photo_id", "format", "width"]).doUpdateSet((eb) => ({
      storage_key: eb.ref("excluded.storage_key"),
      byte_size: eb.ref("excluded.byte_size"),
      height: eb.ref("excluded.height"),
    })))
    .execute();
}
