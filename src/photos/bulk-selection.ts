import "server-only";
import type { Transaction } from "kysely";
import { hasRole } from "@/src/access/roles";
import { type SessionUser, toViewer } from "@/src/access/viewer";
import type { Database, PhotoRow } from "@/src/db/database";
import { AppError } from "@/src/errors/app-error";
import { MAX_BULK_FILTER_MATCHES } from "./bulk.schemas";
import type { LibraryFilter } from "./library-filters";
import { findPhotosForChange, listLibraryPhotoIds } from "./library.repository";
import { canEditPhoto } from "./photo-access";

// What every bulk change (library and trash) shares: who may, which photos, in words.

export type ChangeablePhoto = Pick<PhotoRow, "id" | "owner_id" | "visibility" | "publication_key">;

/** Splits a long list for `IN (…)`: both databases cap how many parameters one statement takes. */
export function inChunks<T>(items: T[], size = 500): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

/** The library an actor manages: their own photos, or an admin's: everyone's. */
export function libraryScopeOf(actor: SessionUser): { ownerId: string | null } {
  return { ownerId: actor.role === "admin" ? null : actor.id };
}

export function assertMayManagePhotos(actor: SessionUser): void {
  if (!hasRole(actor.role, "editor")) throw new AppError("FORBIDDEN", "Only editors and admins manage photos.");
}

/**
 * The photos a bulk request names (by id) or matches (by filter), read in the transaction. Any id
 * that does not exist, is in the trash or is not the actor's to edit answers 404 for the whole
 * request, so nothing changes; a filter only ever matches the actor's own library.
 */
export async function resolveEditablePhotos(
  transaction: Transaction<Database>,
  actor: SessionUser,
  selection: { photoIds?: string[]; filter?: LibraryFilter },
): Promise<ChangeablePhoto[]> {
  const viewer = toViewer(actor);
  if (selection.filter !== undefined) {
    const ids = await listLibraryPhotoIds(transaction, libraryScopeOf(actor), selection.filter, MAX_BULK_FILTER_MATCHES + 1);
    if (ids.length > MAX_BULK_FILTER_MATCHES) {
      throw new AppError("INVALID_INPUT", `The filter matches more than ${MAX_BULK_FILTER_MATCHES} photos: narrow it, or act on fewer at a time.`);
    }
    const rows = (await Promise.all(inChunks(ids).map((chunk) => findPhotosForChange(transaction, chunk)))).flat();
    return rows.filter((row) => canEditPhoto(viewer, row));
  }
  const ids = [...new Set(selection.photoIds ?? [])];
  const rows = (await Promise.all(inChunks(ids).map((chunk) => findPhotosForChange(transaction, chunk)))).flat();
  const found = new Map(rows.map((row) => [row.id, row]));
  const missing = ids.find((id) => {
    const row = found.get(id);
    return !row || !canEditPhoto(viewer, row);
  });
  if (missing !== undefined) throw new AppError("NOT_FOUND", `No photo you may change has the id ${missing}; nothing was changed.`);
  return ids.map((id) => found.get(id) as ChangeablePhoto);
}

export function countPhotos(count: number): string {
  return `${count} ${count === 1 ? "photo" : "photos"}`;
}

