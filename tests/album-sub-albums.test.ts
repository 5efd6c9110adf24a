// Parent albums that hold no photos of their own (issue 27: Travel › Italy › Tuscany 2008 with
// photos only in the deepest album): their cards and pages show a cover and a count from their
// sub-albums, on a freshly migrated database of the run's kind. Only what the viewer may see: a
// sub-album they may not list (private, someone else's unlisted) hides its whole branch, and inside
// the sub-albums the photo list rule decides (private, trashed and unfinished photos of others never
// count). The counts are remembered, and must follow photos and albums as they change.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ANONYMOUS_VIEWER, type SessionUser, toViewer, type Viewer } from "@/src/access/viewer";
import { findAlbumPage } from "@/src/albums/album-pages";
import { addPhotosToAlbum, createAlbum, listAlbumsForViewer, listManageableAlbums, removePhotosFromAlbum, updateAlbum } from "@/src/albums/albums.service";
import type { AlbumSummary } from "@/src/albums/albums.types";
import type { DatabaseHandle } from "@/src/db/client";
import type { PhotoStatus, Visibility } from "@/src/db/database";
import { announcePhotosChanged } from "@/src/photos/photo-changes";
import { findPublicAlbumBySlug, listPublicAlbumPhotos } from "@/src/publish/published-subjects";
import { insertPhotoRows, insertUsers } from "./helpers/direct-rows";
import { openFreshDatabase } from "./helpers/test-database";

const owner: SessionUser = { id: "tree-owner", email: "owner@example.test", name: "Olga", role: "editor" };
const member: SessionUser = { id: "tree-member", email: "member@example.test", name: "Max", role: "viewer" };
const visitor = ANONYMOUS_VIEWER;

// All the owner's. t1-t5 in Tuscany 2008 (t3 is its chosen cover, private); t4 goes to the trash;
// t5 is still processing. s1 in the private "Secret", d1 in the public "Deep" below it; u1 in the
// unlisted "By link"; c1 (members) and t1 again in the members' "Club".
const PHOTOS: Array<{ id: string; visibility: Visibility; status?: PhotoStatus }> = [
  { id: "t1", visibility: "public" },
  { id: "t2", visibility: "public" },
  { id: "t3", visibility: "private" },
  { id: "t4", visibility: "public" },
  { id: "t5", visibility: "public", status: "processing" },
  { id: "s1", visibility: "public" },
  { id: "d1", visibility: "public" },
  { id: "u1", visibility: "public" },
  { id: "c1", visibility: "members" },
];

let db: DatabaseHandle;
let remove: () => Promise<void>;
const ids: Record<string, string> = {};

/**
 * Puts a photo in the trash as the lifecycle does for the database and this process's remembered
 * counts (moveToTrash also withdraws served copies, which needs the running app's environment).
 */
async function trash(photoId: string): Promise<void> {
  await db.updateTable("photos").set({ trashed_at: new Date().toISOString() }).where("id", "=", photoId).execute();
  announcePhotosChanged();
}

/** One album by its creation, a few ms after the last: siblings are listed oldest first. */
async function album(key: string, title: string, visibility: Visibility, parentKey: string | null, photos: string[] = []): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 5));
  const created = await createAlbum(db, owner, { title, slug: key, visibility, parentId: parentKey === null ? null : ids[parentKey] });
  ids[key] = created.id;
  if (photos.length > 0) await addPhotosToAlbum(db, owner, created.id, photos);
}

beforeAll(async () => {
  ({ db, remove } = await openFreshDatabase(inject("databaseKind")));
  const now = new Date().toISOString();
  await insertUsers(db, [owner, member], now);
  await insertPhotoRows(
    db,
    PHOTOS.map((photo, index) => ({
      id: photo.id, owner_id: owner.id, status: photo.status ?? "ready", visibility: photo.visibility,
      sort_at: new Date(Date.UTC(2024, 0, 30 - index)).toISOString(), created_at: new Date(Date.UTC(2025, 0, 1 + index)).toISOString(), updated_at: now,
    })),
  );
  // One JPEG each: the Open Graph collage draws only photos that have one.
  await db
    .insertInto("photo_variants")
    .values(PHOTOS.map((photo) => ({ photo_id: photo.id, format: "jpeg" as const, width: 1200, height: 800, storage_key: `variants/${photo.id}.jpg`, byte_size: 1 })))
    .execute();
  await album("travel", "Travel", "public", null);
  // Listed before Italy: were its branch walked for a visitor, its public photos would be the cover.
  await album("secret", "Secret", "private", "travel", ["s1"]);
  await album("deep", "Deep", "public", "secret", ["d1"]);
  await album("by-link", "By link", "unlisted", "travel", ["u1"]);
  await album("italy", "Italy", "public", "travel");
  await album("tuscany", "Tuscany 2008", "public", "italy", ["t3", "t1", "t2", "t4", "t5"]);
  await album("club", "Club", "members", "travel", ["c1", "t1"]);
  await updateAlbum(db, owner, ids.tuscany, { coverPhotoId: "t3" });
  await trash("t4");
});
afterAll(() => remove());

async function page(viewer: Viewer, slug: string): Promise<{ album: AlbumSummary; children: AlbumSummary[] }> {
  const found = await findAlbumPage(db, viewer, slug);
  if (found?.kind !== "album") throw new Error(`${slug} is not an album this viewer may see`);
  return found;
}

/** What a card shows: the counts and the cover's id. */
function card(album: AlbumSummary) {
  return { photoCount: album.photoCount, subAlbumPhotoCount: album.subAlbumPhotoCount, cover: album.cover?.id ?? null };
}

describe("a parent without photos of its own", () => {
  it("shows a visitor the cover and count of its public sub-albums only: never a private or unlisted branch, a private, trashed or unfinished photo", async () => {
    const [travel] = await listAlbumsForViewer(db, visitor, { parentId: null });
    // t1 and t2: t3 is private, t4 in the trash, t5 processing; Secret (and Deep under it) and By link are not listed to a visitor.
    expect(card(travel)).toEqual({ photoCount: 0, subAlbumPhotoCount: 2, cover: "t1" });
    const travelPage = await page(visitor, "travel");
    expect(card(travelPage.album)).toEqual({ photoCount: 0, subAlbumPhotoCount: 2, cover: "t1" });
    expect(travelPage.children.map((child) => [child.slug, card(child)])).toEqual([["italy", { photoCount: 0, subAlbumPhotoCount: 2, cover: "t1" }]]);
    expect(card((await page(visitor, "tuscany")).album)).toEqual({ photoCount: 2, subAlbumPhotoCount: 0, cover: "t1" });
  });

  it("gives its Open Graph collage its public sub-albums' public, finished photos, as its card", async () => {
    const travel = await findPublicAlbumBySlug(db, "travel");
    expect(travel).not.toBeNull();
    expect((await listPublicAlbumPhotos(db, travel!)).map((photo) => photo.row.id)).toEqual(["t1", "t2"]);
  });

  it("counts a members' sub-album for a signed-in member, each photo once however many sub-albums hold it", async () => {
    const [travel] = await listAlbumsForViewer(db, toViewer(member), { parentId: null });
    // t1, t2 in Tuscany; c1 and t1 again in Club.
    expect(card(travel)).toEqual({ photoCount: 0, subAlbumPhotoCount: 3, cover: "t1" });
  });

  it("shows its owner every branch, their own unfinished photos and the chosen cover, depth first in the order the page lists sub-albums", async () => {
    const viewer = toViewer(owner);
    const [travel] = await listAlbumsForViewer(db, viewer, { parentId: null });
    // Everything but the trashed t4: t1 t2 t3 t5 s1 d1 u1 c1; the first sub-album with a photo is Secret.
    expect(card(travel)).toEqual({ photoCount: 0, subAlbumPhotoCount: 8, cover: "s1" });
    expect(card((await page(viewer, "italy")).album)).toEqual({ photoCount: 0, subAlbumPhotoCount: 4, cover: "t3" });
    const managed = new Map((await listManageableAlbums(db, owner)).map((album) => [album.slug, card(album)]));
    expect(managed.get("travel")).toEqual({ photoCount: 0, subAlbumPhotoCount: 8, cover: "s1" });
    expect(managed.get("secret")).toEqual({ photoCount: 1, subAlbumPhotoCount: 1, cover: "s1" });
    expect(managed.get("italy")).toEqual({ photoCount: 0, subAlbumPhotoCount: 4, cover: "t3" });
  });

  it("follows changes at once, though the counts are remembered: photos added, taken out, trashed, and sub-albums shown or hidden", async () => {
    const travelFor = async (viewer: Viewer) => card((await listAlbumsForViewer(db, viewer, { parentId: null }))[0]);
    expect(await travelFor(visitor)).toMatchObject({ subAlbumPhotoCount: 2 });
    // Secret goes public: its photo and Deep's below it count, and Secret, listed first, gives the cover.
    await updateAlbum(db, owner, ids.secret, { visibility: "public" });
    expect(await travelFor(visitor)).toEqual({ photoCount: 0, subAlbumPhotoCount: 4, cover: "s1" });
    await removePhotosFromAlbum(db, owner, ids.secret, ["s1"]);
    expect(await travelFor(visitor)).toEqual({ photoCount: 0, subAlbumPhotoCount: 3, cover: "d1" });
    await trash("d1");
    expect(await travelFor(visitor)).toEqual({ photoCount: 0, subAlbumPhotoCount: 2, cover: "t1" });
    // Italy moves out of Travel: nothing of it is Travel's any more.
    await updateAlbum(db, owner, ids.italy, { parentId: null });
    const top = await listAlbumsForViewer(db, visitor, { parentId: null });
    expect(top.map((album) => [album.slug, card(album)])).toEqual([
      ["travel", { photoCount: 0, subAlbumPhotoCount: 0, cover: null }],
      ["italy", { photoCount: 0, subAlbumPhotoCount: 2, cover: "t1" }],
    ]);
    // Photos of its own come first, and the sub-albums' are said beside them.
    await addPhotosToAlbum(db, owner, ids.italy, ["t2", "u1"]);
    expect(card((await page(visitor, "italy")).album)).toEqual({ photoCount: 2, subAlbumPhotoCount: 2, cover: "t2" });
  });
});
