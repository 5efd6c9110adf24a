// The gallery's lists are built from index ranges merged in order (listPhotos in
// src/photos/photos.repository.ts): one per visibility the viewer may list, plus their own other
// photos. Whatever the split, paging must give exactly what the access rule allows, in gallery
// order, each photo once, and previous/next must be the neighbours in that order. Checked against
// the rule itself (mayList) on a fresh database of the run's kind.
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ANONYMOUS_VIEWER, toViewer, type Viewer } from "@/src/access/viewer";
import type { Database, Visibility } from "@/src/db/database";
import { mayList, photoListAccessOf, type PhotoStates } from "@/src/photos/listable-photos";
import { getPhotoPageForViewer, listNeighbourPhotos, listPhotosForViewer } from "@/src/photos/photos.service";
import type { ListPhotosQuery } from "@/src/photos/photos.schemas";
import { inGalleryOrder, type PhotoLibrary, type SeededPhoto, seedPhotoLibrary } from "./helpers/photo-library";
import { openFreshDatabase } from "./helpers/test-database";

let db: Kysely<Database>;
let remove: () => Promise<void>;
let library: PhotoLibrary;

beforeAll(async () => {
  ({ db, remove } = await openFreshDatabase(inject("databaseKind")));
  library = await seedPhotoLibrary(db, "lists");
});
afterAll(() => remove());

const viewers: Array<[string, () => Viewer]> = [
  ["a visitor", () => ANONYMOUS_VIEWER],
  ["a member", () => toViewer(library.member)],
  ["an editor", () => toViewer(library.editor)],
  ["an admin", () => toViewer(library.admin)],
];

/** Every id the list gives, page by page. */
async function pageThrough(viewer: Viewer, query: Omit<ListPhotosQuery, "limit" | "cursor">): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await listPhotosForViewer(db, viewer, { ...query, limit: 7, cursor });
    ids.push(...page.photos.map((photo) => photo.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return ids;
}

function expectedList(viewer: Viewer, keep: (photo: SeededPhoto) => boolean = () => true, options: { ownPhotos?: PhotoStates } = {}): string[] {
  // The list rule itself (tests/photo-list-access.test.ts checks it case by case): others' finished
  // photos of the visibilities the viewer may list, their own in any state (or only finished).
  const access = photoListAccessOf(viewer, options);
  const shown = library.photos.filter((photo) => mayList(access, { owner_id: photo.ownerId, visibility: photo.visibility, status: photo.status, trashed_at: null }));
  return inGalleryOrder(shown.filter(keep)).map((photo) => photo.id);
}

describe("paging through the gallery's lists", () => {
  for (const [who, viewerOf] of viewers) {
    it(`gives ${who} exactly what they may list, in gallery order, each photo once`, async () => {
      const viewer = viewerOf();
      const expected = expectedList(viewer);
      expect(expected.length).toBeGreaterThan(7);
      expect(await pageThrough(viewer, {})).toEqual(expected);
      for (const visibility of ["public", "members", "private", "unlisted"] as Visibility[]) {
        expect(await pageThrough(viewer, { visibility }), visibility).toEqual(expectedList(viewer, (photo) => photo.visibility === visibility));
      }
      if (viewer.kind === "user") {
        const own = (photo: SeededPhoto) => photo.ownerId === viewer.user.id;
        expect(await pageThrough(viewer, { owner: "me" })).toEqual(expectedList(viewer, own));
      }
    });

    it(`moves ${who} to the neighbours in that order, among finished photos`, async () => {
      const viewer = viewerOf();
      // Others' unlisted photos are not in the order; the viewer's own are, once finished.
      const order = expectedList(viewer, () => true, { ownPhotos: "finished" });
      for (let index = 0; index < order.length; index += 1) {
        const page = await getPhotoPageForViewer(db, viewer, order[index]);
        expect([page.newerId, page.olderId], order[index]).toEqual([order[index - 1] ?? null, order[index + 1] ?? null]);
      }
      const middle = Math.floor(order.length / 2);
      const neighbours = await listNeighbourPhotos(db, viewer, order[middle], 3);
      expect(neighbours.newer.map((photo) => photo.id)).toEqual(order.slice(middle - 3, middle).reverse());
      expect(neighbours.older.map((photo) => photo.id)).toEqual(order.slice(middle + 1, middle + 4));
    });
  }
});
