import "server-only";
import type { Transaction } from "kysely";
import type { SessionUser } from "@/src/access/viewer";
import { insertAuditEntry } from "@/src/audit/audit.repository";
import type { DatabaseHandle } from "@/src/db/client";
import type { Database, Visibility } from "@/src/db/database";
import type { BulkPhotosInput, BulkPhotosResult } from "./bulk.schemas";
import { assertMayManagePhotos, type ChangeablePhoto, countPhotos, inChunks, resolveEditablePhotos } from "./bulk-selection";
import { setPhotosVisibility } from "./library.repository";
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
    if (changed.length > 0) {
      await insertAuditEntry(
        transaction,
        {
          actorId: actor.id,
          action: "photo.bulk-update",
          targetId: changed.length === 1 ? changed[0].id : null,
          details: {
            before: Object.fromEntries(changed.map((change) => [change.id, change.before])),
            after: Object.fromEntries(changed.map((change) => [change.id, change.after])),
          },
        },
        now,
      );
    }
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
    const visibility = input.set.visibility;
    return changeVisibilities(db, actor, async (transaction) => (await resolveEditablePhotos(transaction, actor, input)).map((photo) => ({ photo, visibility })));
  }
  const trashed = await moveToTrash(db, actor, (transaction) => resolveEditablePhotos(transaction, actor, input));
  return { action: "trash", matched: trashed.length, changed: trashed.length, message: `${countPhotos(trashed.length)} moved to the trash`, photoIds: trashed, photos: [] };
}
