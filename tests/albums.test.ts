// Albums' rules through the service, on a freshly migrated database of the run's kind, rows written
// directly (no image work): an album never widens who may see a photo (SECURITY.md 40, 43), counts
// and covers follow the same rule, slugs, nesting, bad input, and one audit row per change.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ANONYMOUS_VIEWER, type SessionUser, toViewer, type Viewer } from "@/src/access/viewer";
import {
  addPhotosToAlbum,
  createAlbum,
  deleteAlbum,
  findAlbumByIdForViewer,
  findAlbumBySlugForViewer,
  findAlbumNeighbours,
  listAlbumPhotosForViewer,
  listAlbumsForViewer,
  listAlbumsHoldingPhoto,
  listManageableAlbums,
  movePhotoInAlbum,
  removePhotosFromAlbum,
  updateAlbum,
} from "@/src/albums/albums.service";
import type { AlbumSummary } from "@/src/albums/albums.types";
import type { DatabaseHandle } from "@/src/db/client";
import type { Visibility } from "@/src/db/database";
import { AppError } from "@/src/errors/app-error";
import { announcePhotosChanged } from "@/src/photos/photo-changes";
import { insertPhotoRows, insertUsers } from "./helpers/direct-rows";
import { openFreshDatabase } from "./helpers/test-database";

const alice: SessionUser = { id: "albums-alice", email: "alice@example.test", name: "Alice", role: "editor" };
const bob: SessionUser = { id: "albums-bob", email: "bob@example.test", name: "Bob", role: "editor" };
const member: SessionUser = { id: "albums-member", email: "member@example.test", name: "Member", role: "viewer" };
const admin: SessionUser = { id: "albums-admin", email: "admin@example.test", name: "Admin", role: "admin" };

let db: DatabaseHandle;
let remove: () => Promise<void>;

// Alice's photos, newest first by date taken (a1 newest), and one of Bob's.
const PHOTOS: Array<{ id: string; owner: SessionUser; visibility: Visibility; status?: "ready" | "processing" }> = [
  { id: "a1", owner: alice, visibility: "public" },
  { id: "a2", owner: alice, visibility: "private" },
  { id: "a3", owner: alice, visibility: "public" },
  { id: "a4", owner: alice, visibility: "members" },
  { id: "a5", owner: alice, visibility: "unlisted" },
  { id: "a6", owner: alice, visibility: "public", status: "processing" },
  // Trashed once it is in an album (see "shows each reader…").
  { id: "a7", owner: alice, visibility: "public" },
  { id: "a8", owner: alice, visibility: "public" },
  { id: "b1", owner: bob, visibility: "private" },
  { id: "b2", owner: bob, visibility: "public" },
];

beforeAll(async () => {
  ({ db, remove } = await openFreshDatabase(inject("databaseKind")));
  const now = new Date().toISOString();
  await insertUsers(db, [alice, bob, member, admin], now);
  await insertPhotoRows(
    db,
    PHOTOS.map((photo, index) => ({
      id: photo.id, owner_id: photo.owner.id, status: photo.status ?? "ready", visibility: photo.visibility,
      sort_at: new Date(Date.UTC(2024, 0, 30 - index)).toISOString(),
      // Uploaded in the opposite order to the date taken, so the two sorts differ.
      created_at: new Date(Date.UTC(2025, 0, 1 + index)).toISOString(), updated_at: now,
    })),
  );
});
afterAll(() => remove());

const visitor = ANONYMOUS_VIEWER;
const asViewer = (user: SessionUser): Viewer => toViewer(user);
const ALICE_PHOTOS = PHOTOS.filter((photo) => photo.owner === alice).map((photo) => photo.id);

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return "no refusal";
}

async function allPhotoIds(viewer: Viewer, albumId: string, limit = 2): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await listAlbumPhotosForViewer(db, viewer, albumId, { limit, cursor });
    ids.push(...page.photos.map((photo) => photo.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return ids;
}

async function auditRows(targetId: string) {
  const rows = await db.selectFrom("audit_log").selectAll().where("target_id", "=", targetId).orderBy("created_at").execute();
  return rows.map((row) => ({ action: row.action, actorId: row.actor_id, details: JSON.parse(row.details) as { before: unknown; after: unknown } }));
}

let counter = 0;
async function albumOf(owner: SessionUser, visibility: Visibility, photos: string[] = ALICE_PHOTOS, extra: { parentId?: string } = {}): Promise<AlbumSummary> {
  counter += 1;
  const album = await createAlbum(db, owner, { title: `Album ${counter}`, visibility, ...extra });
  if (photos.length > 0) await addPhotosToAlbum(db, owner, album.id, photos);
  return findAlbumByIdForViewer(db, asViewer(owner), album.id);
}

describe("who sees an album", () => {
  it("never tells Bob of Alice's private album, by id, by slug, by any verb, in any list or count", async () => {
    const album = await albumOf(alice, "private", ["a1", "a3"]);
    await updateAlbum(db, alice, album.id, { slug: `${album.slug}-renamed` });
    const bobView = asViewer(bob);
    for (const attempt of [
      () => findAlbumByIdForViewer(db, bobView, album.id),
      () => findAlbumBySlugForViewer(db, bobView, `${album.slug}-renamed`),
      // Not even "moved" for its old slug.
      () => findAlbumBySlugForViewer(db, bobView, album.slug),
      () => listAlbumPhotosForViewer(db, bobView, album.id, {}),
      () => findAlbumNeighbours(db, bobView, album.id, "a1"),
      () => listAlbumsForViewer(db, bobView, { parentId: album.id }),
      () => updateAlbum(db, bob, album.id, { title: "Mine now" }),
      () => deleteAlbum(db, bob, album.id),
      () => addPhotosToAlbum(db, bob, album.id, ["b2"]),
      () => removePhotosFromAlbum(db, bob, album.id, ["a1"]),
      () => movePhotoInAlbum(db, bob, album.id, "a1", { after: null }),
      () => createAlbum(db, bob, { title: "Inside", parentId: album.id }),
    ]) {
      expect(await refusal(attempt())).toBe("NOT_FOUND");
    }
    for (const viewer of [bobView, asViewer(member), visitor]) {
      expect((await listAlbumsForViewer(db, viewer, { parentId: null })).map((each) => each.id)).not.toContain(album.id);
      expect(await listAlbumsHoldingPhoto(db, viewer, "a1")).not.toContainEqual(expect.objectContaining({ title: album.title }));
    }
    expect((await listManageableAlbums(db, bob)).map((each) => each.id)).not.toContain(album.id);
    expect((await listManageableAlbums(db, admin)).map((each) => each.id)).toContain(album.id);
    expect((await findAlbumByIdForViewer(db, asViewer(admin), album.id)).photoCount).toBe(2);
  });

  it("shows members-only albums to signed-in users and not to visitors; unlisted ones by slug only", async () => {
    const members = await albumOf(alice, "members", ["a1"]);
    const unlisted = await albumOf(alice, "unlisted", ["a1"]);
    const memberList = (await listAlbumsForViewer(db, asViewer(member), { parentId: null })).map((each) => each.id);
    expect(memberList).toContain(members.id);
    expect(memberList).not.toContain(unlisted.id);
    const visitorList = (await listAlbumsForViewer(db, visitor, { parentId: null })).map((each) => each.id);
    expect(visitorList).not.toContain(members.id);
    expect(visitorList).not.toContain(unlisted.id);
    expect(await refusal(findAlbumByIdForViewer(db, visitor, members.id))).toBe("NOT_FOUND");
    expect(await refusal(findAlbumBySlugForViewer(db, visitor, members.slug))).toBe("NOT_FOUND");
    const byLink = await findAlbumBySlugForViewer(db, visitor, unlisted.slug);
    expect(byLink.kind === "album" && byLink.album.photoCount).toBe(1);
    // Its owner lists it.
    expect((await listAlbumsForViewer(db, asViewer(alice), { parentId: null })).map((each) => each.id)).toContain(unlisted.id);
    expect((await listAlbumsHoldingPhoto(db, visitor, "a1")).map((crumb) => crumb.slug)).not.toContain(unlisted.slug);
  });

  it("shows each reader of a public album only the photos they may list, and counts only those", async () => {
    const album = await albumOf(alice, "public");
    // In the trash: hidden from everyone, the owner too.
    await db.updateTable("photos").set({ trashed_at: new Date().toISOString() }).where("id", "=", "a7").execute();
    // As the photos lifecycle does after every change: remembered counts drop.
    announcePhotosChanged();
    const expected: Array<[string, Viewer, string[]]> = [
      // Never the private, members-only, unlisted, unfinished or trashed ones for a visitor.
      ["a visitor", visitor, ["a1", "a3", "a8"]],
      ["a member", asViewer(member), ["a1", "a3", "a4", "a8"]],
      ["another editor", asViewer(bob), ["a1", "a3", "a4", "a8"]],
      // The owner: everything but the trash, unfinished photos too.
      ["the owner", asViewer(alice), ["a1", "a2", "a3", "a4", "a5", "a6", "a8"]],
      // Admins: every visibility, but others' photos only once finished, as in the gallery, tags,
      // browse and search (tests/photo-list-access.test.ts); the library shows them the rest.
      ["an admin", asViewer(admin), ["a1", "a2", "a3", "a4", "a5", "a8"]],
    ];
    for (const [who, viewer, ids] of expected) {
      expect(await allPhotoIds(viewer, album.id), who).toEqual(ids);
      const summary = await findAlbumByIdForViewer(db, viewer, album.id);
      expect(summary.photoCount, who).toBe(ids.length);
      expect(summary.cover?.id, who).toBe(ids[0]);
      const listed = (await listAlbumsForViewer(db, viewer, { parentId: null })).find((each) => each.id === album.id);
      expect(listed?.photoCount, who).toBe(ids.length);
    }
    // Counts are remembered, and follow the album's changes at once.
    await removePhotosFromAlbum(db, alice, album.id, ["a3"]);
    expect((await findAlbumByIdForViewer(db, visitor, album.id)).photoCount).toBe(2);
    await addPhotosToAlbum(db, alice, album.id, ["a3"]);
    expect((await findAlbumByIdForViewer(db, visitor, album.id)).photoCount).toBe(3);
    await movePhotoInAlbum(db, alice, album.id, "a3", { after: "a2" });
    // Previous and next skip what the reader may not see.
    expect(await findAlbumNeighbours(db, visitor, album.id, "a3")).toEqual({ previousId: "a1", nextId: "a8" });
    expect(await findAlbumNeighbours(db, asViewer(alice), album.id, "a3")).toEqual({ previousId: "a2", nextId: "a4" });
    expect(await refusal(findAlbumNeighbours(db, visitor, album.id, "a2"))).toBe("NOT_FOUND");
    expect(await refusal(findAlbumNeighbours(db, visitor, album.id, "a7"))).toBe("NOT_FOUND");
  });

  it("lets the first photo a reader may see stand in for a cover hidden from them", async () => {
    const album = await albumOf(alice, "public", ["a2", "a4", "a3", "a1"]);
    await updateAlbum(db, alice, album.id, { coverPhotoId: "a2" });
    const forVisitor = await findAlbumByIdForViewer(db, visitor, album.id);
    expect(forVisitor.cover?.id).toBe("a3");
    expect(forVisitor.coverPhotoId).toBeNull();
    expect((await findAlbumByIdForViewer(db, asViewer(member), album.id)).cover?.id).toBe("a4");
    const forOwner = await findAlbumByIdForViewer(db, asViewer(alice), album.id);
    expect(forOwner.cover?.id).toBe("a2");
    expect(forOwner.coverPhotoId).toBe("a2");
    // No photo the visitor may see: no cover at all.
    const hidden = await albumOf(alice, "public", ["a2", "a5"]);
    expect(await findAlbumByIdForViewer(db, visitor, hidden.id)).toMatchObject({ photoCount: 0, cover: null });
  });

  it("answers an old slug with the current one, and keeps it after a second rename", async () => {
    const album = await createAlbum(db, alice, { title: "Holidays", visibility: "public" });
    expect(album.slug).toBe("holidays");
    await updateAlbum(db, alice, album.id, { slug: "summer-2024" });
    await updateAlbum(db, alice, album.id, { slug: "summer-2024-portugal" });
    expect(await findAlbumBySlugForViewer(db, visitor, "holidays")).toEqual({ kind: "moved", slug: "summer-2024-portugal" });
    expect(await findAlbumBySlugForViewer(db, visitor, "summer-2024")).toEqual({ kind: "moved", slug: "summer-2024-portugal" });
    // A new album made from the same title gets a slug nobody answers to yet.
    expect((await createAlbum(db, alice, { title: "Holidays" })).slug).toBe("holidays-2");
  });

  it("keeps a retired slug with its album: nobody else takes it, its own album takes it back (SECURITY.md 66)", async () => {
    const album = await createAlbum(db, alice, { title: "Wedding", slug: "wedding-66", visibility: "public" });
    await updateAlbum(db, alice, album.id, { slug: "wedding-66-final" });
    const bobs = await createAlbum(db, bob, { title: "Bob's", visibility: "public" });
    expect(await refusal(createAlbum(db, bob, { title: "Mine", slug: "wedding-66" }))).toBe("CONFLICT");
    expect(await refusal(updateAlbum(db, bob, bobs.id, { slug: "wedding-66" }))).toBe("CONFLICT");
    expect(await refusal(createAlbum(db, alice, { title: "Another", slug: "wedding-66" }))).toBe("CONFLICT");
    expect(await findAlbumBySlugForViewer(db, visitor, "wedding-66")).toEqual({ kind: "moved", slug: "wedding-66-final" });
    // Its own album may have it back: its address again, and the later one now redirects.
    await updateAlbum(db, alice, album.id, { slug: "wedding-66" });
    expect(await findAlbumBySlugForViewer(db, visitor, "wedding-66")).toMatchObject({ kind: "album" });
    expect(await findAlbumBySlugForViewer(db, visitor, "wedding-66-final")).toEqual({ kind: "moved", slug: "wedding-66" });
  });
});

describe("nesting", () => {
  it("nests four levels deep with breadcrumbs, and refuses a fifth level and cycles", async () => {
    const top = await createAlbum(db, alice, { title: "Travel", visibility: "public" });
    const second = await createAlbum(db, alice, { title: "Europe", visibility: "public", parentId: top.id });
    const third = await createAlbum(db, alice, { title: "Portugal", visibility: "private", parentId: second.id });
    const fourth = await createAlbum(db, alice, { title: "Lisbon", visibility: "public", parentId: third.id });
    expect(await refusal(createAlbum(db, alice, { title: "Alfama", parentId: fourth.id }))).toBe("INVALID_INPUT");
    expect(await refusal(updateAlbum(db, alice, top.id, { parentId: fourth.id }))).toBe("INVALID_INPUT");
    expect(await refusal(updateAlbum(db, alice, top.id, { parentId: top.id }))).toBe("INVALID_INPUT");
    // Moving a two-level branch under the third level would make five.
    const branch = await createAlbum(db, alice, { title: "Branch", visibility: "public" });
    await createAlbum(db, alice, { title: "Leaf", visibility: "public", parentId: branch.id });
    expect(await refusal(updateAlbum(db, alice, branch.id, { parentId: third.id }))).toBe("INVALID_INPUT");
    await updateAlbum(db, alice, branch.id, { parentId: second.id });

    const forOwner = await findAlbumBySlugForViewer(db, asViewer(alice), fourth.slug);
    expect(forOwner.kind === "album" && forOwner.breadcrumbs.map((crumb) => crumb.title)).toEqual(["Travel", "Europe", "Portugal"]);
    // A visitor does not learn of the private level, nor what is above it.
    const forVisitor = await findAlbumBySlugForViewer(db, visitor, fourth.slug);
    expect(forVisitor.kind === "album" && forVisitor.breadcrumbs).toEqual([]);
    const europe = await findAlbumBySlugForViewer(db, visitor, second.slug);
    expect(europe.kind === "album" && europe.children.map((child) => child.title)).toEqual(["Branch"]);
    expect((await listAlbumsForViewer(db, asViewer(alice), { parentId: second.id })).map((child) => child.title)).toEqual(["Portugal", "Branch"]);
    // Bob may not hang his albums under Alice's.
    expect(await refusal(createAlbum(db, bob, { title: "Mine", parentId: top.id }))).toBe("FORBIDDEN");

    // Deleting a parent keeps its photos and makes its children top-level albums.
    await addPhotosToAlbum(db, alice, second.id, ["a1"]);
    await deleteAlbum(db, alice, second.id);
    expect((await findAlbumByIdForViewer(db, asViewer(alice), third.id)).parentId).toBeNull();
    expect(await db.selectFrom("photos").select("id").where("id", "=", "a1").executeTakeFirst()).toBeDefined();
  });
});

describe("sorts other than manual", () => {
  it("page by date taken and by upload time, both ways", async () => {
    const album = await albumOf(alice, "public", ["a8", "a1", "a3"]);
    expect(await allPhotoIds(visitor, album.id)).toEqual(["a8", "a1", "a3"]);
    const orders: Array<[string, string[]]> = [
      ["taken-desc", ["a1", "a3", "a8"]],
      ["taken-asc", ["a8", "a3", "a1"]],
      ["uploaded-desc", ["a8", "a3", "a1"]],
      ["uploaded-asc", ["a1", "a3", "a8"]],
    ];
    for (const [sort, ids] of orders) {
      await updateAlbum(db, alice, album.id, { sort: sort as AlbumSummary["sort"] });
      expect(await allPhotoIds(visitor, album.id, 1), sort).toEqual(ids);
      expect(await findAlbumNeighbours(db, visitor, album.id, ids[1]), sort).toEqual({ previousId: ids[0], nextId: ids[2] });
    }
  });

  it("follow a photo's date taken when processing changes it", async () => {
    const album = await albumOf(alice, "public", ["a1", "a3"]);
    await updateAlbum(db, alice, album.id, { sort: "taken-asc" });
    expect(await allPhotoIds(visitor, album.id)).toEqual(["a3", "a1"]);
    await db.updateTable("photos").set({ sort_at: "2000-01-01T00:00:00.000Z" }).where("id", "=", "a1").execute();
    announcePhotosChanged();
    expect(await allPhotoIds(visitor, album.id)).toEqual(["a1", "a3"]);
  });
});

describe("bad input changes nothing", () => {
  async function snapshot() {
    const [albums, albumPhotos, audit] = await Promise.all([
      db.selectFrom("albums").selectAll().orderBy("id").execute(),
      db.selectFrom("album_photos").selectAll().orderBy("album_id").orderBy("photo_id").execute(),
      db.selectFrom("audit_log").select("id").execute(),
    ]);
    return { albums, albumPhotos, audit: audit.length };
  }

  it("refuses with the right code and writes nothing", async () => {
    const album = await albumOf(alice, "public", ["a1", "a3"]);
    const other = await albumOf(alice, "public", []);
    const before = await snapshot();
    const cases: Array<[string, () => Promise<unknown>, string]> = [
      ["unknown album", () => findAlbumByIdForViewer(db, asViewer(alice), "no-such-album"), "NOT_FOUND"],
      ["unknown album (change)", () => updateAlbum(db, alice, "no-such-album", { title: "x" }), "NOT_FOUND"],
      ["bad slug", () => updateAlbum(db, alice, album.id, { slug: "Not A Slug!" }), "INVALID_INPUT"],
      ["bad slug (new)", () => createAlbum(db, alice, { title: "x", slug: "-x-" }), "INVALID_INPUT"],
      ["empty title", () => createAlbum(db, alice, { title: "   " }), "INVALID_INPUT"],
      ["duplicate slug", () => updateAlbum(db, alice, other.id, { slug: album.slug }), "CONFLICT"],
      ["duplicate slug (new)", () => createAlbum(db, alice, { title: "x", slug: album.slug }), "CONFLICT"],
      ["move next to a photo not in it", () => movePhotoInAlbum(db, alice, album.id, "a1", { after: "a8" }), "INVALID_INPUT"],
      ["move a photo not in it", () => movePhotoInAlbum(db, alice, album.id, "a8", { after: null }), "INVALID_INPUT"],
      ["move next to itself", () => movePhotoInAlbum(db, alice, album.id, "a1", { before: "a1" }), "INVALID_INPUT"],
      ["add someone else's private photo", () => addPhotosToAlbum(db, alice, album.id, ["a8", "b1"]), "NOT_FOUND"],
      ["add a trashed photo", () => addPhotosToAlbum(db, alice, album.id, ["a8", "a7"]), "NOT_FOUND"],
      ["add an unknown photo", () => addPhotosToAlbum(db, alice, album.id, ["a8", "nope"]), "NOT_FOUND"],
      ["add someone else's public photo", () => addPhotosToAlbum(db, alice, album.id, ["a8", "b2"]), "FORBIDDEN"],
      ["remove someone else's private photo", () => removePhotosFromAlbum(db, alice, album.id, ["a1", "b1"]), "NOT_FOUND"],
      ["add too many", () => addPhotosToAlbum(db, alice, album.id, Array.from({ length: 501 }, (_, index) => `p${index}`)), "INVALID_INPUT"],
      ["a cover not in the album", () => updateAlbum(db, alice, album.id, { coverPhotoId: "a8" }), "INVALID_INPUT"],
      ["an unknown parent", () => updateAlbum(db, alice, album.id, { parentId: "no-such-album" }), "NOT_FOUND"],
      ["a viewer making an album", () => createAlbum(db, member, { title: "x" }), "FORBIDDEN"],
      ["a viewer changing a public album", () => updateAlbum(db, member, album.id, { title: "x" }), "FORBIDDEN"],
      ["another editor changing a public album", () => addPhotosToAlbum(db, bob, album.id, ["b2"]), "FORBIDDEN"],
      ["a bad cursor", () => listAlbumPhotosForViewer(db, visitor, album.id, { cursor: "bm9wZQ" }), "BAD_REQUEST"],
    ];
    for (const [what, attempt, code] of cases) expect(await refusal(attempt()), what).toBe(code);
    expect(await snapshot()).toEqual(before);
  });
});

describe("the audit log", () => {
  it("has exactly one row with before and after for every change", async () => {
    const album = await createAlbum(db, alice, { title: "Audited", visibility: "members" });
    const steps: Array<[string, () => Promise<unknown>]> = [
      ["album.update", () => updateAlbum(db, alice, album.id, { title: "Audited again", visibility: "public" })],
      ["album.photos-add", () => addPhotosToAlbum(db, alice, album.id, ["a1", "a3", "a8"])],
      ["album.reorder", () => movePhotoInAlbum(db, alice, album.id, "a8", { after: null })],
      ["album.reorder", () => movePhotoInAlbum(db, admin, album.id, "a1", { position: 2 })],
      ["album.update", () => updateAlbum(db, alice, album.id, { coverPhotoId: "a3" })],
      ["album.photos-remove", () => removePhotosFromAlbum(db, alice, album.id, ["a3"])],
      ["album.delete", () => deleteAlbum(db, alice, album.id)],
    ];
    expect((await auditRows(album.id)).map((row) => row.action)).toEqual(["album.create"]);
    for (const [index, [action, step]] of steps.entries()) {
      await step();
      const rows = await auditRows(album.id);
      expect(rows, action).toHaveLength(index + 2);
      const row = rows[rows.length - 1];
      expect(row.action).toBe(action);
      expect(row.details).toHaveProperty("before");
      expect(row.details).toHaveProperty("after");
    }
    const rows = await auditRows(album.id);
    expect(rows[1].details).toMatchObject({ before: { title: "Audited", visibility: "members" }, after: { title: "Audited again", visibility: "public" } });
    expect(rows[3].actorId).toBe(alice.id);
    expect(rows[4].actorId).toBe(admin.id);
    // Taking the cover out of the album clears it.
    expect(rows[6].details).toMatchObject({ before: { coverPhotoId: "a3" }, after: { removed: 1, coverPhotoId: null } });
    expect(rows[7].details).toMatchObject({ before: { title: "Audited again", photoCount: 2 }, after: null });
  });
});
