import type { DatabaseHandle } from "@/src/db/client";
import { DETECT_FACES_JOB } from "./face-job-kinds";
import { takesRowLocks } from "./face-settings";

// SQL for each user's answer to people's consent text, and for taking back what was found in their
// photos when they say no. No rules here: the service decides whose answer it writes.

// An answer "agreed" counts only for the words it was given to: every "has X agreed?" here takes
// the version of the text asked now (consentTextVersion) and compares it with the one stored.

export function findFaceConsent(db: DatabaseHandle, userId: string) {
  return db.selectFrom("face_consents").select(["agreed", "decided_at", "text_sha256"]).where("user_id", "=", userId).executeTakeFirst();
}

/** The user's answer to the text of version `textVersion`. */
export async function upsertFaceConsent(db: DatabaseHandle, userId: string, agreed: boolean, textVersion: string, now: string): Promise<void> {
  const answer = { agreed: agreed ? 1 : 0, decided_at: now, text_sha256: textVersion };
  await db
    .insertInto("face_consents")
    .values({ user_id: userId, ...answer })
    .onConflict((conflict) => conflict.column("user_id").doUpdateSet(answer))
    .execute();
}

/**
 * "Has this owner agreed to the text of version `textVersion`?" inside a transaction that is about
 * to store faces, holding their row until it commits (PostgreSQL: FOR UPDATE), so a "no" written at
 * the same moment either waits and then deletes what was stored, or committed first and is read
 * here. SQLite runs one write transaction at a time, so there the plain read is enough.
 */
export async function hasOwnerAgreed(db: DatabaseHandle, ownerId: string, textVersion: string): Promise<boolean> {
  const row = await db
    .selectFrom("face_consents")
    .select(["agreed", "text_sha256"])
    .where("user_id", "=", ownerId)
    .$call((query) => (takesRowLocks(db) && db.isTransaction ? query.forUpdate() : query))
    .executeTakeFirst();
  return row?.agreed === 1 && row.text_sha256 === textVersion;
}

/** Whether the owner of this photo agreed to the text of version `textVersion` (no photo: no). */
export async function hasPhotoOwnerAgreed(db: DatabaseHandle, photoId: string, textVersion: string): Promise<boolean> {
  const row = await db
    .selectFrom("photos")
    .innerJoin("face_consents", "face_consents.user_id", "photos.owner_id")
    .select("face_consents.agreed")
    .where("photos.id", "=", photoId)
    .where("face_consents.text_sha256", "=", textVersion)
    .executeTakeFirst();
  return row?.agreed === 1;
}

/**
 * A user said no: every face detection found in their photos (and so every descriptor; the
 * database marks their people's centroids stale), the record of which of their photos were looked
 * at, and their queued detection jobs. Faces drawn by hand stay. Answers how many faces went.
 */
export async function deleteOwnerDetectedFaces(db: DatabaseHandle, ownerId: string): Promise<number> {
  const ownPhotos = db.selectFrom("photos").select("photos.id").where("photos.owner_id", "=", ownerId);
  const result = await db.deleteFrom("faces").where("source", "=", "detected").where("photo_id", "in", ownPhotos).executeTakeFirst();
  await db.deleteFrom("photo_face_scans").where("photo_id", "in", ownPhotos).execute();
  await db.deleteFrom("jobs").where("kind", "=", DETECT_FACES_JOB).where("photo_id", "in", ownPhotos).execute();
  return Number(result.numDeletedRows);
}

/** Whether a backfill is waiting to run (one is enough: it walks every unscanned photo of everyone who agreed). */
export async function hasQueuedJob(db: DatabaseHandle, kind: string): Promise<boolean> {
  return Boolean(await db.selectFrom("jobs").select("id").where("kind", "=", kind).where("status", "=", "queued").executeTakeFirst());
}
