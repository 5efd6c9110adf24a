import "server-only";
import type { Viewer } from "@/src/access/viewer";
import type { DatabaseHandle } from "@/src/db/client";
import { findOriginalNameRows } from "./original-names.repository";
import { isOwnerOrAdmin } from "./photo-access";

// Under SQLite's bound-parameter limit with room to spare.
const BATCH = 500;

/**
 * The uploaded file names of those of `photoIds` whose file name this viewer may learn (the metadata
 * policy: their owner and admins), for owners' pages that tell untitled photos apart by file name
 * (photoAccessibleName). Photos of others are simply absent from the answer.
 */
export async function findOriginalNamesForViewer(db: DatabaseHandle, viewer: Viewer, photoIds: string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (viewer.kind !== "user") return names;
  for (let start = 0; start < photoIds.length; start += BATCH) {
    for (const row of await findOriginalNameRows(db, photoIds.slice(start, start + BATCH))) {
      if (isOwnerOrAdmin(viewer, row)) names.set(row.id, row.original_name);
    }
  }
  return names;
}
