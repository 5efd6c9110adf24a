import type { DatabaseHandle } from "@/src/db/client";
import type { NewPhotoRow, PhotoLabel, PhotoRow, PhotoVariantRow } from "@/src/db/database";
import { listablePhotoRanges, type PhotoListAccess, type PhotoRange, type PhotoRangeFilter, whereInRange } from "./listable-photos";
import { mergePhotoRanges } from "./merge-photo-ranges";
import { photoIdOfVariantKey } from "./photo-files";
import { newPublicationKey } from "./photo-publication";

/** The photo with this id, unless it is in the trash (then it is hidden from everyone, as if gone). */
export function findPhotoById(db: DatabaseHandle, id: string): Promise<PhotoRow | undefined> {
  return db.selectFrom("photos").selectAll().where("id", "=", id).where("trashed_at", "is", null).executeTakeFirst();
}

/** The photo with this id, in the trash or not: for the processing jobs and the trash itself. */
export function findPhotoByIdEvenTrashed(db: DatabaseHandle, id: string): Promise<PhotoRow | undefined> {
  return db.selectFrom("photos").selectAll().where("id", "=", id).executeTakeFirst();
}

/** What removing a photo's files needs: where they are, and whether its URLs were public. */
export type PhotoFiles = Pick<PhotoRow, "id" | "original_key" | "visibility" | "publication_key">;

/**
 * What is needed to delete the stored files of these photos, or of every photo a user owns (in the
 * trash or not). `trashedBefore`: only those of the photos that were moved to the trash before then.
 */
export function listPhotoFiles(db: DatabaseHandle, selection: { photoIds: string[]; trashedBefore?: string } | { ownerId: string }): Promise<PhotoFiles[]> {
  const query = db.selectFrom("photos").select(["id", "original_key", "visibility", "publication_key"]);
  if ("ownerId" in selection) return query.where("owner_id", "=", selection.ownerId).execute();
  if (selection.photoIds.length === 0) return Promise.resolve([]);
  return query
    .where("id", "in", selection.photoIds)
    .$if(selection.trashedBefore !== undefined, (select) => select.where("trashed_at", "<", selection.trashedBefore as string))
    .execute();
}

/** The owner's photo with these bytes, if they uploaded them before. */
export function findOwnPhotoBySha256(db: DatabaseHandle, ownerId: string, sha256: string): Promise<PhotoRow | undefined> {
  return db.selectFrom("photos").selectAll().where("owner_id", "=", ownerId).where("sha256", "=", sha256).executeTakeFirst();
}

/** The bytes of every original the user has stored, with their companions (a pair's RAW, a motion photo's clip), for the upload quota. */
export async function sumOriginalBytes(db: DatabaseHandle, ownerId: string): Promise<number> {
  const row = await db
    .selectFrom("photos")
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<string | number>("original_size"), eb.lit(0)).as("total"),
      eb.fn.coalesce(eb.fn.sum<string | number>("raw_companion_size"), eb.lit(0)).as("raw"),
      eb.fn.coalesce(eb.fn.sum<string | number>("motion_clip_size"), eb.lit(0)).as("clips"),
    ])
    .where("owner_id", "=", ownerId)
    .executeTakeFirstOrThrow();
  return Number(row.total) + Number(row.raw) + Number(row.clips);
}

export async function insertPhoto(db: DatabaseHandle, photo: NewPhotoRow): Promise<void> {
  await db.insertInto("photos").values({ publication_key: newPublicationKey(), ...photo }).execute();
}

export async function updatePhoto(db: DatabaseHandle, id: string, changes: Partial<Omit<PhotoRow, "id">>): Promise<void> {
  await db.updateTable("photos").set(changes).where("id", "=", id).execute();
}

/**
 * Writes the date taken the file says (and the gallery place it gives), unless the owner set the
 * date by hand: the condition is in the statement, so a correction saved while the photo was being
 * processed (the importer sends one right after the upload) wins.
 */
export async function updateTakenAtUnlessOwners(db: DatabaseHandle, id: string, takenAt: string | null, createdAt: string): Promise<void> {
  await db.updateTable("photos").set({ taken_at: takenAt, sort_at: takenAt ?? createdAt }).where("id", "=", id).where("taken_at_by_owner", "=", 0).execute();
}

/** The rating the file's XMP gives, unless the owner set one (the condition is in the statement, as for the date). */
export async function updateRatingUnlessOwners(db: DatabaseHandle, id: string, rating: number): Promise<void> {
  await db.updateTable("photos").set({ rating }).where("id", "=", id).where("rating_by_owner", "=", 0).execute();
}

/** The colour label the file's XMP gives, unless the owner set one (or took it off). */
export async function updateLabelUnlessOwners(db: DatabaseHandle, id: string, label: PhotoLabel): Promise<void> {
  await db.updateTable("photos").set({ label }).where("id", "=", id).where("label_by_owner", "=", 0).execute();
}

/** The title the file's XMP or IPTC gives, unless the owner set one (or cleared it): the condition is in the statement. */
export async function updateTitleUnlessOwners(db: DatabaseHandle, id: string, title: string): Promise<void> {
  await db.updateTable("photos").set({ title }).where("id", "=", id).where("title_by_owner", "=", 0).execute();
}

/** The caption the file's XMP or IPTC gives, unless the owner set one (or cleared it). */
export async function updateCaptionUnlessOwners(db: DatabaseHandle, id: string, caption: string): Promise<void> {
  await db.updateTable("photos").set({ caption }).where("id", "=", id).where("caption_by_owner", "=", 0).execute();
}

/** The file's keywords have been made its tags: processing again (a retry, a reprocess) never adds them back. */
export async function markFileKeywordsRead(db: DatabaseHandle, id: string): Promise<void> {
  await db.updateTable("photos").set({ file_keywords_read: 1 }).where("id", "=", id).execute();
}

/**
 * Takes the one turn at making the file's keywords the photo's tags: true when this call marked
 * them read, false when processing or the owner (a whole tag list set, src/tags) already had. Run
 * inside the transaction that adds the tags, so a failure hands the turn back; on PostgreSQL the
 * row lock orders it against an owner setting the list at the same moment.
 */
export async function claimFileKeywords(db: DatabaseHandle, id: string): Promise<boolean> {
  const result = await db.updateTable("photos").set({ file_keywords_read: 1 }).where("id", "=", id).where("file_keywords_read", "=", 0).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Deletes photos' rows; their variants' and jobs' rows go with them (cascade). */
export async function deletePhotoRows(db: DatabaseHandle, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom("photos").where("id", "in", ids).execute();
}

export interface PhotoListQuery {
  /** What the viewer may list (src/photos/listable-photos.ts). */
  access: PhotoListAccess;
  /** Narrowing filters, applied on top of the access rule. */
  filter?: PhotoRangeFilter;
  /** The row to start after, in the direction walked. */
  after?: { sortAt: string; id: string };
  /** "older" (the default): newest first, the gallery's order; "newer": back towards the newest, nearest first. */
  direction?: "older" | "newer";
  limit: number;
}

function selectRange(db: DatabaseHandle, range: PhotoRange, query: PhotoListQuery) {
  const order = query.direction === "newer" ? "asc" : "desc";
  const after = query.after;
  return db
    .selectFrom("photos")
    .selectAll()
    .where((eb) => whereInRange(eb, query.access, range))
    // A row value, not `sort_at < ? OR (sort_at = ? AND id < ?)`: only this form becomes an index
    // range in SQLite, so "load more" costs the same at the end of 100,000 photos as at the start.
    .$if(after !== undefined, (select) =>
      select.where((eb) => eb(eb.refTuple("sort_at", "id"), order === "desc" ? "<" : ">", eb.tuple(after!.sortAt, after!.id))),
    )
    .orderBy("sort_at", order)
    .orderBy("id", order)
    .limit(query.limit);
}

/**
 * The photos a list shows, in gallery order (or its reverse), walking the (sort_at, id) keyset.
 * Several ranges are each cut to `limit` rows and merged, so no query reads more than
 * `limit` rows per range however deep the page (PostgreSQL merges them in order; SQLite sorts at
 * most `limit` rows per range).
 */
export async function listPhotos(db: DatabaseHandle, query: PhotoListQuery): Promise<PhotoRow[]> {
  const ranges = listablePhotoRanges(query.access, query.filter).map((range) => selectRange(db, range, query));
  return mergePhotoRanges(db, ranges, query.limit, query.direction === "newer" ? "asc" : "desc");
}

/**
 * How many photos a list holds, and how many of them come before `at` in its order (newest first):
 * the full-screen viewer's "3 / 24". Counted range by range (the same ranges the list walks), so each
 * count is one index range, never a scan of every photo with the rule as a filter.
 */
export async function countPhotosAround(db: DatabaseHandle, access: PhotoListAccess, at: { sortAt: string; id: string }): Promise<{ before: number; total: number }> {
  const counts = await Promise.all(
    listablePhotoRanges(access).map(async (range) => {
      const inRange = db.selectFrom("photos").where((eb) => whereInRange(eb, access, range));
      const [total, before] = await Promise.all([
        inRange.select((eb) => eb.fn.countAll().as("count")).executeTakeFirstOrThrow(),
        inRange
          .where((eb) => eb(eb.refTuple("sort_at", "id"), ">", eb.tuple(at.sortAt, at.id)))
          .select((eb) => eb.fn.countAll().as("count"))
          .executeTakeFirstOrThrow(),
      ]);
      // PostgreSQL answers a count as a bigint string, SQLite as a number.
      return { total: Number(total.count), before: Number(before.count) };
    }),
  );
  return counts.reduce((sum, count) => ({ before: sum.before + count.before, total: sum.total + count.total }), { before: 0, total: 0 });
}

export function listVariants(db: DatabaseHandle, photoIds: string[]): Promise<PhotoVariantRow[]> {
  if (photoIds.length === 0) return Promise.resolve([]);
  // Format breaks ties of width, so an answer's variants come in one order whatever the rows' physical order (a restored database's differs).
  return db.selectFrom("photo_variants").selectAll().where("photo_id", "in", photoIds).orderBy("width").orderBy("format").execute();
}

export function findVariantByKey(
  db: DatabaseHandle,
  storageKey: string,
): Promise<(PhotoVariantRow & Pick<PhotoRow, "owner_id" | "visibility" | "publication_key" | "trashed_at">) | undefined> {
  return db
    .selectFrom("photo_variants")
    .innerJoin("photos", "photos.id", "photo_variants.photo_id")
    .selectAll("photo_variants")
    .select(["photos.owner_id", "photos.visibility", "photos.publication_key", "photos.trashed_at"])
    .where("photo_variants.storage_key", "=", storageKey)
    .executeTakeFirst();
}

/**
 * A video's playable copy, or the playable copy of a photo's motion clip, at this storage key, in
 * the shape of a variant (format "mp4"), so the media routes serve it under exactly a variant's
 * rules. Found by the photo's primary key, which the key names (photoIdOfVariantKey); undefined for
 * any other key.
 */
export async function findPlayableByKey(
  db: DatabaseHandle,
  storageKey: string,
): Promise<(Omit<PhotoVariantRow, "format"> & { format: "mp4" } & Pick<PhotoRow, "owner_id" | "visibility" | "publication_key" | "trashed_at">) | undefined> {
  const photoId = photoIdOfVariantKey(storageKey);
  if (!photoId || !storageKey.endsWith(".mp4")) return undefined;
  const photo = await db
    .selectFrom("photos")
    .select(["id", "owner_id", "visibility", "publication_key", "trashed_at", "playable_key", "playable_size", "motion_playable_size", "width", "height"])
    .where("id", "=", photoId)
    .where((eb) => eb.or([eb("playable_key", "=", storageKey), eb("motion_playable_key", "=", storageKey)]))
    .executeTakeFirst();
  if (!photo) return undefined;
  return {
    photo_id: photo.id,
    format: "mp4",
    width: photo.width ?? 0,
    height: photo.height ?? 0,
    storage_key: storageKey,
    byte_size: Number((photo.playable_key === storageKey ? photo.playable_size : photo.motion_playable_size) ?? 0),
    owner_id: photo.owner_id,
    visibility: photo.visibility,
    publication_key: photo.publication_key,
    trashed_at: photo.trashed_at,
  };
}

/**
 * What a media path's storage key names: an image variant's row, or a playable copy (a video's or
 * a motion clip's) in a variant's shape. Image variants are never `.mp4` (FILE_EXTENSIONS in
 * photo-processing.job.ts) and playable copies always are, so one query answers: every Range
 * request of a video asked photo_variants in vain first.
 */
export function findVariantOrPlayableByKey(db: DatabaseHandle, storageKey: string) {
  return storageKey.endsWith(".mp4") ? findPlayableByKey(db, storageKey) : findVariantByKey(db, storageKey);
}

/** Deletes every variant row of a photo (its variants are about to be replaced). */
export async function deletePhotoVariantRows(db: DatabaseHandle, photoId: string): Promise<void> {
  await db.deleteFrom("photo_variants").where("photo_id", "=", photoId).execute();
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
