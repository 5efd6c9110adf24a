import type { ExpressionBuilder } from "kysely";
import type { DatabaseHandle } from "@/src/db/client";
import type { AlbumRow, AlbumSortColumn, AlbumUpdate, Database, NewAlbumRow, PhotoRow } from "@/src/db/database";
import { type PhotoListAccess, whereListablePhotos } from "@/src/photos/listable-photos";
import { type AlbumListAccess, whereListableAlbums } from "./album-access";

export function findAlbumById(db: DatabaseHandle, id: string): Promise<AlbumRow | undefined> {
  return db.selectFrom("albums").selectAll().where("id", "=", id).executeTakeFirst();
}

export function findAlbumBySlug(db: DatabaseHandle, slug: string): Promise<AlbumRow | undefined> {
  return db.selectFrom("albums").selectAll().where("slug", "=", slug).executeTakeFirst();
}

/** The album an old slug belonged to before a rename. */
export function findAlbumByOldSlug(db: DatabaseHandle, slug: string): Promise<AlbumRow | undefined> {
  return db
    .selectFrom("album_slugs")
    .innerJoin("albums", "albums.id", "album_slugs.album_id")
    .selectAll("albums")
    .where("album_slugs.slug", "=", slug)
    .executeTakeFirst();
}

/** Whether any album answers to this slug, now or as an old one. */
export async function isSlugTaken(db: DatabaseHandle, slug: string): Promise<boolean> {
  const row = await db
    .selectFrom("albums")
    .select("id")
    .where("slug", "=", slug)
    .unionAll(db.selectFrom("album_slugs").select("album_id as id").where("slug", "=", slug))
    .executeTakeFirst();
  return row !== undefined;
}

/** Albums under one parent (null: the top level) that a list may show, oldest first. */
export function listAlbumsByParent(db: DatabaseHandle, parentId: string | null, access: AlbumListAccess): Promise<AlbumRow[]> {
  return db
    .selectFrom("albums")
    .selectAll()
    .where("parent_id", parentId === null ? "is" : "=", parentId)
    .where((eb) => whereListableAlbums(eb, access))
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

/**
 * Albums directly under any of these that a list may show, oldest first within a parent (the order
 * a parent's page lists them in): one level of the sub-album tree, through albums_parent.
 */
export function listListableChildAlbums(db: DatabaseHandle, parentIds: string[], access: AlbumListAccess): Promise<AlbumRow[]> {
  if (parentIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("albums")
    .selectAll()
    .where("parent_id", "in", parentIds)
    .where((eb) => whereListableAlbums(eb, access))
    .orderBy("parent_id")
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

/** Every album (ownerId null) or every album of one owner, oldest first. */
export function listAlbumsByOwner(db: DatabaseHandle, ownerId: string | null): Promise<AlbumRow[]> {
  return db
    .selectFrom("albums")
    .selectAll()
    .$if(ownerId !== null, (select) => select.where("owner_id", "=", ownerId as string))
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

export function listAlbumsByIds(db: DatabaseHandle, ids: string[]): Promise<AlbumRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom("albums").selectAll().where("id", "in", ids).execute();
}

/** The ids of albums directly under any of these. */
export async function listChildAlbumIds(db: DatabaseHandle, parentIds: string[]): Promise<string[]> {
  if (parentIds.length === 0) return [];
  const rows = await db.selectFrom("albums").select("id").where("parent_id", "in", parentIds).execute();
  return rows.map((row) => row.id);
}

/** The albums holding a photo that a list may show, by title. */
export function listAlbumsHoldingPhoto(db: DatabaseHandle, photoId: string, access: AlbumListAccess): Promise<AlbumRow[]> {
  return db
    .selectFrom("album_photos")
    .innerJoin("albums", "albums.id", "album_photos.album_id")
    .selectAll("albums")
    .where("album_photos.photo_id", "=", photoId)
    .where((eb) => whereListableAlbums(eb, access))
    .orderBy("albums.title")
    .orderBy("albums.id")
    .execute();
}

export async function insertAlbum(db: DatabaseHandle, album: NewAlbumRow): Promise<void> {
  await db.insertInto("albums").values(album).execute();
}

export async function updateAlbumRow(db: DatabaseHandle, id: string, changes: AlbumUpdate): Promise<void> {
  await db.updateTable("albums").set(changes).where("id", "=", id).execute();
}

/** Deletes the album; its photos' places in it and its old slugs go with it (cascade), the photos stay. */
export async function deleteAlbumRow(db: DatabaseHandle, id: string): Promise<void> {
  await db.deleteFrom("albums").where("id", "=", id).execute();
}

/** Makes the album's children top-level albums. */
export async function detachChildAlbums(db: DatabaseHandle, parentId: string, now: string): Promise<void> {
  await db.updateTable("albums").set({ parent_id: null, updated_at: now }).where("parent_id", "=", parentId).execute();
}

/** Keeps an old slug answering for this album (taking it over if another album had it as an old slug). */
export async function keepOldSlug(db: DatabaseHandle, slug: string, albumId: string, now: string): Promise<void> {
  await db
    .insertInto("album_slugs")
    .values({ slug, album_id: albumId, created_at: now })
    .onConflict((conflict) => conflict.column("slug").doUpdateSet({ album_id: albumId, created_at: now }))
    .execute();
}

/** An old slug stops redirecting: an album takes it as its current slug. */
export async function forgetOldSlug(db: DatabaseHandle, slug: string): Promise<void> {
  await db.deleteFrom("album_slugs").where("slug", "=", slug).execute();
}

/** How many photos of each album the reader may see. */
export async function countVisibleAlbumPhotos(db: DatabaseHandle, albumIds: string[], access: PhotoListAccess): Promise<Map<string, number>> {
  if (albumIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("album_photos")
    .innerJoin("photos", "photos.id", "album_photos.photo_id")
    .select((eb) => ["album_photos.album_id", eb.fn.countAll<string | number>().as("count")])
    .where("album_photos.album_id", "in", albumIds)
    .where((eb) => whereListablePhotos(eb, access))
    .groupBy("album_photos.album_id")
    .execute();
  return new Map(rows.map((row) => [row.album_id, Number(row.count)]));
}

/**
 * How many photos the reader may see in these albums together, each photo once however many of
 * them hold it: the photos are read by key from the albums' rows (album_photos_album), so each is
 * one row and nothing is sorted to drop duplicates.
 */
export async function countVisibleDistinctAlbumPhotos(db: DatabaseHandle, albumIds: string[], access: PhotoListAccess): Promise<number> {
  if (albumIds.length === 0) return 0;
  const row = await db
    .selectFrom("photos")
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .where("photos.id", "in", db.selectFrom("album_photos").select("album_photos.photo_id").where("album_photos.album_id", "in", albumIds))
    .where((eb) => whereListablePhotos(eb, access))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Each album's chosen cover, where the reader may see it and it is still in the album. */
export function listVisibleCovers(db: DatabaseHandle, albums: { id: string; coverPhotoId: string }[], access: PhotoListAccess) {
  if (albums.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("album_photos")
    .innerJoin("photos", "photos.id", "album_photos.photo_id")
    .selectAll("photos")
    .select("album_photos.album_id")
    .where((eb) => eb.or(albums.map((album) => eb.and([eb("album_photos.album_id", "=", album.id), eb("album_photos.photo_id", "=", album.coverPhotoId)]))))
    .where((eb) => whereListablePhotos(eb, access))
    .execute();
}

/** The key a sort walks, and in which direction. */
const SORT_WALK: Record<AlbumSortColumn, { column: "album_photos.order_key" | "album_photos.photo_sort_at" | "album_photos.photo_created_at"; order: "asc" | "desc" }> = {
  manual: { column: "album_photos.order_key", order: "asc" },
  "taken-desc": { column: "album_photos.photo_sort_at", order: "desc" },
  "taken-asc": { column: "album_photos.photo_sort_at", order: "asc" },
  "uploaded-desc": { column: "album_photos.photo_created_at", order: "desc" },
  "uploaded-asc": { column: "album_photos.photo_created_at", order: "asc" },
};

/** Where a page starts: after this photo, whose key in the sort is `key`. */
export interface AlbumPosition {
  key: string;
  photoId: string;
}

export type AlbumPhotoRow = PhotoRow & { order_key: string; photo_sort_at: string; photo_created_at: string };

/** The key of a photo's row in this sort. */
export function sortKeyOf(row: Pick<AlbumPhotoRow, "order_key" | "photo_sort_at" | "photo_created_at">, sort: AlbumSortColumn): string {
  if (sort === "manual") return row.order_key;
  return sort.startsWith("taken") ? row.photo_sort_at : row.photo_created_at;
}

/**
 * One page of the album's photos the reader may see, in its sort (or backwards: `reverse`), by
 * keyset on an index of album_photos: manual order walks (album_id, order_key), which is unique, so
 * the key alone places a row; the other sorts walk (album_id, photo_sort_at|photo_created_at,
 * photo_id). Each row joins its photo by primary key; nothing is sorted.
 */
export function listAlbumPhotoPage(
  db: DatabaseHandle,
  query: { albumId: string; sort: AlbumSortColumn; access: PhotoListAccess; after?: AlbumPosition; reverse?: boolean; limit: number },
): Promise<AlbumPhotoRow[]> {
  const walk = SORT_WALK[query.sort];
  const order = query.reverse ? (walk.order === "asc" ? "desc" : "asc") : walk.order;
  const after = query.after;
  const manual = query.sort === "manual";
  return db
    .selectFrom("album_photos")
    .innerJoin("photos", "photos.id", "album_photos.photo_id")
    .selectAll("photos")
    .select(["album_photos.order_key", "album_photos.photo_sort_at", "album_photos.photo_created_at"])
    .where("album_photos.album_id", "=", query.albumId)
    .where((eb) => whereListablePhotos(eb, query.access))
    .$if(after !== undefined, (select) => select.where((eb) => whereBeyond(eb, query.sort, order, after!)))
    .orderBy(walk.column, order)
    .$if(!manual, (select) => select.orderBy("album_photos.photo_id", order))
    .limit(query.limit)
    .execute();
}

/** The album's rows beyond `position` when its sort is walked in `order` (manual order's key is unique; the others break ties by photo id). */
function whereBeyond(eb: ExpressionBuilder<Database, "album_photos" | "photos">, sort: AlbumSortColumn, order: "asc" | "desc", position: AlbumPosition) {
  const comparison = order === "asc" ? ">" : "<";
  if (sort === "manual") return eb("album_photos.order_key", comparison, position.key);
  return eb(eb.refTuple(SORT_WALK[sort].column, "album_photos.photo_id"), comparison, eb.tuple(position.key, position.photoId));
}

/** How many of the album's photos the reader may see come before `position` in its sort (the viewer's "3 / 24"). */
export async function countAlbumPhotosBefore(db: DatabaseHandle, query: { albumId: string; sort: AlbumSortColumn; access: PhotoListAccess; position: AlbumPosition }): Promise<number> {
  const backwards = SORT_WALK[query.sort].order === "asc" ? "desc" : "asc";
  const row = await db
    .selectFrom("album_photos")
    .innerJoin("photos", "photos.id", "album_photos.photo_id")
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .where("album_photos.album_id", "=", query.albumId)
    .where((eb) => whereListablePhotos(eb, query.access))
    .where((eb) => whereBeyond(eb, query.sort, backwards, query.position))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The photo's row in the album, joined with the photo, if the reader may see it there. */
export function findVisibleAlbumPhoto(db: DatabaseHandle, albumId: string, photoId: string, access: PhotoListAccess): Promise<AlbumPhotoRow | undefined> {
  return db
    .selectFrom("album_photos")
    .innerJoin("photos", "photos.id", "album_photos.photo_id")
    .selectAll("photos")
    .select(["album_photos.order_key", "album_photos.photo_sort_at", "album_photos.photo_created_at"])
    .where("album_photos.album_id", "=", albumId)
    .where("album_photos.photo_id", "=", photoId)
    .where((eb) => whereListablePhotos(eb, access))
    .executeTakeFirst();
}

/** Which of these photos are in the album already. */
export async function listAlbumMembers(db: DatabaseHandle, albumId: string, photoIds: string[]): Promise<Set<string>> {
  if (photoIds.length === 0) return new Set();
  const rows = await db.selectFrom("album_photos").select("photo_id").where("album_id", "=", albumId).where("photo_id", "in", photoIds).execute();
  return new Set(rows.map((row) => row.photo_id));
}

export async function countAlbumRows(db: DatabaseHandle, albumId: string): Promise<number> {
  const row = await db.selectFrom("album_photos").select((eb) => eb.fn.countAll<string | number>().as("count")).where("album_id", "=", albumId).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The last key of the album's manual order (null when empty). */
export async function findLastOrderKey(db: DatabaseHandle, albumId: string): Promise<string | null> {
  const row = await db.selectFrom("album_photos").select("order_key").where("album_id", "=", albumId).orderBy("order_key", "desc").limit(1).executeTakeFirst();
  return row?.order_key ?? null;
}

/** A photo's key in the album's manual order, whoever may see it. */
export async function findOrderKey(db: DatabaseHandle, albumId: string, photoId: string): Promise<string | null> {
  const row = await db.selectFrom("album_photos").select("order_key").where("album_id", "=", albumId).where("photo_id", "=", photoId).executeTakeFirst();
  return row?.order_key ?? null;
}

/** The nearest key after (or before) `key` in the album's manual order, leaving out one photo (the one being moved). */
export async function findNextOrderKey(db: DatabaseHandle, albumId: string, key: string | null, direction: "after" | "before", exceptPhotoId: string): Promise<string | null> {
  const row = await db
    .selectFrom("album_photos")
    .select("order_key")
    .where("album_id", "=", albumId)
    .where("photo_id", "!=", exceptPhotoId)
    .$if(key !== null, (select) => select.where("order_key", direction === "after" ? ">" : "<", key as string))
    .orderBy("order_key", direction === "after" ? "asc" : "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.order_key ?? null;
}

/** The keys at `offset` and the next place of the manual order, leaving out one photo. */
export async function findOrderKeysAt(db: DatabaseHandle, albumId: string, offset: number, exceptPhotoId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("album_photos")
    .select("order_key")
    .where("album_id", "=", albumId)
    .where("photo_id", "!=", exceptPhotoId)
    .orderBy("order_key")
    .limit(2)
    .offset(offset)
    .execute();
  return rows.map((row) => row.order_key);
}

export async function insertAlbumPhotos(
  db: DatabaseHandle,
  rows: { album_id: string; photo_id: string; order_key: string; photo_sort_at: string; photo_created_at: string; added_at: string }[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto("album_photos").values(rows).execute();
}

export async function deleteAlbumPhotos(db: DatabaseHandle, albumId: string, photoIds: string[]): Promise<number> {
  if (photoIds.length === 0) return 0;
  const result = await db.deleteFrom("album_photos").where("album_id", "=", albumId).where("photo_id", "in", photoIds).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Moves one photo in the manual order: one row written. */
export async function updateOrderKey(db: DatabaseHandle, albumId: string, photoId: string, orderKey: string): Promise<number> {
  const result = await db.updateTable("album_photos").set({ order_key: orderKey }).where("album_id", "=", albumId).where("photo_id", "=", photoId).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The photos with these ids (trashed ones left out), for adding to an album. */
export function listPhotosForAlbum(db: DatabaseHandle, photoIds: string[]): Promise<PhotoRow[]> {
  if (photoIds.length === 0) return Promise.resolve([]);
  return db.selectFrom("photos").selectAll().where("id", "in", photoIds).where("trashed_at", "is", null).execute();
}
