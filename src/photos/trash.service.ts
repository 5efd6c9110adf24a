import "server-only";
import type { Transaction } from "kysely";
import { type SessionUser, toViewer } from "@/src/access/viewer";
import { insertAuditEntry } from "@/src/audit/audit.repository";
import type { DatabaseHandle } from "@/src/db/client";
import { decodeKeysetCursor, encodeKeysetCursor } from "@/src/db/keyset-cursor";
import type { Database } from "@/src/db/database";
import { AppError } from "@/src/errors/app-error";
import { getLogger } from "@/src/log/logger";
import { getSiteSettings } from "@/src/settings/site-settings.service";
import { assertMayManagePhotos, type ChangeablePhoto, countPhotos, inChunks, libraryScopeOf } from "./bulk-selection";
import type { TrashedPhoto } from "./bulk.schemas";
import { canEditPhoto } from "./photo-access";
import { onPhotoAccessChanged, removePhotos, withdrawPublications } from "./photo-lifecycle";
import { toMediaUrl } from "./photo-publication";
import { listVariants } from "./photos.repository";
import { findTrashedPhotos, listTrashedIdsBefore, listTrashedPhotos, setPhotosTrashedAt } from "./trash.repository";

// The trash: a photo moved there is hidden from everyone everywhere (lists, pages, media, counts)
// but keeps its row and files, so it can be restored as it was, until it is emptied or the
// retention (site setting trashRetentionDays) runs out and the purge job deletes it for good.

const DAY_MS = 86_400_000;
/** Later than any trashed_at: "everything in the trash". */
const END_OF_TIME = "9999-12-31T23:59:59.999Z";
/** How many photos one removal (one transaction, one audit row) takes when the trash is emptied. */
const REMOVAL_BATCH = 500;

/**
 * Moves the photos `select` picks (in the transaction) to the trash: one transaction with one
 * "photo.trash" audit row. A public photo stops being served at once: its publication is withdrawn
 * as when it stops being public, so its URLs die for good and every instance drops cached copies.
 * Answers the ids that moved. `db` opens the transaction, so it must not be a transaction itself.
 */
export async function moveToTrash(
  db: DatabaseHandle,
  actor: SessionUser,
  select: (transaction: Transaction<Database>) => Promise<ChangeablePhoto[]>,
): Promise<string[]> {
  const now = new Date().toISOString();
  const { ids, withdrawnUrls } = await db.transaction().execute(async (transaction) => {
    const photos = await select(transaction);
    const photoIds = photos.map((photo) => photo.id);
    for (const chunk of inChunks(photoIds)) await setPhotosTrashedAt(transaction, chunk, now, now);
    const urls = await withdrawPublications(transaction, photos.filter((photo) => photo.visibility === "public"));
    if (photoIds.length > 0) {
      await insertAuditEntry(
        transaction,
        {
          actorId: actor.id,
          action: "photo.trash",
          targetId: photoIds.length === 1 ? photoIds[0] : null,
          details: { photoIds, before: { trashedAt: null }, after: { trashedAt: now } },
        },
        now,
      );
    }
    return { ids: photoIds, withdrawnUrls: urls };
  });
  if (ids.length > 0) onPhotoAccessChanged(ids, withdrawnUrls);
  return ids;
}

function encodeTrashCursor(row: { trashed_at: string | null; id: string }): string {
  return encodeKeysetCursor(row.trashed_at ?? "", row.id);
}

function decodeTrashCursor(cursor: string): { trashedAt: string; id: string } {
  const [trashedAt, id] = decodeKeysetCursor(cursor, 2);
  return { trashedAt, id };
}

/** The actor's trash (an admin's: everyone's), most recently trashed first, with when each expires. */
export async function listTrash(
  db: DatabaseHandle,
  actor: SessionUser,
  query: { cursor?: string; limit: number },
): Promise<{ photos: TrashedPhoto[]; nextCursor: string | null; retentionDays: number }> {
  assertMayManagePhotos(actor);
  const { ownerId } = libraryScopeOf(actor);
  const rows = await listTrashedPhotos(db, ownerId, { after: query.cursor ? decodeTrashCursor(query.cursor) : undefined, limit: query.limit + 1 });
  const page = rows.slice(0, query.limit);
  const [variants, settings] = await Promise.all([listVariants(db, page.map((row) => row.id)), getSiteSettings(db)]);
  const photos = page.map((row) => {
    const smallest = variants.find((variant) => variant.photo_id === row.id && (variant.format === "webp" || variant.format === "jpeg"));
    const trashedAt = row.trashed_at as string;
    return {
      id: row.id,
      title: row.title,
      altText: row.alt_text,
      originalName: row.original_name,
      visibility: row.visibility,
      thumbnailUrl: smallest ? toMediaUrl(row.publication_key, smallest.storage_key) : null,
      trashedAt,
      expiresAt: new Date(Date.parse(trashedAt) + settings.trashRetentionDays * DAY_MS).toISOString(),
    };
  });
  return { photos, nextCursor: rows.length > query.limit ? encodeTrashCursor(page[page.length - 1]) : null, retentionDays: settings.trashRetentionDays };
}

/** These trashed photos, every one the actor's to change, or 404 for the whole request. */
async function findRestorable(db: DatabaseHandle, actor: SessionUser, photoIds: string[]) {
  const viewer = toViewer(actor);
  const ids = [...new Set(photoIds)];
  const rows = (await Promise.all(inChunks(ids).map((chunk) => findTrashedPhotos(db, chunk)))).flat();
  const found = new Map(rows.map((row) => [row.id, row]));
  const missing = ids.find((id) => {
    const row = found.get(id);
    return !row || !canEditPhoto(viewer, row);
  });
  if (missing !== undefined) throw new AppError("NOT_FOUND", `No photo of yours in the trash has the id ${missing}; nothing was changed.`);
  return ids;
}

/**
 * Brings photos back from the trash, as they were (visibility and all; a public one has a new
 * publication key, given when it was trashed). One transaction, one "photo.restore" audit row.
 */
export async function restoreFromTrash(db: DatabaseHandle, actor: SessionUser, photoIds: string[]): Promise<{ count: number; message: string }> {
  assertMayManagePhotos(actor);
  const now = new Date().toISOString();
  const ids = await db.transaction().execute(async (transaction) => {
    const restorable = await findRestorable(transaction, actor, photoIds);
    for (const chunk of inChunks(restorable)) await setPhotosTrashedAt(transaction, chunk, null, now);
    await insertAuditEntry(
      transaction,
      { actorId: actor.id, action: "photo.restore", targetId: restorable.length === 1 ? restorable[0] : null, details: { photoIds: restorable, before: { trashed: true }, after: { trashed: false } } },
      now,
    );
    return restorable;
  });
  onPhotoAccessChanged(ids);
  return { count: ids.length, message: `${countPhotos(ids.length)} restored` };
}

/** Deletes trashed photos for good, rows and audit row together, files after the commit. */
async function purge(db: DatabaseHandle, actorId: string | null, photoIds: string[], trashedBefore: string, reason: "emptied" | "expired"): Promise<number> {
  const removed = await removePhotos(db, { photoIds, trashedBefore }, async (transaction, photos) => {
    if (photos.length === 0) return;
    await insertAuditEntry(
      transaction,
      {
        actorId,
        action: "photo.purge",
        targetId: photos.length === 1 ? photos[0].id : null,
        details: { reason, photoIds: photos.map((photo) => photo.id), before: { trashed: true }, after: { deleted: true } },
      },
      new Date().toISOString(),
    );
  });
  return removed.length;
}

/**
 * Empties the actor's trash (an admin's: everyone's), or only these photos of it, for good: rows
 * first, files once that has committed. `db` must not be a transaction.
 */
export async function emptyTrash(db: DatabaseHandle, actor: SessionUser, photoIds?: string[]): Promise<{ count: number; message: string }> {
  assertMayManagePhotos(actor);
  let count = 0;
  if (photoIds !== undefined) {
    count = await purge(db, actor.id, await findRestorable(db, actor, photoIds), END_OF_TIME, "emptied");
  } else {
    for (;;) {
      const batch = await listTrashedIdsBefore(db, libraryScopeOf(actor).ownerId, END_OF_TIME, REMOVAL_BATCH);
      if (batch.length === 0) break;
      count += await purge(db, actor.id, batch, END_OF_TIME, "emptied");
      if (batch.length < REMOVAL_BATCH) break;
    }
  }
  return { count, message: `${countPhotos(count)} deleted for good` };
}

/**
 * The purge job's work: deletes the photos that have been in the trash longer than the site's
 * retention, with their files, in batches. Photos restored meanwhile stay (each removal checks
 * trashed_at again in its transaction). Answers how many went.
 */
export async function purgeExpiredTrash(db: DatabaseHandle, now = new Date()): Promise<number> {
  const { trashRetentionDays } = await getSiteSettings(db);
  const before = new Date(now.getTime() - trashRetentionDays * DAY_MS).toISOString();
  let count = 0;
  for (;;) {
    const batch = await listTrashedIdsBefore(db, null, before, REMOVAL_BATCH);
    if (batch.length === 0) break;
    const removed = await purge(db, null, batch, before, "expired");
    count += removed;
    if (batch.length < REMOVAL_BATCH || removed === 0) break;
  }
  if (count > 0) getLogger().info({ count, retentionDays: trashRetentionDays }, "purged expired photos from the trash");
  return count;
}
