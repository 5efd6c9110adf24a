// What the full-screen viewer asks for besides its slides (app/(gallery)/p/[id]/viewer-details.action.ts):
// the counter's numbers (findGalleryPosition, findAlbumViewerPosition), the info panel's card
// (getPhotoViewerInfo) and the caption its neighbours carry, each for the viewer asking and never
// more than the photo page shows them. On a freshly migrated database of its own, rows written directly.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ANONYMOUS_VIEWER, type SessionUser, toViewer } from "@/src/access/viewer";
import { findAlbumViewerPosition } from "@/src/albums/album-pages";
import { addPhotosToAlbum, createAlbum, updateAlbum } from "@/src/albums/albums.service";
import type { DatabaseHandle } from "@/src/db/client";
import type { Visibility } from "@/src/db/database";
import { findGalleryPosition, getPhotoForViewer, getPhotoViewerInfo, listNeighbourPhotos } from "@/src/photos/photos.service";
import { insertPhotoRows, insertUsers } from "./helpers/direct-rows";
import { openFreshDatabase } from "./helpers/test-database";

const owner: SessionUser = { id: "details-owner", email: "owner@example.test", name: "Owner", role: "editor" };
const member: SessionUser = { id: "details-member", email: "member@example.test", name: "Member", role: "viewer" };

let db: DatabaseHandle;
let remove: () => Promise<void>;

// Newest first: v1 … v7, one day apart, all taken in Lisbon with the same camera; only v2 shows its location.
const PHOTOS: Array<{ id: string; visibility: Visibility; status?: "ready" | "processing"; showLocation?: boolean; caption?: string }> = [
  { id: "v1", visibility: "public", caption: "Tram 28 <script>alert(1)</script>" },
  { id: "v2", visibility: "public", showLocation: true },
  { id: "v3", visibility: "members" },
  { id: "v4", visibility: "private" },
  { id: "v5", visibility: "unlisted" },
  { id: "v6", visibility: "public" },
  { id: "v7", visibility: "public", status: "processing" },
];

beforeAll(async () => {
  ({ db, remove } = await openFreshDatabase(inject("databaseKind")));
  const now = new Date().toISOString();
  await insertUsers(db, [owner, member], now);
  for (const [index, photo] of PHOTOS.entries()) {
    await insertPhotoRows(db, [
      {
        id: photo.id, owner_id: owner.id, status: photo.status ?? "ready", visibility: photo.visibility, title: `Photo ${photo.id}`, caption: photo.caption ?? "",
        taken_at: "2008-10-22T16:29:49", camera_make: "NIKON CORPORATION", camera_model: "NIKON D70", lens: "18-70mm", focal_length: 24, aperture: 5.6, exposure_time: "1/250", iso: 200,
        gps_latitude: 38.7223, gps_longitude: -9.1393, show_location: photo.showLocation ? 1 : 0,
        sort_at: new Date(Date.UTC(2024, 0, 30 - index)).toISOString(), created_at: now, updated_at: now,
      },
    ]);
  }
  // The album orders them by hand: v6, v4 (private), v2, v1.
  const album = await createAlbum(db, owner, { title: "Lisbon", slug: "lisbon", visibility: "public" });
  await addPhotosToAlbum(db, owner, album.id, ["v6", "v4", "v2", "v1"]);
});
afterAll(() => remove());

describe("findGalleryPosition (the counter in the gallery's order)", () => {
  it("counts only what this viewer's gallery lists, finished photos, newest first", async () => {
    // A visitor's gallery: v1, v2, v6.
    expect(await findGalleryPosition(db, ANONYMOUS_VIEWER, "v1")).toEqual({ index: 1, total: 3 });
    expect(await findGalleryPosition(db, ANONYMOUS_VIEWER, "v6")).toEqual({ index: 3, total: 3 });
    // A member's: v1, v2, v3, v6. The owner's: v1 … v6 (not the unfinished v7).
    expect(await findGalleryPosition(db, toViewer(member), "v6")).toEqual({ index: 4, total: 4 });
    expect(await findGalleryPosition(db, toViewer(owner), "v4")).toEqual({ index: 4, total: 6 });
  });

  it("agrees with the neighbours the viewer walks through", async () => {
    const { newer, older } = await listNeighbourPhotos(db, toViewer(owner), "v3", 12);
    expect(await findGalleryPosition(db, toViewer(owner), "v3")).toEqual({ index: newer.length + 1, total: newer.length + 1 + older.length });
  });

  it("refuses a photo the viewer may not see, and gives no count for an unlisted one reached by its link", async () => {
    await expect(findGalleryPosition(db, ANONYMOUS_VIEWER, "v4")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(findGalleryPosition(db, toViewer(member), "v4")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(findGalleryPosition(db, ANONYMOUS_VIEWER, "no-such-photo")).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await findGalleryPosition(db, ANONYMOUS_VIEWER, "v5")).toBeNull();
    expect(await findGalleryPosition(db, toViewer(owner), "v5")).toEqual({ index: 5, total: 6 });
  });
});

describe("findAlbumViewerPosition (the counter in an album's order)", () => {
  it("counts the album's photos this viewer may see, in the album's order", async () => {
    expect(await findAlbumViewerPosition(db, ANONYMOUS_VIEWER, "lisbon", "v2")).toEqual({ index: 2, total: 3 });
    expect(await findAlbumViewerPosition(db, toViewer(owner), "lisbon", "v2")).toEqual({ index: 3, total: 4 });
  });

  it("counts in a date sort too (newest taken first: v1, v2, v4, v6)", async () => {
    const album = await createAlbum(db, owner, { title: "Lisbon by date", slug: "lisbon-by-date", visibility: "public" });
    await addPhotosToAlbum(db, owner, album.id, ["v6", "v4", "v2", "v1"]);
    await updateAlbum(db, owner, album.id, { sort: "taken-desc" });
    expect(await findAlbumViewerPosition(db, ANONYMOUS_VIEWER, "lisbon-by-date", "v6")).toEqual({ index: 3, total: 3 });
    expect(await findAlbumViewerPosition(db, toViewer(owner), "lisbon-by-date", "v4")).toEqual({ index: 3, total: 4 });
  });

  it("counts an album longer than the editor lays out at once (2,001 photos)", async () => {
    const ids = Array.from({ length: 2001 }, (_, index) => `long-${String(index).padStart(4, "0")}`);
    const at = (index: number) => new Date(Date.UTC(2020, 0, 1) + index * 60_000).toISOString();
    await insertPhotoRows(db, ids.map((id, index) => ({ id, owner_id: owner.id, visibility: "public" as const, sort_at: at(index) })));
    const album = await createAlbum(db, owner, { title: "Long", slug: "long", visibility: "public" });
    // Rows written directly (adding 2,001 through the service takes longer than the test may);
    // any keys that sort in the order of the ids will do for the manual order.
    const rows = ids.map((id, index) => ({ album_id: album.id, photo_id: id, order_key: `a${id}`, photo_sort_at: at(index), photo_created_at: at(index), added_at: at(index) }));
    for (let start = 0; start < rows.length; start += 500) await db.insertInto("album_photos").values(rows.slice(start, start + 500)).execute();
    expect(await findAlbumViewerPosition(db, ANONYMOUS_VIEWER, "long", ids[2000])).toEqual({ index: 2001, total: 2001 });
    expect(await findAlbumViewerPosition(db, ANONYMOUS_VIEWER, "long", ids[1])).toEqual({ index: 2, total: 2001 });
    // Writing 2,001 photos fires PostgreSQL's search triggers per row: seconds on a loaded machine. The count itself took 65-150 ms.
  }, 120_000);

  it("gives no count for a photo not in the album, one the viewer may not see, or an album that is not there", async () => {
    expect(await findAlbumViewerPosition(db, ANONYMOUS_VIEWER, "lisbon", "v3")).toBeNull();
    expect(await findAlbumViewerPosition(db, ANONYMOUS_VIEWER, "lisbon", "v4")).toBeNull();
    expect(await findAlbumViewerPosition(db, ANONYMOUS_VIEWER, "no-such-album", "v1")).toBeNull();
  });
});

describe("getPhotoViewerInfo (the info panel)", () => {
  it("gives the EXIF card's fields to a visitor, but the location only where the owner shows it", async () => {
    const hidden = await getPhotoViewerInfo(db, ANONYMOUS_VIEWER, "v1");
    expect(hidden).toEqual({
      id: "v1",
      takenAt: "2008-10-22T16:29:49",
      exif: { cameraMake: "NIKON CORPORATION", cameraModel: "NIKON D70", lens: "18-70mm", focalLength: 24, aperture: 5.6, exposureTime: "1/250", iso: 200 },
      location: null,
      placeName: null,
    });
    expect(await getPhotoViewerInfo(db, ANONYMOUS_VIEWER, "v2")).toMatchObject({ location: { latitude: 38.7223, longitude: -9.1393 }, placeName: "Portugal" });
  });

  it("gives the owner the location the visitor does not get", async () => {
    expect(await getPhotoViewerInfo(db, toViewer(owner), "v1")).toMatchObject({ location: { latitude: 38.7223, longitude: -9.1393 }, placeName: "Portugal" });
  });

  it("never tells more than the photo page does, to any viewer", async () => {
    for (const viewer of [ANONYMOUS_VIEWER, toViewer(member), toViewer(owner)]) {
      for (const id of ["v1", "v2", "v3"]) {
        const page = await getPhotoForViewer(db, viewer, id).catch(() => null);
        const info = await getPhotoViewerInfo(db, viewer, id).catch(() => null);
        if (!page) expect(info).toBeNull();
        else expect(info).toEqual({ id, takenAt: page.takenAt, exif: page.exif, location: page.location, placeName: page.placeName });
      }
    }
  });

  it("refuses a visitor a private photo and a members-only one, as if it did not exist", async () => {
    await expect(getPhotoViewerInfo(db, ANONYMOUS_VIEWER, "v4")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(getPhotoViewerInfo(db, ANONYMOUS_VIEWER, "v3")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(getPhotoViewerInfo(db, toViewer(member), "v4")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("the viewer's caption", () => {
  it("comes with each neighbour as the owner wrote it (text: the viewer never reads it as markup)", async () => {
    const { newer } = await listNeighbourPhotos(db, ANONYMOUS_VIEWER, "v2", 12);
    expect(newer.map((photo) => [photo.id, photo.title, photo.caption])).toEqual([["v1", "Photo v1", "Tram 28 <script>alert(1)</script>"]]);
  });
});
