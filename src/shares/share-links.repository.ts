import "server-only";
import type { DatabaseHandle } from "@/src/db/client";
import type { NewShareRow, ShareAccessLogRow, ShareRow, ShareUpdate } from "@/src/db/database";
import { SHARE_LINK_ACCESS, whereListablePhotos } from "@/src/photos/listable-photos";

// The owner's queries on shares: lists by keyset, counts, changes. No rules: the service decides.

export type ShareWithOwner = ShareRow & { owner_name: string };

export interface SharePosition {
  createdAt: string;
  id: string;
}

/**
 * A page of shares, newest first, by the (created_at, id) keyset: an owner's on the
 * (owner_id, created_at, id) index, everyone's (ownerId null, for admins) on (created_at, id).
 */
export function listShareRows(db: DatabaseHandle, query: { ownerId: string | null; after?: SharePosition; limit: number }): Promise<ShareWithOwner[]> {
  const after = query.after;
  return db
    .selectFrom("shares")
    .innerJoin("users", "users.id", "shares.owner_id")
    .selectAll("shares")
    .select("users.name as owner_name")
    .$if(query.ownerId !== null, (select) => select.where("shares.owner_id", "=", query.ownerId as string))
    .$if(after !== undefined, (select) => select.where((eb) => eb(eb.refTuple("shares.created_at", "shares.id"), "<", eb.tuple(after!.createdAt, after!.id))))
    .orderBy("shares.created_at", "desc")
    .orderBy("shares.id", "desc")
    .limit(query.limit)
    .execute();
}

/** The share with its owner's name (no access rule). */
export function findShareWithOwner(db: DatabaseHandle, id: string): Promise<ShareWithOwner | undefined> {
  return db.selectFrom("shares").innerJoin("users", "users.id", "shares.owner_id").selectAll("shares").select("users.name as owner_name").where("shares.id", "=", id).executeTakeFirst();
}

/** How many photos each share opens now (ready, not trashed). */
export async function countSharePhotosOf(db: DatabaseHandle, shareIds: string[]): Promise<Map<string, number>> {
  if (shareIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("share_photos")
    .innerJoin("photos", "photos.id", "share_photos.photo_id")
    .select((eb) => ["share_photos.share_id", eb.fn.countAll<number | string>().as("count")])
    .where("share_photos.share_id", "in", shareIds)
    .where((eb) => whereListablePhotos(eb, SHARE_LINK_ACCESS))
    .groupBy("share_photos.share_id")
    .execute();
  return new Map(rows.map((row) => [row.share_id, Number(row.count)]));
}

export async function insertShareRow(db: DatabaseHandle, row: NewShareRow): Promise<void> {
  await db.insertInto("shares").values(row).execute();
}

export async function updateShareRow(db: DatabaseHandle, id: string, changes: ShareUpdate): Promise<void> {
  await db.updateTable("shares").set(changes).where("id", "=", id).execute();
}

/** Bumps the grant version (every visitor admitted before must be admitted again) along with other changes. */
export async function updateShareRowBumpingGrant(db: DatabaseHandle, id: string, changes: ShareUpdate): Promise<void> {
  await db
    .updateTable("shares")
    .set((eb) => ({ ...changes, grant_version: eb("grant_version", "+", 1) }))
    .where("id", "=", id)
    .execute();
}

export async function deleteShareRow(db: DatabaseHandle, id: string): Promise<void> {
  await db.deleteFrom("shares").where("id", "=", id).execute();
}

/** Empties a share's photo set (before a new snapshot is inserted). */
export async function deleteSharePhotos(db: DatabaseHandle, shareId: string): Promise<void> {
  await db.deleteFrom("share_photos").where("share_id", "=", shareId).execute();
}

export interface AccessLogPosition {
  createdAt: string;
  id: string;
}

/** A page of a share's access log, newest first, by keyset on (share_id, created_at, id), with each photo's title when it still exists. */
export function listShareAccessLogRows(
  db: DatabaseHandle,
  query: { shareId: string; after?: AccessLogPosition; limit: number },
): Promise<Array<ShareAccessLogRow & { photo_title: string | null }>> {
  const after = query.after;
  return db
    .selectFrom("share_access_log")
    .leftJoin("photos", "photos.id", "share_access_log.photo_id")
    .selectAll("share_access_log")
    .select("photos.title as photo_title")
    .where("share_access_log.share_id", "=", query.shareId)
    .$if(after !== undefined, (select) =>
      select.where((eb) => eb(eb.refTuple("share_access_log.created_at", "share_access_log.id"), "<", eb.tuple(after!.createdAt, after!.id))),
    )
    .orderBy("share_access_log.created_at", "desc")
    .orderBy("share_access_log.id", "desc")
    .limit(query.limit)
    .execute();
}

/** Access-log rows older than `before` whose address is still plain, oldest first (on the (address_is_hashed, created_at) index). */
export function listUnhashedAccessAddresses(db: DatabaseHandle, before: string, limit: number): Promise<Array<{ id: string; address: string | null }>> {
  return db
    .selectFrom("share_access_log")
    .select(["id", "address"])
    .where("address_is_hashed", "=", 0)
    .where("created_at", "<", before)
    .orderBy("created_at")
    .limit(limit)
    .execute();
}

/** Replaces one row's address by its hash. */
export async function setHashedAccessAddress(db: DatabaseHandle, id: string, hashedAddress: string | null): Promise<void> {
  await db.updateTable("share_access_log").set({ address: hashedAddress, address_is_hashed: 1 }).where("id", "=", id).execute();
}
