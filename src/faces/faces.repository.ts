import type { DatabaseHandle } from "@/src/db/client";
import type { FaceSource } from "@/src/db/database";
import { type PhotoListAccess, whereListablePhotos } from "@/src/photos/listable-photos";
import { type PeopleAccess, whereVisiblePeople } from "./people-access";

// SQL for faces, people and the record of which photos detection has looked at. No rules here:
// every caller passes the owner it acts for, and the service decides who that may be.

export interface NewFace {
  id: string;
  photoId: string;
  personId: string | null;
  box: { left: number; top: number; width: number; height: number };
  score: number | null;
  descriptor: Buffer | null;
  source: FaceSource;
}

export async function insertFaces(db: DatabaseHandle, faces: readonly NewFace[], now: string): Promise<void> {
  if (faces.length === 0) return;
  await db
    .insertInto("faces")
    .values(
      faces.map((face) => ({
        id: face.id,
        photo_id: face.photoId,
        person_id: face.personId,
        box_left: face.box.left,
        box_top: face.box.top,
        box_width: face.box.width,
        box_height: face.box.height,
        score: face.score,
        descriptor: face.descriptor,
        source: face.source,
        created_at: now,
      })),
    )
    .execute();
}

export async function upsertFaceScan(db: DatabaseHandle, scan: { photoId: string; faceCount: number; isCapped: boolean }, now: string): Promise<void> {
  await db
    .insertInto("photo_face_scans")
    .values({ photo_id: scan.photoId, face_count: scan.faceCount, is_capped: scan.isCapped ? 1 : 0, scanned_at: now })
    .onConflict((conflict) => conflict.column("photo_id").doUpdateSet({ face_count: scan.faceCount, is_capped: scan.isCapped ? 1 : 0, scanned_at: now }))
    .execute();
}

export function findFaceScan(db: DatabaseHandle, photoId: string) {
  return db.selectFrom("photo_face_scans").selectAll().where("photo_id", "=", photoId).executeTakeFirst();
}

export async function insertPerson(db: DatabaseHandle, person: { id: string; ownerId: string; name?: string | null; coverFaceId?: string | null }, now: string): Promise<void> {
  await db
    .insertInto("people")
    .values({ id: person.id, owner_id: person.ownerId, name: person.name ?? null, cover_face_id: person.coverFaceId ?? null, created_at: now, updated_at: now })
    .execute();
}

/**
 * Ready photos outside the trash of owners who agreed to be looked at (face_consents, to the text
 * of version `consentVersion`: the words asked now) that detection has not looked at and that have no face job of `jobKind` queued, running or failed for
 * good (a backfill must not queue a photo that fails every time again and again), oldest first: a
 * backfill's next batch. A job that ended "done" without a scan found people off or the photo not
 * ready then, so its photo is queued again.
 */
export function findUnscannedPhotoIds(db: DatabaseHandle, jobKind: string, limit: number, consentVersion: string): Promise<string[]> {
  return db
    .selectFrom("photos")
    .innerJoin("face_consents", "face_consents.user_id", "photos.owner_id")
    .leftJoin("photo_face_scans", "photo_face_scans.photo_id", "photos.id")
    .select("photos.id")
    .where("face_consents.agreed", "=", 1)
    .where("face_consents.text_sha256", "=", consentVersion)
    .where("photo_face_scans.photo_id", "is", null)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom("jobs").select("jobs.id").whereRef("jobs.photo_id", "=", "photos.id").where("jobs.kind", "=", jobKind).where("jobs.status", "!=", "done"))))
    .where("photos.status", "=", "ready")
    .where("photos.trashed_at", "is", null)
    .orderBy("photos.created_at")
    .orderBy("photos.id")
    .limit(limit)
    .execute()
    .then((rows) => rows.map((row) => row.id));
}

/**
 * How far detection has come: photos looked at, of the ready photos outside the trash whose owners
 * agreed to be looked at, to the text of version `consentVersion` (the others are not waiting: they
 * are never looked at until they agree to the words asked now).
 */
export async function countScanProgress(db: DatabaseHandle, consentVersion: string): Promise<{ scanned: number; total: number; faces: number }> {
  // Driven from the owners who agreed, then their photos by the owner index. As an inner join (or
  // `owner_id in (…)`), SQLite walked every ready photo of the site through the status index to
  // find them: 38 ms at 100,000 photos, on every dashboard view, with no one agreed. CROSS JOIN
  // keeps the owners first in SQLite (0.1 ms); PostgreSQL plans it as an ordinary join.
  const agreed = db
    .selectFrom("face_consents")
    .crossJoin("photos")
    .whereRef("photos.owner_id", "=", "face_consents.user_id")
    .where("face_consents.agreed", "=", 1)
    .where("face_consents.text_sha256", "=", consentVersion)
    .where("photos.status", "=", "ready")
    .where("photos.trashed_at", "is", null);
  const total = await agreed.select((eb) => eb.fn.countAll<string | number>().as("count")).executeTakeFirstOrThrow();
  const scanned = await agreed
    .innerJoin("photo_face_scans", "photo_face_scans.photo_id", "photos.id")
    .select((eb) => [eb.fn.countAll<string | number>().as("count"), eb.fn.sum<string | number | null>("photo_face_scans.face_count").as("faces")])
    .executeTakeFirstOrThrow();
  return { scanned: Number(scanned.count), total: Number(total.count), faces: Number(scanned.faces ?? 0) };
}

/** Turning detection off: every detected face (and so every descriptor, and every centroid made of them), every scan record. */
export async function deleteDetectedFaces(db: DatabaseHandle): Promise<number> {
  const result = await db.deleteFrom("faces").where("source", "=", "detected").executeTakeFirst();
  await db.deleteFrom("person_centroids").execute();
  await db.deleteFrom("photo_face_scans").execute();
  return Number(result.numDeletedRows);
}

/** People left without a face and without a name: nothing of theirs remains to show. */
export async function deleteEmptyUnnamedPeople(db: DatabaseHandle): Promise<void> {
  await db
    .deleteFrom("people")
    .where("name", "is", null)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom("faces").select("faces.id").whereRef("faces.person_id", "=", "people.id"))))
    .execute();
}

/** Covers that point at a face that is no longer the person's (deleted, moved, split off). */
export async function clearStaleCovers(db: DatabaseHandle): Promise<void> {
  await db
    .updateTable("people")
    .set({ cover_face_id: null })
    .where("cover_face_id", "is not", null)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom("faces").select("faces.id").whereRef("faces.id", "=", "people.cover_face_id").whereRef("faces.person_id", "=", "people.id"))),
    )
    .execute();
}

export function findPerson(db: DatabaseHandle, ownerId: string, personId: string) {
  return db.selectFrom("people").selectAll().where("id", "=", personId).where("owner_id", "=", ownerId).executeTakeFirst();
}

export async function updatePerson(db: DatabaseHandle, personId: string, change: { name?: string | null; is_hidden?: number; cover_face_id?: string | null }, now: string): Promise<void> {
  await db
    .updateTable("people")
    .set({ ...change, updated_at: now })
    .where("id", "=", personId)
    .execute();
}

export async function moveFacesToPerson(db: DatabaseHandle, fromPersonId: string, toPersonId: string): Promise<void> {
  await db.updateTable("faces").set({ person_id: toPersonId }).where("person_id", "=", fromPersonId).execute();
}

export async function deletePerson(db: DatabaseHandle, personId: string): Promise<void> {
  await db.deleteFrom("people").where("id", "=", personId).execute();
}

/** A face of one of this owner's photos (faces belong to the photo's owner), with its photo's size. */
export function findOwnedFace(db: DatabaseHandle, ownerId: string, faceId: string) {
  return db
    .selectFrom("faces")
    .innerJoin("photos", "photos.id", "faces.photo_id")
    .select(["faces.id", "faces.photo_id", "faces.person_id", "faces.source"])
    .where("faces.id", "=", faceId)
    .where("photos.owner_id", "=", ownerId)
    .executeTakeFirst();
}

export async function setFacePerson(db: DatabaseHandle, faceId: string, personId: string | null): Promise<void> {
  await db.updateTable("faces").set({ person_id: personId }).where("id", "=", faceId).execute();
}

/** The person a face of this photo already has, if any (one person appears once per photo). */
export function findFaceOfPersonInPhoto(db: DatabaseHandle, personId: string, photoId: string) {
  return db.selectFrom("faces").select("id").where("person_id", "=", personId).where("photo_id", "=", photoId).executeTakeFirst();
}

/** A photo's faces with their person's name, for its owner's page (no descriptor: it never leaves). */
export function findPhotoFaces(db: DatabaseHandle, photoId: string) {
  return db
    .selectFrom("faces")
    .leftJoin("people", "people.id", "faces.person_id")
    .select([
      "faces.id",
      "faces.person_id as personId",
      "people.name as personName",
      "people.is_hidden as personHidden",
      "faces.box_left as left",
      "faces.box_top as top",
      "faces.box_width as width",
      "faces.box_height as height",
      "faces.source",
    ])
    .where("faces.photo_id", "=", photoId)
    .orderBy("faces.box_left")
    .orderBy("faces.id")
    .execute();
}

/**
 * This owner's people with how many photos (outside the trash) each is in, named first, then by
 * photo count; only `personId` when given (a person's page must not count every other person's photos).
 */
export function listOwnerPeople(db: DatabaseHandle, ownerId: string, hidden: "exclude" | "include" | "only", personId?: string) {
  return db
    .selectFrom("people")
    .leftJoin("faces", "faces.person_id", "people.id")
    .leftJoin("photos", (join) => join.onRef("photos.id", "=", "faces.photo_id").on("photos.trashed_at", "is", null))
    .select((eb) => [
      "people.id",
      "people.name",
      "people.is_hidden",
      "people.cover_face_id",
      eb.fn.count<string | number>("photos.id").distinct().as("photo_count"),
    ])
    .where("people.owner_id", "=", ownerId)
    .$if(personId !== undefined, (query) => query.where("people.id", "=", personId ?? ""))
    .$if(hidden === "exclude", (query) => query.where("people.is_hidden", "=", 0))
    .$if(hidden === "only", (query) => query.where("people.is_hidden", "=", 1))
    .groupBy(["people.id", "people.name", "people.is_hidden", "people.cover_face_id"])
    .orderBy((eb) => eb.case().when("people.name", "is", null).then(1).else(0).end())
    .orderBy("people.name")
    .orderBy("photo_count", "desc")
    .orderBy("people.id")
    .execute();
}

/**
 * The faces of these people in photos `photos` may list (never the trash), oldest first: covers are
 * chosen from them, so a face is never cut from a photo the viewer may not list.
 */
export function listPeopleFaces(db: DatabaseHandle, personIds: readonly string[], photos: PhotoListAccess) {
  if (personIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("faces")
    .innerJoin("photos", "photos.id", "faces.photo_id")
    .select([
      "faces.id",
      "faces.person_id as personId",
      "faces.photo_id as photoId",
      "faces.box_left as left",
      "faces.box_top as top",
      "faces.box_width as width",
      "faces.box_height as height",
      "faces.score",
    ])
    .where("faces.person_id", "in", [...personIds])
    // A person without a face has no box to cut a cover from.
    .where("faces.source", "!=", "tag")
    .where((eb) => whereListablePhotos(eb, photos))
    .orderBy("faces.created_at")
    .orderBy("faces.id")
    .execute();
}

/**
 * The photos a person is in that `access` may list (the one photo access rule), newest first.
 * Driven from the person's faces (the faces_person index), then each photo by its key. Written as
 * `photos.id in (their faces)`, SQLite without statistics (the app never runs ANALYZE) walked
 * every photo the access rule lets through (a multi-index OR over the owner's and the public
 * photos: 100,000 rows, then a sort; 308 ms at 100,000 faces); as a join from a subquery, SQLite
 * with statistics walked photos in gallery order instead. CROSS JOIN makes SQLite keep the faces
 * first whatever its statistics say; PostgreSQL plans it as an ordinary join and starts from the
 * faces itself. Grouped by photo: a person merged with another may have two faces in one photo.
 */
export function listPersonPhotos(db: DatabaseHandle, personId: string, access: PhotoListAccess, limit: number) {
  return db
    .selectFrom("faces")
    .crossJoin("photos")
    .selectAll("photos")
    .whereRef("photos.id", "=", "faces.photo_id")
    .where("faces.person_id", "=", personId)
    .where((eb) => whereListablePhotos(eb, access))
    .groupBy("photos.id")
    .orderBy("photos.sort_at", "desc")
    .orderBy("photos.id", "desc")
    .limit(limit)
    .execute();
}

/**
 * Other owners' named, shown people in the photos `photos` may list, each with how many of those
 * photos they are in (members see people: people-access.ts); one of them when `personId` is given.
 */
export function listOthersNamedPeople(db: DatabaseHandle, userId: string, photos: PhotoListAccess, personId?: string) {
  return db
    .selectFrom("people")
    .innerJoin("faces", "faces.person_id", "people.id")
    .innerJoin("photos", "photos.id", "faces.photo_id")
    .select((eb) => [
      "people.id",
      "people.name",
      "people.is_hidden",
      "people.cover_face_id",
      eb.fn.count<string | number>("photos.id").distinct().as("photo_count"),
    ])
    .where("people.owner_id", "!=", userId)
    .where("people.name", "is not", null)
    .where("people.is_hidden", "=", 0)
    .$if(personId !== undefined, (query) => query.where("people.id", "=", personId ?? ""))
    .where((eb) => whereListablePhotos(eb, photos))
    .groupBy(["people.id", "people.name", "people.is_hidden", "people.cover_face_id"])
    .orderBy("people.name")
    .orderBy("people.id")
    .execute();
}

/** The named people `access` may see, for `person:` search and its suggestions (nobody's: no query at all). */
export async function listVisibleNamedPeople(db: DatabaseHandle, access: PeopleAccess): Promise<Array<{ id: string; name: string; isHidden: boolean }>> {
  if (access.kind === "nobody") return [];
  return db
    .selectFrom("people")
    .select(["people.id", "people.name", "people.is_hidden"])
    .where("people.name", "is not", null)
    .where((eb) => whereVisiblePeople(eb, access))
    .execute()
    // Ordered here, not in SQL: the rows are few, and a sort in the statement would need a temporary B-tree.
    .then((rows) => rows.map((row) => ({ id: row.id, name: row.name ?? "", isHidden: row.is_hidden === 1 })).sort((a, b) => a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1)));
}

export async function deleteFace(db: DatabaseHandle, faceId: string): Promise<void> {
  await db.deleteFrom("faces").where("id", "=", faceId).execute();
}
