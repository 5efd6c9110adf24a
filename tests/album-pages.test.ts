// The album pages' server helpers (src/albums/album-pages.ts) on a freshly migrated database of the
// run's kind: what the album page, the photo page's `?album=` context and the full-screen viewer get
// for each viewer. An album or photo a viewer may not see reads as none, so the photo page falls
// back to the gallery's order and tells nothing.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ANONYMOUS_VIEWER, type SessionUser, toViewer } from "@/src/access/viewer";
import { findAlbumContext, findAlbumPage, listAlbumViewerNeighbours, listAllAlbumPhotos } from "@/src/albums/album-pages";
import { addPhotosToAlbum, createAlbum, movePhotoInAlbum, updateAlbum } from "@/src/albums/albums.service";
import type { DatabaseHandle } from "@/src/db/client";
import type { Visibility } from "@/src/db/database";
import { insertPhotoRows, insertUsers } from "./helpers/direct-rows";
import { openFreshDatabase } from "./helpers/test-database";

const editor: SessionUser = { id: "pages-editor", email: "editor@example.test", name: "Edda", role: "editor" };
const other: SessionUser = { id: "pages-other", email: "other@example.test", name: "Otto", role: "editor" };

let db: DatabaseHandle;
let remove: () => Promise<void>;

// p1 is the newest in the gallery; the album orders them by hand as p4, p2 (private), p3, p1.
const PHOTOS: Array<{ id: string; visibility: Visibility }> = [
  { id: "p1", visibility: "public" },
  { id: "p2", visibility: "private" },
  { id: "p3", visibility: "public" },
  { id: "p4", visibility: "public" },
  { id: "p5", visibility: "public" },
];

let publicAlbumId = "";
let privateAlbumId = "";

beforeAll(async () => {
  ({ db, remove } = await openFreshDatabase(inject("databaseKind")));
  const now = new Date().toISOString();
  await insertUsers(db, [editor, other], now);
  await insertPhotoRows(
    db,
    PHOTOS.map((photo, index) => ({
      id: photo.id, owner_id: editor.id, visibility: photo.visibility,
      sort_at: new Date(Date.UTC(2024, 0, 30 - index)).toISOString(), created_at: new Date(Date.UTC(2025, 0, 1 + index)).toISOString(), updated_at: now,
    })),
  );
  const album = await createAlbum(db, editor, { title: "Harbour walks", slug: "harbour", visibility: "public" });
  publicAlbumId = album.id;
  await addPhotosToAlbum(db, editor, album.id, ["p4", "p2", "p3", "p1"]);
  const hidden = await createAlbum(db, editor, { title: "Drafts", slug: "drafts" });
  privateAlbumId = hidden.id;
  await addPhotosToAlbum(db, editor, hidden.id, ["p1", "p3"]);
});
afterAll(() => remove());

const visitor = ANONYMOUS_VIEWER;

describe("findAlbumPage", () => {
  it("finds a visible album by its slug, and answers null for a missing one, a private one (to a visitor) or a malformed slug", async () => {
    expect(await findAlbumPage(db, visitor, "harbour")).toMatchObject({ kind: "album", album: { id: publicAlbumId, photoCount: 3 } });
    expect(await findAlbumPage(db, visitor, "no-such-album")).toBeNull();
    expect(await findAlbumPage(db, visitor, "drafts")).toBeNull();
    expect(await findAlbumPage(db, toViewer(other), "drafts")).toBeNull();
    expect(await findAlbumPage(db, toViewer(editor), "drafts")).toMatchObject({ kind: "album", album: { id: privateAlbumId } });
    for (const slug of ["", "a\u0000b", "a/b", "x".repeat(201)]) expect(await findAlbumPage(db, visitor, slug)).toBeNull();
  });
});

describe("findAlbumContext (the photo page's ?album=)", () => {
  it("walks the album's order among the photos the viewer may see: the private photo is skipped for a visitor, not for its owner", async () => {
    expect(await findAlbumContext(db, visitor, "harbour", "p4")).toEqual({ slug: "harbour", title: "Harbour walks", previousId: null, nextId: "p3" });
    expect(await findAlbumContext(db, visitor, "harbour", "p3")).toEqual({ slug: "harbour", title: "Harbour walks", previousId: "p4", nextId: "p1" });
    expect(await findAlbumContext(db, visitor, "harbour", "p1")).toMatchObject({ previousId: "p3", nextId: null });
    expect(await findAlbumContext(db, toViewer(editor), "harbour", "p3")).toMatchObject({ previousId: "p2", nextId: "p1" });
  });

  it("is null (so the page uses the gallery's order) for an unknown album, one the viewer may not see, a photo not in it, or one they may not see", async () => {
    expect(await findAlbumContext(db, visitor, "no-such-album", "p3")).toBeNull();
    expect(await findAlbumContext(db, visitor, "drafts", "p3")).toBeNull();
    expect(await findAlbumContext(db, toViewer(other), "drafts", "p3")).toBeNull();
    expect(await findAlbumContext(db, visitor, "harbour", "p5")).toBeNull();
    expect(await findAlbumContext(db, visitor, "harbour", "p2")).toBeNull();
    expect(await findAlbumContext(db, visitor, "harbour", "no-such-photo")).toBeNull();
  });

  it("follows the album to its new slug after a rename, and names the current one", async () => {
    const album = await createAlbum(db, editor, { title: "Renamed", slug: "before-rename", visibility: "public" });
    await addPhotosToAlbum(db, editor, album.id, ["p5", "p1"]);
    await updateAlbum(db, editor, album.id, { slug: "after-rename" });
    expect(await findAlbumPage(db, visitor, "before-rename")).toEqual({ kind: "moved", slug: "after-rename" });
    expect(await findAlbumContext(db, visitor, "before-rename", "p5")).toEqual({ slug: "after-rename", title: "Renamed", previousId: null, nextId: "p1" });
  });
});

describe("listAlbumViewerNeighbours (the full-screen viewer in an album)", () => {
  it("answers the photos either side in album order, nearest first, only those the viewer may see", async () => {
    const around = await listAlbumViewerNeighbours(db, visitor, "harbour", "p3");
    expect(around.newer.map((photo) => photo.id)).toEqual(["p4"]);
    expect(around.older.map((photo) => photo.id)).toEqual(["p1"]);
    const fromStart = await listAlbumViewerNeighbours(db, toViewer(editor), "harbour", "p4");
    expect(fromStart.newer).toEqual([]);
    expect(fromStart.older.map((photo) => photo.id)).toEqual(["p2", "p3", "p1"]);
  });

  it("answers nothing for an album or photo the viewer may not see", async () => {
    expect(await listAlbumViewerNeighbours(db, visitor, "drafts", "p3")).toEqual({ newer: [], older: [] });
    expect(await listAlbumViewerNeighbours(db, visitor, "harbour", "p2")).toEqual({ newer: [], older: [] });
    expect(await listAlbumViewerNeighbours(db, visitor, "harbour", "p5")).toEqual({ newer: [], older: [] });
  });
});

describe("listAllAlbumPhotos (the album editor)", () => {
  it("reads every page in the album's order, after moves", async () => {
    const album = await createAlbum(db, editor, { title: "Many", slug: "many" });
    await addPhotosToAlbum(db, editor, album.id, ["p1", "p2", "p3", "p4", "p5"]);
    await movePhotoInAlbum(db, editor, album.id, "p5", { after: null });
    const { photos, isComplete } = await listAllAlbumPhotos(db, toViewer(editor), album.id);
    expect(photos.map((photo) => photo.id)).toEqual(["p5", "p1", "p2", "p3", "p4"]);
    expect(isComplete).toBe(true);
  });
});
