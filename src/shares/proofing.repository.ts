import "server-only";
import type { DatabaseHandle } from "@/src/db/client";
import type { ShareFeedbackRow, ShareVisitorRow } from "@/src/db/database";
import { SHARE_LINK_ACCESS, whereListablePhotos } from "@/src/photos/listable-photos";

// Proofing: a link's named visitors, their picks and comments. One statement per function; the
// rules (who, limits, the lock) are in proofing.service.ts. Every read of feedback joins the photo
// and the share's photo set, so a photo trashed, deleted or taken out of the share drops out of
// counts, lists and exports at once.

export function insertShareVisitor(db: DatabaseHandle, row: ShareVisitorRow): Promise<unknown> {
  return db.insertInto("share_visitors").values(row).execute();
}

/** The visitor of this share whose cookie token hashes to this; a token of another link is nobody. */
export function findShareVisitorByTokenHash(db: DatabaseHandle, shareId: string, tokenHash: string): Promise<ShareVisitorRow | undefined> {
  return db.selectFrom("share_visitors").selectAll().where("token_hash", "=", tokenHash).where("share_id", "=", shareId).executeTakeFirst();
}

export async function markShareVisitorSent(db: DatabaseHandle, visitorId: string, now: string): Promise<void> {
  await db.updateTable("share_visitors").set({ sent_at: now, updated_at: now }).where("id", "=", visitorId).execute();
}

export async function touchShareVisitor(db: DatabaseHandle, visitorId: string, now: string): Promise<void> {
  await db.updateTable("share_visitors").set({ updated_at: now }).where("id", "=", visitorId).execute();
}

export function findShareFeedback(db: DatabaseHandle, visitorId: string, photoId: string): Promise<ShareFeedbackRow | undefined> {
  return db.selectFrom("share_feedback").selectAll().where("visitor_id", "=", visitorId).where("photo_id", "=", photoId).executeTakeFirst();
}

/** Writes one visitor's pick and comment on one photo (insert or replace). */
export async function upsertShareFeedback(db: DatabaseHandle, row: ShareFeedbackRow): Promise<void> {
  await db
    .insertInto("share_feedback")
    .values(row)
    .onConflict((conflict) => conflict.columns(["visitor_id", "photo_id"]).doUpdateSet({ is_picked: row.is_picked, comment: row.comment, updated_at: row.updated_at }))
    .execute();
}

export async function deleteShareFeedback(db: DatabaseHandle, visitorId: string, photoId: string): Promise<void> {
  await db.deleteFrom("share_feedback").where("visitor_id", "=", visitorId).where("photo_id", "=", photoId).execute();
}

/** Feedback rows whose photo the share still opens (ready, not trashed, still in share_photos). */
function liveFeedback(db: DatabaseHandle) {
  return db
    .selectFrom("share_feedback")
    .innerJoin("share_photos", (join) => join.onRef("share_photos.share_id", "=", "share_feedback.share_id").onRef("share_photos.photo_id", "=", "share_feedback.photo_id"))
    .innerJoin("photos", "photos.id", "share_feedback.photo_id")
    .where((eb) => whereListablePhotos(eb, SHARE_LINK_ACCESS));
}

/** How many photos this visitor has picked that the share still opens. */
export async function countVisitorPicks(db: DatabaseHandle, visitorId: string): Promise<number> {
  const row = await liveFeedback(db)
    .where("share_feedback.visitor_id", "=", visitorId)
    .where("share_feedback.is_picked", "=", 1)
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * One visitor's picks and comments, in the share's order (a visitor sees only their own). Read
 * through the feedback's primary key (visitor_id first) and each row's photo by its key; at most
 * one row per photo of the share, put in order here rather than by a sort in the database.
 */
export async function listVisitorFeedback(db: DatabaseHandle, visitorId: string): Promise<Array<{ photoId: string; isPicked: number; comment: string | null }>> {
  const rows = await liveFeedback(db)
    .where("share_feedback.visitor_id", "=", visitorId)
    .select(["share_feedback.photo_id as photoId", "share_feedback.is_picked as isPicked", "share_feedback.comment", "share_photos.position"])
    .execute();
  return rows.sort((left, right) => left.position - right.position).map(({ photoId, isPicked, comment }) => ({ photoId, isPicked, comment }));
}

export function listShareVisitors(db: DatabaseHandle, shareId: string): Promise<ShareVisitorRow[]> {
  return db.selectFrom("share_visitors").selectAll().where("share_id", "=", shareId).orderBy("created_at").orderBy("id").execute();
}

export interface OwnerFeedbackRow {
  visitorId: string;
  photoId: string;
  isPicked: number;
  comment: string | null;
  title: string;
  altText: string;
  takenAt: string | null;
  originalName: string;
  publicationKey: string;
  position: number;
}

/** Every visitor's picks and comments on a share, for its owner, in the share's order. */
export function listShareFeedbackForOwner(db: DatabaseHandle, shareId: string): Promise<OwnerFeedbackRow[]> {
  return liveFeedback(db)
    .where("share_feedback.share_id", "=", shareId)
    .select([
      "share_feedback.visitor_id as visitorId",
      "share_feedback.photo_id as photoId",
      "share_feedback.is_picked as isPicked",
      "share_feedback.comment",
      "photos.title",
      "photos.alt_text as altText",
      "photos.taken_at as takenAt",
      "photos.original_name as originalName",
      "photos.publication_key as publicationKey",
      "share_photos.position",
    ])
    .orderBy("share_photos.position")
    .orderBy("share_feedback.visitor_id")
    .execute();
}

/** The owner has seen every selection sent so far. */
export async function markShareSelectionsSeen(db: DatabaseHandle, shareId: string, now: string): Promise<number> {
  const result = await db
    .updateTable("share_visitors")
    .set({ owner_seen_at: now })
    .where("share_id", "=", shareId)
    .where("sent_at", "is not", null)
    .where((eb) => eb.or([eb("owner_seen_at", "is", null), eb("owner_seen_at", "<", eb.ref("sent_at"))]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function setShareSelectionLock(db: DatabaseHandle, shareId: string, lockedAt: string | null, now: string): Promise<void> {
  await db.updateTable("shares").set({ selection_locked_at: lockedAt, updated_at: now }).where("id", "=", shareId).execute();
}

export interface NewSelectionRow {
  shareId: string;
  shareTitle: string;
  visitorId: string;
  visitorName: string;
  sentAt: string;
}

/** Selections sent since their share's owner last looked (the owner's shares, or every share for `ownerId` null). */
export function listNewSelections(db: DatabaseHandle, ownerId: string | null, limit: number): Promise<NewSelectionRow[]> {
  let query = db
    .selectFrom("share_visitors")
    .innerJoin("shares", "shares.id", "share_visitors.share_id")
    .where("share_visitors.sent_at", "is not", null)
    .where((eb) => eb.or([eb("share_visitors.owner_seen_at", "is", null), eb("share_visitors.owner_seen_at", "<", eb.ref("share_visitors.sent_at"))]));
  if (ownerId !== null) query = query.where("shares.owner_id", "=", ownerId);
  return query
    .select([
      "shares.id as shareId",
      "shares.title as shareTitle",
      "share_visitors.id as visitorId",
      "share_visitors.name as visitorName",
      "share_visitors.sent_at as sentAt",
    ])
    .$narrowType<{ sentAt: string }>()
    .orderBy("share_visitors.sent_at", "desc")
    .limit(limit)
    .execute();
}

/** How many visitors a link has, and how many of them this admitted browser (its visit id) named. */
export async function countShareVisitors(db: DatabaseHandle, shareId: string, visitId: string): Promise<{ onShare: number; ofVisit: number }> {
  const row = await db
    .selectFrom("share_visitors")
    .where("share_id", "=", shareId)
    .select((eb) => [
      eb.fn.countAll<number | string>().as("onShare"),
      eb.fn.sum<number | string | null>(eb.case().when("visit_id", "=", visitId).then(1).else(0).end()).as("ofVisit"),
    ])
    .executeTakeFirstOrThrow();
  return { onShare: Number(row.onShare), ofVisit: Number(row.ofVisit ?? 0) };
}

/** How many photos all visitors of this share together have picked that the share still opens. */
export async function countSharePicks(db: DatabaseHandle, shareId: string): Promise<number> {
  const row = await liveFeedback(db)
    .where("share_feedback.share_id", "=", shareId)
    .where("share_feedback.is_picked", "=", 1)
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
