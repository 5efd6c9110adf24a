import type { SelectQueryBuilder } from "kysely";
import type { DatabaseHandle } from "@/src/db/client";
import type { Database, PhotoLabel, PhotoRow } from "@/src/db/database";
import type { LibraryFilter } from "./library-filters";

/** Whose photos a library query reads: one owner's (an editor's own), or everyone's (an admin). */
export interface LibraryScope {
  ownerId: string | null;
}

type PhotoQuery<Output> = SelectQueryBuilder<Database, "photos", Output>;

/**
 * The filter as conditions on `photos`. Albums and tags are an `exists` on their link table by
 * photo id (album_photos' and photo_tags' primary keys and album_photos_photo are the indexes).
 */
export function applyLibraryFilter<Output>(query: PhotoQuery<Output>, scope: LibraryScope, filter: LibraryFilter): PhotoQuery<Output> {
  return query
    .$if(scope.ownerId !== null, (select) => select.where("photos.owner_id", "=", scope.ownerId as string))
    .$if(filter.status !== undefined, (select) => select.where("photos.status", "=", filter.status as PhotoRow["status"]))
    .$if(filter.visibility !== undefined, (select) => select.where("photos.visibility", "=", filter.visibility as PhotoRow["visibility"]))
    .$if(filter.missingAltText === true, (select) => select.where("photos.alt_text", "=", ""))
    .$if(filter.camera !== undefined, (select) => select.where("photos.camera_slug", "=", filter.camera as string))
    .$if(filter.album !== undefined, (select) =>
      select.where(({ exists, selectFrom }) =>
        exists(selectFrom("album_photos").select("album_photos.photo_id").where("album_photos.album_id", "=", filter.album as string).whereRef("album_photos.photo_id", "=", "photos.id")),
      ),
    )
    .$if(filter.tag !== undefined, (select) =>
      select.where(({ exists, selectFrom }) =>
        exists(
          selectFrom("photo_tags")
            .innerJoin("tags", "tags.id", "photo_tags.tag_id")
            .select("photo_tags.photo_id")
            .where("tags.key", "=", filter.tag as string)
            .whereRef("photo_tags.photo_id", "=", "photos.id"),
        ),
      ),
    )
    .$if(filter.minRating !== undefined, (select) => select.where("photos.rating", ">=", filter.minRating as number))
    .$if(filter.label === "none", (select) => select.where("photos.label", "is", null))
    .$if(filter.label !== undefined && filter.label !== "none", (select) => select.where("photos.label", "=", filter.label as PhotoLabel))
    .$if(filter.inNoAlbum === true, (select) =>
      select.where(({ not, exists, selectFrom }) => not(exists(selectFrom("album_photos").select("album_photos.photo_id").whereRef("album_photos.photo_id", "=", "photos.id")))),
    );
}

/**
 * One page of the library, newest first, walking the (sort_at, id) keyset: an index range on
 * (owner_id | status | visibility, sort_at, id), or on (sort_at, id) for an admin's whole library.
 */
export function listLibraryPhotos(
  db: DatabaseHandle,
  scope: LibraryScope,
  filter: LibraryFilter,
  page: { after?: { sortAt: string; id: string }; limit: number },
): Promise<PhotoRow[]> {
  const after = page.after;
  return applyLibraryFilter(db.selectFrom("photos").selectAll("photos"), scope, filter)
    .where("photos.trashed_at", "is", null)
    .$if(after !== undefined, (select) => select.where((eb) => eb(eb.refTuple("photos.sort_at", "photos.id"), "<", eb.tuple(after!.sortAt, after!.id))))
    .orderBy("photos.sort_at", "desc")
    .orderBy("photos.id", "desc")
    .limit(page.limit)
    .execute();
}

async function countWhere(db: DatabaseHandle, scope: LibraryScope, filter: LibraryFilter, trashed: boolean): Promise<number> {
  const row = await applyLibraryFilter(db.selectFrom("photos").select((eb) => eb.fn.countAll<string | number>().as("count")), scope, filter)
    .$if(trashed, (select) => select.where("photos.trashed_at", "is not", null))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * How many photos match, without the trash: every matching photo (from an index alone where the
 * filter is on indexed columns), less the trashed ones, found through the trash's partial index.
 * `trashed_at IS NULL` in one count would read every row of the table.
 */
export async function countLibraryPhotos(db: DatabaseHandle, scope: LibraryScope, filter: LibraryFilter): Promise<number> {
  const [all, trashed] = await Promise.all([countWhere(db, scope, filter, false), countWhere(db, scope, filter, true)]);
  return all - trashed;
}

/** The ids of up to `limit` matching photos (not in the trash): what "select all N matching" acts on. */
export async function listLibraryPhotoIds(db: DatabaseHandle, scope: LibraryScope, filter: LibraryFilter, limit: number): Promise<string[]> {
  const rows = await applyLibraryFilter(db.selectFrom("photos").select("photos.id"), scope, filter)
    .where("photos.trashed_at", "is", null)
    .orderBy("photos.sort_at", "desc")
    .orderBy("photos.id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/** The cameras of the library by URL name, with one EXIF spelling each to name them by. */
export async function listLibraryCameras(db: DatabaseHandle, scope: LibraryScope): Promise<Array<{ slug: string; make: string | null; model: string | null }>> {
  const rows = await db
    .selectFrom("photos")
    .select((eb) => ["camera_slug", eb.fn.max("camera_make").as("make"), eb.fn.max("camera_model").as("model")])
    .where("camera_slug", "is not", null)
    .$if(scope.ownerId !== null, (select) => select.where("owner_id", "=", scope.ownerId as string))
    .groupBy("camera_slug")
    .orderBy("camera_slug")
    .limit(200)
    .execute();
  return rows.map((row) => ({ slug: row.camera_slug as string, make: row.make, model: row.model }));
}

/** These photos (not in the trash) with what a bulk change needs to check and remember. */
export function findPhotosForChange(db: DatabaseHandle, ids: string[]): Promise<Array<Pick<PhotoRow, "id" | "owner_id" | "visibility" | "publication_key">>> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom("photos").select(["id", "owner_id", "visibility", "publication_key"]).where("id", "in", ids).where("trashed_at", "is", null).execute();
}

/** Sets one visibility on these photos. */
export async function setPhotosVisibility(db: DatabaseHandle, ids: string[], visibility: PhotoRow["visibility"], now: string): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable("photos").set({ visibility, updated_at: now }).where("id", "in", ids).execute();
}

/** The owner's rating and label of these photos, to tell which a bulk change changes. */
export async function findOwnerNotes(db: DatabaseHandle, ids: string[]): Promise<Array<Pick<PhotoRow, "id" | "rating" | "label">>> {
  if (ids.length === 0) return [];
  return db.selectFrom("photos").select(["id", "rating", "label"]).where("id", "in", ids).execute();
}

/** Sets the rating and/or label, marked the owner's own (processing never reads the file's over them). */
export async function setPhotosOwnerNotes(db: DatabaseHandle, ids: string[], notes: { rating?: number; label?: PhotoLabel | null }, now: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable("photos")
    .set({
      ...(notes.rating !== undefined && { rating: notes.rating, rating_by_owner: 1 }),
      ...(notes.label !== undefined && { label: notes.label, label_by_owner: 1 }),
      updated_at: now,
    })
    .where("id", "in", ids)
    .execute();
}
