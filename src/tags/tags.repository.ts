import type { DatabaseHandle } from "@/src/db/client";
import type { PhotoRow, TagRow } from "@/src/db/database";
import { type PhotoListAccess, whereListablePart, whereListablePhotos } from "@/src/photos/listable-photos";

// SQL for tags and photos' tags, one statement per function, the handle first. No rules: who may
// see or change what is src/tags/tags.service.ts's to decide.

/** What a tag list row carries besides the tag: how many photos it counts. */
export interface TagCountRow {
  tag_id: string;
  count: number;
}

export function findTagById(db: DatabaseHandle, id: string): Promise<TagRow | undefined> {
  return db.selectFrom("tags").selectAll().where("id", "=", id).executeTakeFirst();
}

export function findTagByKey(db: DatabaseHandle, key: string): Promise<TagRow | undefined> {
  return db.selectFrom("tags").selectAll().where("key", "=", key).executeTakeFirst();
}

export function findTagsByIds(db: DatabaseHandle, ids: string[]): Promise<TagRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom("tags").selectAll().where("id", "in", ids).execute();
}

export function findTagsByKeys(db: DatabaseHandle, keys: string[]): Promise<TagRow[]> {
  if (keys.length === 0) return Promise.resolve([]);
  return db.selectFrom("tags").selectAll().where("key", "in", keys).execute();
}

/** Inserts tags whose key is not taken yet; a key another request took first keeps its spelling. */
export async function insertMissingTags(db: DatabaseHandle, tags: TagRow[]): Promise<void> {
  if (tags.length === 0) return;
  await db.insertInto("tags").values(tags).onConflict((conflict) => conflict.column("key").doNothing()).execute();
}

export async function updateTag(db: DatabaseHandle, id: string, changes: Pick<TagRow, "name" | "key">): Promise<void> {
  await db.updateTable("tags").set(changes).where("id", "=", id).execute();
}

/** Deletes tags and their photos' rows (said outright rather than left to the cascade: SQLite enforces it only where the connection turned it on). */
export async function deleteTags(db: DatabaseHandle, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom("photo_tags").where("tag_id", "in", ids).execute();
  await db.deleteFrom("tags").where("id", "in", ids).execute();
}

/** The photos' fields that decide who may tag them, by id (missing ids are simply not answered). */
export function findPhotosForTagging(
  db: DatabaseHandle,
  photoIds: string[],
): Promise<Array<Pick<PhotoRow, "id" | "owner_id" | "visibility" | "sort_at" | "trashed_at">>> {
  if (photoIds.length === 0) return Promise.resolve([]);
  return db.selectFrom("photos").select(["id", "owner_id", "visibility", "sort_at", "trashed_at"]).where("id", "in", photoIds).execute();
}

/** The tags of these photos, with each row's photo. */
export function listTagsOfPhotos(db: DatabaseHandle, photoIds: string[]): Promise<Array<TagRow & { photo_id: string }>> {
  if (photoIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("photo_tags")
    .innerJoin("tags", "tags.id", "photo_tags.tag_id")
    .selectAll("tags")
    .select("photo_tags.photo_id")
    .where("photo_tags.photo_id", "in", photoIds)
    .orderBy("tags.key")
    .execute();
}

export async function insertPhotoTags(db: DatabaseHandle, rows: Array<{ photo_id: string; tag_id: string; sort_at: string }>): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto("photo_tags")
    .values(rows)
    .onConflict((conflict) => conflict.columns(["photo_id", "tag_id"]).doNothing())
    .execute();
}

export async function deletePhotoTags(db: DatabaseHandle, photoIds: string[], tagIds: string[]): Promise<void> {
  if (photoIds.length === 0 || tagIds.length === 0) return;
  await db.deleteFrom("photo_tags").where("photo_id", "in", photoIds).where("tag_id", "in", tagIds).execute();
}

/** Gives the target tag every photo the source tags have (once each). */
export async function copyPhotoTags(db: DatabaseHandle, sourceIds: string[], targetId: string): Promise<void> {
  if (sourceIds.length === 0) return;
  await db
    .insertInto("photo_tags")
    .columns(["photo_id", "tag_id", "sort_at"])
    .expression((eb) =>
      eb.selectFrom("photo_tags").select((select) => ["photo_id", select.val(targetId).as("tag_id"), "sort_at"]).where("tag_id", "in", sourceIds),
    )
    .onConflict((conflict) => conflict.columns(["photo_id", "tag_id"]).doNothing())
    .execute();
}

/**
 * How many photos each tag has among those the list rule's part lets through (whereListablePart:
 * `shared`, what every viewer with these visibilities lists; `own`, what only the viewer lists on
 * top). Tags without such photos are not answered at all.
 */
export async function countPhotosPerTag(db: DatabaseHandle, access: PhotoListAccess, part: "shared" | "own"): Promise<TagCountRow[]> {
  const rows = await db
    .selectFrom("photo_tags")
    .innerJoin("photos", "photos.id", "photo_tags.photo_id")
    .select((eb) => ["photo_tags.tag_id", eb.fn.countAll<string | number>().as("count")])
    .where((eb) => whereListablePart(eb, access, part))
    .groupBy("photo_tags.tag_id")
    .execute();
  return rows.map((row) => ({ tag_id: row.tag_id, count: Number(row.count) }));
}

/** Every tag with how many photos outside the trash it has (whoever owns them, in any state): the admin's list. */
export async function listAllTagsWithCounts(db: DatabaseHandle): Promise<Array<TagRow & { count: number }>> {
  const rows = await db
    .selectFrom("tags")
    .leftJoin("photo_tags", "photo_tags.tag_id", "tags.id")
    .leftJoin("photos", (join) => join.onRef("photos.id", "=", "photo_tags.photo_id").on("photos.trashed_at", "is", null))
    .selectAll("tags")
    .select((eb) => eb.fn.count<string | number>("photos.id").as("count"))
    .groupBy(["tags.id", "tags.name", "tags.key", "tags.created_at"])
    .orderBy("tags.key")
    .execute();
  return rows.map((row) => ({ ...row, count: Number(row.count) }));
}

/**
 * Tags whose key starts with `prefix`, that have at least one photo the list rule lets through, in
 * key order.
 */
export function suggestTagsByPrefix(db: DatabaseHandle, prefix: string, access: PhotoListAccess, limit: number): Promise<TagRow[]> {
  return db
    .selectFrom("tags")
    .selectAll("tags")
    .$if(prefix.length > 0, (select) => select.where((eb) => eb(eb.fn("substr", ["tags.key", eb.val(1), eb.val([...prefix].length)]), "=", prefix)))
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom("photo_tags")
          .innerJoin("photos", "photos.id", "photo_tags.photo_id")
          .select("photo_tags.photo_id")
          .whereRef("photo_tags.tag_id", "=", "tags.id")
          .where((eb) => whereListablePhotos(eb, access)),
      ),
    )
    .orderBy("tags.key")
    .limit(limit)
    .execute();
}

/**
 * A page of a tag's photos that the list rule lets through, in
 * gallery order: walks photo_tags_tag_sort from the keyset and looks each photo up by its id, so a
 * page costs the same at any depth.
 */
export function listTagPhotos(
  db: DatabaseHandle,
  query: { tagId: string; access: PhotoListAccess; after?: { sortAt: string; id: string }; limit: number },
): Promise<PhotoRow[]> {
  const { access, after } = query;
  return db
    .selectFrom("photo_tags")
    .innerJoin("photos", "photos.id", "photo_tags.photo_id")
    .selectAll("photos")
    .where("photo_tags.tag_id", "=", query.tagId)
    .$if(after !== undefined, (select) =>
      select.where((eb) => eb(eb.refTuple("photo_tags.sort_at", "photo_tags.photo_id"), "<", eb.tuple(after!.sortAt, after!.id))),
    )
    .where((eb) => whereListablePhotos(eb, access))
    .orderBy("photo_tags.sort_at", "desc")
    .orderBy("photo_tags.photo_id", "desc")
    .limit(query.limit)
    .execute();
}
