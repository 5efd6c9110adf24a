import type { DatabaseHandle } from "@/src/db/client";
import { type PhotoListAccess, whereListablePhotos } from "@/src/photos/listable-photos";

// SQL for "is this X?": named people, unnamed faces' descriptors, and the owner's "no" answers
// (people's centroids are person-centroids.ts).
// No rules here: every caller passes the owner it acts for.

/**
 * The owner's named, shown people who have a stored centroid (person-centroids.ts), with it, in one
 * read; only those of `personIds` when given (at most a few hundred: what one change touched).
 */
export function listNamedCentroidRows(db: DatabaseHandle, ownerId: string, personIds?: readonly string[]) {
  return db
    .selectFrom("people")
    .innerJoin("person_centroids", "person_centroids.person_id", "people.id")
    .select(["people.id as personId", "people.name", "person_centroids.centroid", "person_centroids.is_stale as isStale"])
    .where("people.owner_id", "=", ownerId)
    .where("people.name", "is not", null)
    .where("people.is_hidden", "=", 0)
    // Both keys: SQLite without statistics otherwise walks every person of the owner to find these.
    .$if(personIds !== undefined, (query) => query.where("people.id", "in", personIds ?? []).where("person_centroids.person_id", "in", personIds ?? []))
    .execute();
}

/** The owner's people whose stored centroid is stale (a photo purged underneath them), through the stale index. */
export async function listStaleCentroidPeople(db: DatabaseHandle, ownerId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("person_centroids")
    .innerJoin("people", "people.id", "person_centroids.person_id")
    .select("person_centroids.person_id")
    .where("person_centroids.is_stale", "=", 1)
    .where("people.owner_id", "=", ownerId)
    .execute();
  return rows.map((row) => row.person_id);
}

/** Descriptors of these faces, by face id (faces drawn by hand have none and are left out). */
export async function findFaceDescriptors(db: DatabaseHandle, faceIds: readonly string[]): Promise<Map<string, Uint8Array>> {
  if (faceIds.length === 0) return new Map();
  const rows = await db.selectFrom("faces").select(["id", "descriptor"]).where("id", "in", [...faceIds]).where("descriptor", "is not", null).execute();
  return new Map(rows.flatMap((row) => (row.descriptor ? [[row.id, row.descriptor] as const] : [])));
}

/** The named people the owner said are not `personId` (or not any of `personIds`). */
export async function findRejections(db: DatabaseHandle, personIds: readonly string[]): Promise<Map<string, Set<string>>> {
  const rejected = new Map<string, Set<string>>();
  if (personIds.length === 0) return rejected;
  const rows = await db.selectFrom("person_suggestion_rejections").select(["person_id", "suggested_person_id"]).where("person_id", "in", [...personIds]).execute();
  for (const row of rows) rejected.set(row.person_id, (rejected.get(row.person_id) ?? new Set()).add(row.suggested_person_id));
  return rejected;
}

export async function insertRejection(db: DatabaseHandle, personId: string, suggestedPersonId: string, now: string): Promise<void> {
  await db
    .insertInto("person_suggestion_rejections")
    .values({ person_id: personId, suggested_person_id: suggestedPersonId, created_at: now })
    .onConflict((conflict) => conflict.columns(["person_id", "suggested_person_id"]).doNothing())
    .execute();
}

/**
 * The owner's faces whose person is unnamed (or who have none), not hidden, in their photos that
 * `photos` lists (never the trash), newest photo first: the grid of faces to name.
 */
export function listUnnamedFaces(db: DatabaseHandle, ownerId: string, photos: PhotoListAccess, limit: number) {
  return db
    .selectFrom("faces")
    .innerJoin("photos", "photos.id", "faces.photo_id")
    .leftJoin("people", "people.id", "faces.person_id")
    .select([
      "faces.id",
      "faces.photo_id as photoId",
      "faces.person_id as personId",
      "faces.box_left as left",
      "faces.box_top as top",
      "faces.box_width as width",
      "faces.box_height as height",
    ])
    .where("photos.owner_id", "=", ownerId)
    // A person without a face is named when tagged and has no face to show in the grid.
    .where("faces.source", "!=", "tag")
    .where((eb) => whereListablePhotos(eb, photos))
    .where((eb) => eb.or([eb("faces.person_id", "is", null), eb.and([eb("people.name", "is", null), eb("people.is_hidden", "=", 0)])]))
    .orderBy("photos.sort_at", "desc")
    .orderBy("faces.box_left")
    .orderBy("faces.id")
    .limit(limit)
    .execute();
}
