import "server-only";
import { hasRole } from "@/src/access/roles";
import { type SessionUser, toViewer } from "@/src/access/viewer";
import { findAlbumById, listAlbumPhotoPage, sortKeyOf, type AlbumPosition } from "@/src/albums/albums.repository";
import { insertAuditEntry } from "@/src/audit/audit.repository";
import { getEnv } from "@/src/config/env";
import type { DatabaseHandle } from "@/src/db/client";
import type { ShareUpdate } from "@/src/db/database";
import { decodeKeysetCursor, encodeKeysetCursor } from "@/src/db/keyset-cursor";
import { inTransaction } from "@/src/db/transaction";
import { AppError } from "@/src/errors/app-error";
import { inChunks } from "@/src/photos/bulk-selection";
import { findPhotosForChange } from "@/src/photos/library.repository";
import { editablePhotosAccessOf } from "@/src/photos/listable-photos";
import { canEditPhoto, canViewPhoto } from "@/src/photos/photo-access";
import { hashPassword } from "@/src/users/password";
import { findUserById } from "@/src/users/users.repository";
import { newShareKey, sharePath } from "./share-key";
import {
  countSharePhotosOf,
  deleteSharePhotos,
  deleteShareRow,
  findShareWithOwner,
  insertShareRow,
  listShareAccessLogRows,
  listShareRows,
  type ShareWithOwner,
  updateShareRow,
  updateShareRowBumpingGrant,
} from "./share-links.repository";
import { insertSharePhotos } from "./share-photos.repository";
import { shareState } from "./share-state";
import { DEFAULT_SHARE_EXPIRY_DAYS, type ShareAccessEvent } from "./share.types";
import type { CreateShareInput, UpdateShareInput } from "./shares-api.schemas";
import { MAX_SHARE_PHOTOS, type ShareAccessLogEntry, type ShareSummary } from "./shares-owner.types";

// The owner's side of share links: making, listing, editing, revoking and deleting them, and
// reading their access logs. An editor manages their own links, an admin everyone's; anyone else's
// link is a 404 for every verb, as if it did not exist. A share never changes a photo's visibility:
// it opens its own fixed set of photos (share_photos) through its own gate (share-access.ts).

const DAY_MS = 24 * 60 * 60 * 1000;
const NOT_FOUND_MESSAGE = "No share link has that id.";

function requireEditor(user: SessionUser): void {
  if (!hasRole(user.role, "editor")) throw new AppError("FORBIDDEN", "Only editors and admins make share links.");
}

/** The full link to give visitors: the site's origin (NEXTAUTH_URL) and /s/{key}. */
export function shareUrl(key: string): string {
  return `${new URL(getEnv().NEXTAUTH_URL).origin}${sharePath(key)}`;
}

function toSummary(row: ShareWithOwner, photoCount: number, now: Date): ShareSummary {
  return {
    id: row.id,
    url: shareUrl(row.key),
    title: row.title,
    message: row.message,
    albumId: row.album_id,
    owner: { id: row.owner_id, name: row.owner_name },
    state: shareState(row, now),
    photoCount,
    views: row.view_count,
    maxViews: row.max_views,
    downloads: row.download_count,
    lastVisitedAt: row.last_visited_at,
    expiresAt: row.expires_at,
    hasPassword: row.password_hash !== null,
    download: row.download,
    allowZip: row.allow_zip === 1,
    showExif: row.show_exif === 1,
    showLocation: row.show_location === 1,
    allowPicks: row.allow_picks === 1,
    pickLimit: row.pick_limit,
    selectionLockedAt: row.selection_locked_at,
    revokedAt: row.revoked_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

async function summarise(db: DatabaseHandle, rows: ShareWithOwner[], now: Date): Promise<ShareSummary[]> {
  const counts = await countSharePhotosOf(db, rows.map((row) => row.id));
  return rows.map((row) => toSummary(row, counts.get(row.id) ?? 0, now));
}

/** The share when this user may manage it (its owner, or an admin); 404 otherwise, the same as when there is none. */
async function getManageableShare(db: DatabaseHandle, user: SessionUser, id: string): Promise<ShareWithOwner> {
  requireEditor(user);
  const share = await findShareWithOwner(db, id);
  if (!share || (share.owner_id !== user.id && user.role !== "admin")) throw new AppError("NOT_FOUND", NOT_FOUND_MESSAGE);
  return share;
}

function checkExpiry(expiresAt: string | null | undefined, now: Date): void {
  if (expiresAt && Date.parse(expiresAt) <= now.getTime()) throw new AppError("INVALID_INPUT", "The expiry must be in the future (or choose \"never\").");
}

/**
 * The album's photos this user may edit (an editor's own, every one for an admin), not trashed,
 * in the album's order: the snapshot a share made from it holds. 404 when the album is not one
 * they may see; 422 when none of its photos are theirs to share or there are too many.
 */
async function snapshotAlbum(db: DatabaseHandle, user: SessionUser, albumId: string): Promise<{ title: string; photoIds: string[] }> {
  const album = await findAlbumById(db, albumId);
  if (!album || !canViewPhoto(toViewer(user), album)) throw new AppError("NOT_FOUND", "No album has that id.");
  const access = editablePhotosAccessOf(user);
  const photoIds: string[] = [];
  let after: AlbumPosition | undefined;
  for (;;) {
    const page = await listAlbumPhotoPage(db, { albumId, sort: album.sort, access, after, limit: 500 });
    photoIds.push(...page.map((row) => row.id));
    if (photoIds.length > MAX_SHARE_PHOTOS) throw new AppError("INVALID_INPUT", `A share holds at most ${MAX_SHARE_PHOTOS} photos; this album has more.`);
    if (page.length < 500) break;
    const last = page[page.length - 1];
    after = { key: sortKeyOf(last, album.sort), photoId: last.id };
  }
  if (photoIds.length === 0) throw new AppError("INVALID_INPUT", "This album has no photos you may share.");
  return { title: album.title, photoIds };
}

/** The given photos this user may edit, in the order given, duplicates, trashed and unknown ids dropped; 422 when none are left. */
async function editablePhotoIds(db: DatabaseHandle, user: SessionUser, ids: string[]): Promise<string[]> {
  const viewer = toViewer(user);
  const unique = [...new Set(ids)];
  const rows = (await Promise.all(inChunks(unique).map((chunk) => findPhotosForChange(db, chunk)))).flat();
  const editable = new Set(rows.filter((row) => canEditPhoto(viewer, row)).map((row) => row.id));
  const kept = unique.filter((id) => editable.has(id));
  if (kept.length === 0) throw new AppError("INVALID_INPUT", "None of these photos are yours to share.");
  return kept;
}

/** The switch columns an input sets (only those it names). */
function settingColumns(input: CreateShareInput | UpdateShareInput): ShareUpdate {
  const columns: ShareUpdate = {};
  if (input.title !== undefined) columns.title = input.title;
  if (input.message !== undefined) columns.message = input.message;
  if (input.expiresAt !== undefined) columns.expires_at = input.expiresAt === null ? null : new Date(input.expiresAt).toISOString();
  if (input.maxViews !== undefined) columns.max_views = input.maxViews;
  if (input.download !== undefined) columns.download = input.download;
  if (input.allowZip !== undefined) columns.allow_zip = input.allowZip ? 1 : 0;
  if (input.showExif !== undefined) columns.show_exif = input.showExif ? 1 : 0;
  if (input.showLocation !== undefined) columns.show_location = input.showLocation ? 1 : 0;
  if (input.allowPicks !== undefined) columns.allow_picks = input.allowPicks ? 1 : 0;
  if (input.pickLimit !== undefined) columns.pick_limit = input.pickLimit;
  return columns;
}

/** What an audit row says about a share: its settings, never its key or password hash. */
function auditView(share: ShareSummary): Record<string, unknown> {
  const { title, message, albumId, state, maxViews, expiresAt, hasPassword, download, allowZip, showExif, showLocation, allowPicks, pickLimit, revokedAt } = share;
  return { title, message, albumId, state, maxViews, expiresAt, hasPassword, download, allowZip, showExif, showLocation, allowPicks, pickLimit, revokedAt };
}

function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const changed = Object.keys(after).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
  return { before: Object.fromEntries(changed.map((key) => [key, before[key]])), after: Object.fromEntries(changed.map((key) => [key, after[key]])) };
}

/**
 * Makes a share link from an album (a snapshot of its photos this user may edit) or from photo ids
 * (those this user may edit). The link, its photos and its audit row are one transaction.
 */
export async function createShare(db: DatabaseHandle, user: SessionUser, input: CreateShareInput, now = new Date()): Promise<ShareSummary> {
  requireEditor(user);
  checkExpiry(input.expiresAt, now);
  // Hashing takes a moment: before the transaction, not inside it.
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  const id = crypto.randomUUID();
  const at = now.toISOString();
  await inTransaction(db, async (transaction) => {
    const source =
      input.albumId !== undefined
        ? await snapshotAlbum(transaction, user, input.albumId)
        : { title: null, photoIds: await editablePhotoIds(transaction, user, input.photoIds ?? []) };
    const title = input.title ?? source.title ?? (source.photoIds.length === 1 ? "A shared photo" : `${source.photoIds.length} shared photos`);
    await insertShareRow(transaction, {
      id,
      key: newShareKey(),
      owner_id: user.id,
      title,
      album_id: input.albumId ?? null,
      password_hash: passwordHash,
      expires_at: new Date(now.getTime() + DEFAULT_SHARE_EXPIRY_DAYS * DAY_MS).toISOString(),
      ...settingColumns({ ...input, title }),
      created_at: at,
      updated_at: at,
    });
    await insertSharePhotos(transaction, id, source.photoIds);
    const share = await findShareWithOwner(transaction, id);
    const summary = toSummary(share as ShareWithOwner, source.photoIds.length, now);
    await insertAuditEntry(transaction, { actorId: user.id, action: "share.create", targetId: id, targetType: "share", details: { after: { ...auditView(summary), photoCount: source.photoIds.length } } }, at);
  });
  return getShare(db, user, id, now);
}

/** A page of the links this user manages, newest first: an editor's own, every one for an admin. */
export async function listShares(db: DatabaseHandle, user: SessionUser, page: { cursor?: string; limit: number }, now = new Date()): Promise<{ shares: ShareSummary[]; nextCursor: string | null }> {
  requireEditor(user);
  let after: { createdAt: string; id: string } | undefined;
  if (page.cursor !== undefined) {
    const [createdAt, id] = decodeKeysetCursor(page.cursor, 2);
    after = { createdAt, id };
  }
  const rows = await listShareRows(db, { ownerId: user.role === "admin" ? null : user.id, after, limit: page.limit + 1 });
  const shown = rows.slice(0, page.limit);
  const last = shown[shown.length - 1];
  return { shares: await summarise(db, shown, now), nextCursor: rows.length > page.limit && last ? encodeKeysetCursor(last.created_at, last.id) : null };
}

export async function getShare(db: DatabaseHandle, user: SessionUser, id: string, now = new Date()): Promise<ShareSummary> {
  const share = await getManageableShare(db, user, id);
  const [summary] = await summarise(db, [share], now);
  return summary;
}

/**
 * Changes a link. Setting or changing the password bumps its grant version (every visitor admitted
 * before must enter the new one); removing it does not. `revoked: true` is final. One audit row.
 */
export async function updateShare(db: DatabaseHandle, user: SessionUser, id: string, input: UpdateShareInput, now = new Date()): Promise<ShareSummary> {
  await getManageableShare(db, user, id);
  checkExpiry(input.expiresAt, now);
  const passwordHash = typeof input.password === "string" ? await hashPassword(input.password) : input.password;
  const at = now.toISOString();
  await inTransaction(db, async (transaction) => {
    // Read again inside the transaction: the change and its audit row describe the same row.
    const share = await getManageableShare(transaction, user, id);
    const before = toSummary(share, 0, now);
    const changes: ShareUpdate = { ...settingColumns(input), updated_at: at };
    if (passwordHash !== undefined) changes.password_hash = passwordHash;
    if (input.revoked && share.revoked_at === null) changes.revoked_at = at;
    let photoCount: number | undefined;
    if (input.refreshFromAlbum) {
      if (share.album_id === null) throw new AppError("INVALID_INPUT", "This link was not made from an album (or the album was deleted).");
      // With the link owner's rights, not the caller's: an admin refreshing an editor's link must not
      // add other people's photos to it.
      const owner = await findUserById(transaction, share.owner_id);
      if (!owner) throw new AppError("NOT_FOUND", "No share link has that id.");
      const { photoIds } = await snapshotAlbum(transaction, { id: owner.id, email: owner.email, name: owner.name, role: owner.role }, share.album_id);
      await deleteSharePhotos(transaction, id);
      await insertSharePhotos(transaction, id, photoIds);
      photoCount = photoIds.length;
    }
    if (typeof passwordHash === "string") await updateShareRowBumpingGrant(transaction, id, changes);
    else await updateShareRow(transaction, id, changes);
    const after = toSummary((await findShareWithOwner(transaction, id)) as ShareWithOwner, 0, now);
    const details = changedFields(auditView(before), auditView(after));
    if (typeof passwordHash === "string") details.after.passwordChanged = true;
    if (photoCount !== undefined) details.after.photoCount = photoCount;
    const action = changes.revoked_at ? "share.revoke" : "share.update";
    await insertAuditEntry(transaction, { actorId: user.id, action, targetId: id, targetType: "share", details }, at);
  });
  return getShare(db, user, id, now);
}

/** Deletes a link with its photo set, visitors, picks and access log (the photos stay). */
export async function deleteShare(db: DatabaseHandle, user: SessionUser, id: string, now = new Date()): Promise<void> {
  await getManageableShare(db, user, id);
  await inTransaction(db, async (transaction) => {
    const share = await getManageableShare(transaction, user, id);
    await deleteShareRow(transaction, id);
    const before = { ...auditView(toSummary(share, 0, now)) };
    await insertAuditEntry(transaction, { actorId: user.id, action: "share.delete", targetId: id, targetType: "share", details: { before } }, now.toISOString());
  });
}

/** A page of a link's access log, newest first. Addresses older than 30 days are only hashes and are not shown. */
export async function listShareAccessLog(
  db: DatabaseHandle,
  user: SessionUser,
  id: string,
  page: { cursor?: string; limit: number },
): Promise<{ entries: ShareAccessLogEntry[]; nextCursor: string | null }> {
  await getManageableShare(db, user, id);
  let after: { createdAt: string; id: string } | undefined;
  if (page.cursor !== undefined) {
    const [createdAt, entryId] = decodeKeysetCursor(page.cursor, 2);
    after = { createdAt, id: entryId };
  }
  const rows = await listShareAccessLogRows(db, { shareId: id, after, limit: page.limit + 1 });
  const shown = rows.slice(0, page.limit);
  const last = shown[shown.length - 1];
  return {
    entries: shown.map((row) => ({
      id: row.id,
      createdAt: row.created_at,
      event: row.event as ShareAccessEvent,
      photoId: row.photo_id,
      photoTitle: row.photo_id === null ? null : (row.photo_title ?? null),
      address: row.address_is_hashed === 1 ? null : row.address,
      addressHashed: row.address_is_hashed === 1,
      userAgent: row.user_agent,
    })),
    nextCursor: rows.length > page.limit && last ? encodeKeysetCursor(last.created_at, last.id) : null,
  };
}
