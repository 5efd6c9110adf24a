// The dashboard's photo counts by status (src/photos/processing-queue.repository.ts): everyone's and
// one owner's, without the trash, on a freshly migrated database of the run's kind. The trashed
// photos are counted apart, through the trash's partial index (see query-plans.test.ts).
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Database, PhotoRow } from "@/src/db/database";
import { countPhotosByStatus } from "@/src/photos/processing-queue.repository";
import { type PhotoLibrary, seedPhotoLibrary } from "./helpers/photo-library";
import { openFreshDatabase } from "./helpers/test-database";

let db: Kysely<Database>;
let remove: () => Promise<void>;
let library: PhotoLibrary;

beforeAll(async () => {
  ({ db, remove } = await openFreshDatabase(inject("databaseKind")));
  library = await seedPhotoLibrary(db, "counts");
  // Every seventh photo in the trash: of every status and both owners.
  const trashed = library.photos.filter((_, index) => index % 7 === 3).map((photo) => photo.id);
  await db.updateTable("photos").set({ trashed_at: new Date().toISOString() }).where("id", "in", trashed).execute();
});
afterAll(() => remove());

/** The same counts, the slow and obvious way. */
function expectedCounts(ownerId: string | null, trashedIds: Set<string>): Record<PhotoRow["status"], number> {
  const counts = { processing: 0, ready: 0, failed: 0 };
  for (const photo of library.photos) {
    if (trashedIds.has(photo.id) || (ownerId !== null && photo.ownerId !== ownerId)) continue;
    counts[photo.status] += 1;
  }
  return counts;
}

describe("photo counts by status", () => {
  it("count every status, everyone's and one owner's, leaving out the trash", async () => {
    const trashed = await db.selectFrom("photos").select("id").where("trashed_at", "is not", null).execute();
    const trashedIds = new Set(trashed.map((row) => row.id));
    const trashedStatuses = new Set(library.photos.filter((photo) => trashedIds.has(photo.id)).map((photo) => photo.status));
    // The trash holds photos of every status, so each subtraction is exercised.
    expect([...trashedStatuses].sort()).toEqual(["failed", "processing", "ready"]);
    for (const ownerId of [null, library.editor.id, library.admin.id]) {
      expect(await countPhotosByStatus(db, ownerId)).toEqual(expectedCounts(ownerId, trashedIds));
    }
  });
});
