import "server-only";
import type { Transaction } from "kysely";
import type { SessionUser } from "@/src/access/viewer";
import { insertAuditEntry } from "@/src/audit/audit.repository";
import type { DatabaseHandle } from "@/src/db/client";
import type { Database, PhotoLabel, Visibility } from "@/src/db/database";
import type { BulkPhotosInput, BulkPhotosResult } from "./bulk.schemas";
import { assertMayManagePhotos, type ChangeablePhoto, countPhotos, inChunks, resolveEditablePhotos } from "./bulk-selection";
import { findOwnerNotes, setPhotosOwnerNotes, setPhotosVisibility } from "./library.repository";
import { announcePhotosChanged } from "./photo-changes";
import { onPhotoAccessChanged, withdrawPublications } from "./photo-lifecycle";
import { moveToTrash } from "./trash.service";

// Bulk changes from the library: each request is one transaction (all or nothing) with one audit
// row. A new bulk action (add to / remove from an album, add / remove tags) is one more branch of
// bulkPhotosSchema (bulk.schemas.ts) and one more case in updatePhotosInBulk below, reusing
// resolveEditablePhotos for "these ids or this filter, all editable by the actor, or 404".

const VISIBILITY_WORDS: Record<Visibility, string> = {
  public: "made public",
  unlisted: "made unlisted",
  members: "made members-only",
  private: "made private",
};

function describeVisibilityChange(changes: Array<{ after: { visibility: Visibility } }>, matched: number): string {
  if (changes.length === 0) return `Nothing to change: the ${countPhotos(matched)} already had that visibility`;
  const targets = [...new Set(changes.map((change) => change.after.visibility))];
  if (targets.length === 1) return `${countPhotos(changes.length)} ${VISIBILITY_WORDS[targets[0]]}`;
  return `Visibility of ${countPhotos(changes.length)} changed`;
}

/**
 * Sets visibilities, one transaction: photos leaving "public" get a new publication key (their old
 * URLs die at once), one audit row "photo.bulk-update" with each photo's before and after.
 */
async function changeVisibilities(
  db: DatabaseHandle,
  actor: SessionUser,
  select: (transaction: Transaction<Database>) => Promise<Array<{ photo: ChangeablePhoto; visibility: Visibility }>>,
): Promise<BulkPhotosResult> {
  const now = new Date().toISOString();
  const { matched, changes, withdrawnUrls } = await db.transaction().execute(async (transaction) => {
    const targets = await select(transaction);
    const changing = targets.filter((target) => target.photo.visibility !== target.visibility);
    const byVisibility = new Map<Visibility, string[]>();
    for (const target of changing) byVisibility.set(target.visibility, [...(byVisibility.get(target.visibility) ?? []), target.photo.id]);
    for (const [visibility, ids] of byVisibility) for (const chunk of inChunks(ids)) await setPhotosVisibility(transaction, chunk, visibility, now);
    const leavingPublic = changing.filter((target) => target.photo.visibility === "public").map((target) => target.photo);
    const urls = await withdrawPublications(transaction, leavingPublic);
    const changed = changing.map((target) => ({ id: target.photo.id, before: { visibility: target.photo.visibility }, after: { visibility: target.visibility } }));
    await auditBulkUpdate(transaction, actor, changed, now);
    return { matched: targets.length, changes: changed, withdrawnUrls: urls };
  });
  if (changes.length > 0) onPhotoAccessChanged(changes.map((change) => change.id), withdrawnUrls);
  return {
    action: "visibility",
    matched,
    changed: changes.length,
    message: describeVisibilityChange(changes, matched),
    photoIds: changes.map((change) => change.id),
    photos: changes,
  };
}

/** One audit row for a bulk change, with each changed photo's before and after (none when nothing changed). */
async function auditBulkUpdate(
  transaction: DatabaseHandle,
  actor: SessionUser,
  changes: ReadonlyArray<{ id: string; before: Record<string, unknown>; after: Record<string, unknown> }>,
  now: string,
): Promise<void> {
  if (changes.length === 0) return;
  await insertAuditEntry(
    transaction,
    {
      actorId: actor.id,
      action: "photo.bulk-update",
      targetId: changes.length === 1 ? changes[0].id : null,
      details: {
        before: Object.fromEntries(changes.map((change) => [change.id, change.before])),
        after: Object.fromEntries(changes.map((change) => [change.id, change.after])),
      },
    },
    now,
  );
}

function describeNotesChange(notes: { rating?: number; label?: PhotoLabel | null }, changed: number, matched: number): string {
  if (changed === 0) return `Nothing to change: the ${countPhotos(matched)} already had that`;
  const parts = [
    ...(notes.rating === undefined ? [] : [notes.rating === 0 ? "rating taken off" : `rated ${notes.rating} ${notes.rating === 1 ? "star" : "stars"}`]),
    ...(notes.label === undefined ? [] : [notes.label === null ? "label taken off" : `labelled ${notes.label}`]),
  ];
  return `${countPhotos(changed)}: ${parts.join(", ")}`;
}

/**
 * Sets the owner's rating and/or colour label on every selected photo, one transaction and one
 * audit row with each changed photo's before and after; marked the owner's own, so processing the
 * photo again never reads the file's embedded XMP over them.
 */
async function changeOwnerNotes(
  db: DatabaseHandle,
  actor: SessionUser,
  input: Parameters<typeof resolveEditablePhotos>[2],
  notes: { rating?: number; label?: PhotoLabel | null },
): Promise<BulkPhotosResult> {
  const now = new Date().toISOString();
  const { matched, changed } = await db.transaction().execute(async (transaction) => {
    const targets = await resolveEditablePhotos(transaction, actor, input);
    const current = (await Promise.all(inChunks(targets.map((photo) => photo.id)).map((chunk) => findOwnerNotes(transaction, chunk)))).flat();
    const changing = current.filter((photo) => (notes.rating !== undefined && photo.rating !== notes.rating) || (notes.label !== undefined && photo.label !== notes.label));
    for (const chunk of inChunks(changing.map((photo) => photo.id))) await setPhotosOwnerNotes(transaction, chunk, notes, now);
    const pick = (photo: { rating: number; label: PhotoLabel | null }) => ({ ...(notes.rating !== undefined && { rating: photo.rating }), ...(notes.label !== undefined && { label: photo.label }) });
    const changes = changing.map((photo) => ({
      id: photo.id,
      before: pick(photo),
      after: pick({ rating: notes.rating ?? photo.rating, label: notes.label === undefined ? photo.label : notes.label }),
    }));
    await auditBulkUpdate(transaction, actor, changes, now);
    return { matched: targets.length, changed: changing.map((photo) => photo.id) };
  });
  if (changed.length > 0) announcePhotosChanged(changed);
  return { action: "notes", matched, changed: changed.length, message: describeNotesChange(notes, changed.length, matched), photoIds: changed, photos: [] };
}

/** PATCH /api/photos: one change to many photos, all or nothing (see bulkPhotosSchema). */
export async function updatePhotosInBulk(db: DatabaseHandle, actor: SessionUser, input: BulkPhotosInput): Promise<BulkPhotosResult> {
  assertMayManagePhotos(actor);
  if ("each" in input) {
    const wanted = new Map(input.each.map((item) => [item.id, item.visibility]));
    return changeVisibilities(db, actor, async (transaction) =>
      (await resolveEditablePhotos(transaction, actor, { photoIds: [...wanted.keys()] })).map((photo) => ({ photo, visibility: wanted.get(photo.id) as Visibility })),
    );
  }
  if ("set" in input) {
    const set = input.set;
    if (!("visibility" in set)) return changeOwnerNotes(db, actor, input, set);
    const visibility = set.visibility;
    return changeVisibilities(db, actor, async (transaction) => (await resolveEditablePhotos(transaction, actor, input)).map((photo) => ({ photo, visibility })));
  }
  const trashed = await moveToTrash(db, actor, (transaction) => resolveEditablePhotos(transaction, actor, input));
  return { action: "trash", matched: trashed.length, changed: trashed.length, message: `${countPhotos(trashed.length)} moved to the trash`, photoIds: trashed, photos: [] };
}
