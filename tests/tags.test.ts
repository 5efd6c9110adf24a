// Tags: one tag per NFC, case-folded key whatever the spelling (the first spelling shown), counts
// and pages only of photos the viewer may list, admin rename and merge, and refusals that leave
// nothing half-written. The rules run against a fresh database of the run's kind through the
// service; the API's answers (statuses, scopes, messages) against the test server.
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ANONYMOUS_VIEWER, type SessionUser, toViewer } from "@/src/access/viewer";
import type { Database, Visibility } from "@/src/db/database";
import { AppError } from "@/src/errors/app-error";
import { insertPhoto } from "@/src/photos/photos.repository";
import {
  addTagsToPhotos,
  listTagPhotosForViewer,
  listTagsForPhoto,
  listTagsForViewer,
  mergeTags,
  removeTagsFromPhotos,
  renameTag,
  setPhotoTags,
  suggestTags,
  tagPhotoFromItsFile,
} from "@/src/tags/tags.service";
import { buildNewUser, insertUser } from "@/src/users/users.repository";
import { openFreshDatabase, openTestDatabase } from "./helpers/test-database";
import { createTestUser, signedInAdmin, signedInAs, TestClient } from "./helpers/test-client";

let db: Kysely<Database>;
let remove: () => Promise<void>;
let admin: SessionUser;
let alice: SessionUser;
let bob: SessionUser;
let member: SessionUser;
let photoCounter = 0;

async function makeUser(role: SessionUser["role"], name: string): Promise<SessionUser> {
  const row = buildNewUser({ email: `${name}-${Date.now()}@example.test`, name, role, passwordHash: null, now: new Date().toISOString() });
  await insertUser(db, row);
  return { id: row.id, email: row.email, name: row.name, role };
}

async function makePhoto(
  handle: Kysely<Database>,
  ownerId: string,
  visibility: Visibility,
  options: { status?: "ready" | "processing"; sortAt?: string; trashed?: boolean } = {},
): Promise<string> {
  photoCounter += 1;
  const id = `tags-photo-${Date.now()}-${photoCounter}`;
  const sortAt = options.sortAt ?? new Date(Date.UTC(2020, 0, 1) + photoCounter * 60_000).toISOString();
  await insertPhoto(handle, {
    id,
    owner_id: ownerId,
    sha256: id,
    status: options.status ?? "ready",
    visibility,
    original_key: `originals/${id}`,
    original_name: `${id}.jpg`,
    original_type: "image/jpeg",
    original_size: 1000,
    width: 300,
    height: 200,
    sort_at: sortAt,
    created_at: sortAt,
    updated_at: sortAt,
    ...(options.trashed ? { trashed_at: new Date().toISOString() } : {}),
  });
  return id;
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return "OK";
}

async function countRows(table: "tags" | "photo_tags" | "audit_log"): Promise<number> {
  const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<string | number>().as("count")).executeTakeFirstOrThrow();
  return Number(row.count);
}

async function auditRows(action: string) {
  const rows = await db.selectFrom("audit_log").selectAll().where("action", "=", action).orderBy("created_at").execute();
  return rows.map((row) => ({ ...row, details: JSON.parse(row.details) as Record<string, unknown> }));
}

beforeAll(async () => {
  ({ db, remove } = await openFreshDatabase(inject("databaseKind")));
  admin = await makeUser("admin", "tags-admin");
  alice = await makeUser("editor", "tags-alice");
  bob = await makeUser("editor", "tags-bob");
  member = await makeUser("viewer", "tags-member");
});
afterAll(() => remove());

describe("tag names", () => {
  it("makes one tag of composed, decomposed and upper-case spellings, shown as first spelled", async () => {
    const [first, second, third] = [await makePhoto(db, alice.id, "public"), await makePhoto(db, alice.id, "public"), await makePhoto(db, bob.id, "public")];
    await setPhotoTags(db, alice, first, ["Café"]);
    await setPhotoTags(db, toViewer(alice), second, ["Cafe\u0301", "  café  "]);
    await setPhotoTags(db, bob, third, ["CAFÉ"]);
    const tags = await db.selectFrom("tags").selectAll().where("key", "=", "café").execute();
    expect(tags).toHaveLength(1);
    expect(tags[0].name).toBe("Café");
    expect((await listTagsForPhoto(db, ANONYMOUS_VIEWER, third)).map((tag) => tag.name)).toEqual(["Café"]);
    for (const address of ["café", "CAFÉ", "Cafe\u0301", "Café"]) {
      const page = await listTagPhotosForViewer(db, ANONYMOUS_VIEWER, address, { limit: 10 });
      expect(page.tag.name, address).toBe("Café");
      expect(page.photos.map((photo) => photo.id).sort(), address).toEqual([first, second, third].sort());
    }
    expect((await listTagsForViewer(db, ANONYMOUS_VIEWER)).find((tag) => tag.key === "café")).toMatchObject({ name: "Café", count: 3, path: "/tags/caf%C3%A9" });
  });
});

describe("who sees which tags", () => {
  it("never shows a tag whose only photos are someone else's private ones, nor counts them", async () => {
    const bobsPrivate = await makePhoto(db, bob.id, "private");
    const bobsPublic = await makePhoto(db, bob.id, "public");
    await setPhotoTags(db, bob, bobsPrivate, ["Secret place", "Harbour"]);
    await setPhotoTags(db, bob, bobsPublic, ["Harbour"]);

    for (const [who, viewer] of [["a visitor", ANONYMOUS_VIEWER], ["another editor", toViewer(alice)], ["a member", toViewer(member)]] as const) {
      const tags = await listTagsForViewer(db, viewer);
      expect(tags.map((tag) => tag.name), who).not.toContain("Secret place");
      expect(tags.find((tag) => tag.name === "Harbour")?.count, who).toBe(1);
      expect(await codeOf(listTagPhotosForViewer(db, viewer, "secret place", { limit: 10 })), who).toBe("NOT_FOUND");
      expect((await listTagPhotosForViewer(db, viewer, "harbour", { limit: 10 })).photos.map((photo) => photo.id), who).toEqual([bobsPublic]);
      expect(await codeOf(listTagsForPhoto(db, viewer, bobsPrivate)), who).toBe("NOT_FOUND");
    }
    expect((await suggestTags(db, alice, "se", 10)).map((tag) => tag.name)).not.toContain("Secret place");
    expect((await suggestTags(db, bob, "SE", 10)).map((tag) => tag.name)).toContain("Secret place");
    expect((await listTagsForViewer(db, bob)).find((tag) => tag.name === "Harbour")?.count).toBe(2);
    expect((await listTagsForViewer(db, admin)).find((tag) => tag.name === "Secret place")?.count).toBe(1);
  });

  it("counts members-only photos for signed-in viewers, not visitors; never unlisted, unfinished or trashed ones of others; the owner's own unfinished ones for the owner", async () => {
    const photos = [
      await makePhoto(db, alice.id, "public"),
      await makePhoto(db, alice.id, "members"),
      await makePhoto(db, alice.id, "unlisted"),
      await makePhoto(db, alice.id, "public", { status: "processing" }),
      await makePhoto(db, alice.id, "public", { trashed: true }),
    ];
    // Trashed photos cannot be tagged (they are gone for everyone); tag it before it went.
    await addTagsToPhotos(db, alice, photos.slice(0, 4), ["Meadow"]);
    await db.insertInto("photo_tags").values({ photo_id: photos[4], tag_id: (await db.selectFrom("tags").select("id").where("key", "=", "meadow").executeTakeFirstOrThrow()).id, sort_at: "2020-01-01T00:00:00.000Z" }).execute();
    const countFor = async (viewer: Parameters<typeof listTagsForViewer>[1]) => (await listTagsForViewer(db, viewer)).find((tag) => tag.name === "Meadow")?.count;
    expect(await countFor(ANONYMOUS_VIEWER)).toBe(1);
    expect(await countFor(member)).toBe(2);
    expect(await countFor(bob)).toBe(2);
    // The owner counts their own photos in any state, as the gallery, browse and search list them
    // (tests/photo-list-access.test.ts); admins every visibility, but others' only once finished.
    expect(await countFor(alice)).toBe(4);
    expect(await countFor(admin)).toBe(3);
    expect((await listTagPhotosForViewer(db, alice, "meadow", { limit: 10 })).photos.map((photo) => photo.id).sort()).toEqual(photos.slice(0, 4).sort());
    expect((await listTagPhotosForViewer(db, member, "meadow", { limit: 10 })).photos.map((photo) => photo.id).sort()).toEqual(photos.slice(0, 2).sort());
    expect(await codeOf(setPhotoTags(db, alice, photos[4], ["Meadow"]))).toBe("NOT_FOUND");
  });
});

describe("a tag's page", () => {
  it("pages through the tag's photos in gallery order, following a changed date", async () => {
    const ids: string[] = [];
    for (let index = 0; index < 7; index += 1) ids.push(await makePhoto(db, alice.id, "public", { sortAt: `2019-05-0${index + 1}T00:00:00.000Z` }));
    await addTagsToPhotos(db, alice, ids, ["Paging"]);
    // Processing reads the date taken and moves the photo: the tag's copy of sort_at follows.
    await db.updateTable("photos").set({ sort_at: "2030-01-01T00:00:00.000Z" }).where("id", "=", ids[0]).execute();
    const expected = [ids[0], ...ids.slice(1).reverse()];
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listTagPhotosForViewer(db, ANONYMOUS_VIEWER, "Paging", { limit: 3, cursor });
      seen.push(...page.photos.map((photo) => photo.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(expected);
    expect(await codeOf(listTagPhotosForViewer(db, ANONYMOUS_VIEWER, "no such tag", { limit: 3 }))).toBe("NOT_FOUND");
    expect(await codeOf(listTagPhotosForViewer(db, ANONYMOUS_VIEWER, "Paging", { limit: 3, cursor: "bm90LWEtY3Vyc29y" }))).toBe("BAD_REQUEST");
  });
});

describe("changing tags", () => {
  it("sets, adds and removes, each with one photo.tags audit row holding before and after", async () => {
    const [one, two] = [await makePhoto(db, alice.id, "private"), await makePhoto(db, alice.id, "private")];
    const before = (await auditRows("photo.tags")).length;
    expect((await setPhotoTags(db, alice, one, ["Dawn", "dusk", "DAWN"])).map((tag) => tag.name)).toEqual(["Dawn", "dusk"]);
    await addTagsToPhotos(db, alice, [one, two], ["Fog"]);
    await removeTagsFromPhotos(db, alice, [one, two], ["dawn", "never was a tag"]);
    expect((await listTagsForPhoto(db, alice, one)).map((tag) => tag.name)).toEqual(["dusk", "Fog"]);
    expect((await listTagsForPhoto(db, alice, two)).map((tag) => tag.name)).toEqual(["Fog"]);
    const rows = (await auditRows("photo.tags")).slice(before);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({ actor_id: alice.id, target_id: one, details: { before: { tags: [] }, after: { tags: ["Dawn", "dusk"] } } });
    expect(rows[2].details).toMatchObject({ before: { tags: { [one]: ["Dawn", "dusk", "Fog"] } }, after: { tags: { [one]: ["dusk", "Fog"], [two]: ["Fog"] } } });
    expect(await setPhotoTags(db, admin, two, [])).toEqual([]);
  });

  it("makes a file's keywords tags once, and never on top of a whole list the owner set, even at the same moment", async () => {
    const names = async (id: string) => (await listTagsForPhoto(db, alice, id)).map((tag) => tag.name);
    const fresh = await makePhoto(db, alice.id, "private", { status: "processing" });
    await tagPhotoFromItsFile(db, fresh, ["Meadow", "Overlook"]);
    // A retry or a reprocess that read the photo before the first one marked it.
    await tagPhotoFromItsFile(db, fresh, ["Again"]);
    expect(await names(fresh)).toEqual(["Meadow", "Overlook"]);

    // An imported export's sidecar sets the list before processing gets to the file's keywords.
    const setFirst = await makePhoto(db, alice.id, "private", { status: "processing" });
    await setPhotoTags(db, alice, setFirst, ["Mine"]);
    await tagPhotoFromItsFile(db, setFirst, ["Overlook"]);
    expect(await names(setFirst)).toEqual(["Mine"]);

    // Both at once (on PostgreSQL, two connections): whichever goes first, the owner's list is what stays.
    const racing = await Promise.all([1, 2, 3, 4, 5].map(() => makePhoto(db, alice.id, "private", { status: "processing" })));
    await Promise.all(racing.flatMap((id) => [tagPhotoFromItsFile(db, id, ["Overlook", "Place"]), setPhotoTags(db, alice, id, ["Mine"])]));
    for (const id of racing) expect(await names(id)).toEqual(["Mine"]);
  });

  it("refuses bad names, others' photos and viewers with nothing half-written", async () => {
    const mine = await makePhoto(db, alice.id, "public");
    const bobs = await makePhoto(db, bob.id, "public");
    await setPhotoTags(db, alice, mine, ["Kept"]);
    const counts = async () => [await countRows("tags"), await countRows("photo_tags"), await countRows("audit_log")];
    const start = await counts();
    expect(await codeOf(setPhotoTags(db, alice, mine, ["Fine", "   "]))).toBe("INVALID_INPUT");
    expect(await codeOf(setPhotoTags(db, alice, mine, ["Fine", "x".repeat(65)]))).toBe("INVALID_INPUT");
    expect(await codeOf(setPhotoTags(db, alice, bobs, ["Mine now"]))).toBe("NOT_FOUND");
    expect(await codeOf(setPhotoTags(db, alice, "no-such-photo", ["Mine now"]))).toBe("NOT_FOUND");
    expect(await codeOf(setPhotoTags(db, member, mine, ["Viewer"]))).toBe("NOT_FOUND");
    expect(await codeOf(addTagsToPhotos(db, alice, [mine, bobs], ["Half"]))).toBe("NOT_FOUND");
    expect(await codeOf(removeTagsFromPhotos(db, alice, [mine, bobs], ["Kept"]))).toBe("NOT_FOUND");
    expect(await counts()).toEqual(start);
    expect((await listTagsForPhoto(db, alice, mine)).map((tag) => tag.name)).toEqual(["Kept"]);
  });
});

describe("renaming and merging (admins)", () => {
  it("renames, allows a new spelling of the same tag, and refuses another tag's name with 409", async () => {
    const photo = await makePhoto(db, alice.id, "public");
    const [street, road] = await setPhotoTags(db, alice, photo, ["strasse", "Road"]).then((tags) => [tags.find((tag) => tag.key === "strasse")!, tags.find((tag) => tag.key === "road")!]);
    expect(await renameTag(db, admin, street.id, "Straße")).toMatchObject({ name: "Straße", key: "strasse" });
    expect(await codeOf(renameTag(db, admin, road.id, "STRASSE"))).toBe("CONFLICT");
    expect(await codeOf(renameTag(db, alice, road.id, "Lane"))).toBe("FORBIDDEN");
    expect(await codeOf(renameTag(db, admin, "no-such-tag", "Lane"))).toBe("NOT_FOUND");
    expect(await codeOf(renameTag(db, admin, road.id, ""))).toBe("INVALID_INPUT");
    expect(await renameTag(db, admin, road.id, "Lane")).toMatchObject({ name: "Lane", key: "lane", path: "/tags/lane" });
    expect(await codeOf(listTagPhotosForViewer(db, ANONYMOUS_VIEWER, "road", { limit: 5 }))).toBe("NOT_FOUND");
    const [renamed] = (await auditRows("tag.rename")).filter((row) => row.target_id === road.id);
    expect(renamed.details).toEqual({ before: { name: "Road", key: "road" }, after: { name: "Lane", key: "lane" } });
  });

  it("merges: photos with both tags keep one row, the sources are gone, one tag.merge row", async () => {
    const [both, onlySource, onlyTarget] = [await makePhoto(db, alice.id, "public"), await makePhoto(db, alice.id, "public"), await makePhoto(db, bob.id, "public")];
    const [target] = await setPhotoTags(db, alice, both, ["Sea", "Ocean"]).then((tags) => [tags.find((tag) => tag.name === "Sea")!]);
    await setPhotoTags(db, alice, onlySource, ["ocean", "Oceans"]);
    await setPhotoTags(db, bob, onlyTarget, ["sea"]);
    const sources = await db.selectFrom("tags").select("id").where("key", "in", ["ocean", "oceans"]).execute();
    expect(await codeOf(mergeTags(db, alice, sources.map((tag) => tag.id), target.id))).toBe("FORBIDDEN");
    expect(await codeOf(mergeTags(db, admin, ["no-such-tag"], target.id))).toBe("NOT_FOUND");
    expect(await codeOf(mergeTags(db, admin, [target.id], target.id))).toBe("INVALID_INPUT");
    const merged = await mergeTags(db, admin, sources.map((tag) => tag.id), target.id);
    expect(merged).toMatchObject({ name: "Sea", count: 3 });
    expect(await db.selectFrom("tags").select("id").where("key", "in", ["ocean", "oceans"]).execute()).toEqual([]);
    expect((await listTagsForPhoto(db, alice, both)).map((tag) => tag.name)).toEqual(["Sea"]);
    expect((await listTagsForPhoto(db, alice, onlySource)).map((tag) => tag.name)).toEqual(["Sea"]);
    const [row] = (await auditRows("tag.merge")).filter((entry) => entry.target_id === target.id);
    expect(row.details).toMatchObject({ before: { target: { name: "Sea", photos: 2 }, sources: expect.arrayContaining([expect.objectContaining({ name: "Ocean", photos: 2 })]) }, after: { target: { name: "Sea", photos: 3 } } });
  });
});

describe("the tags API", () => {
  async function errorOf(response: Response): Promise<{ code: string; message: string }> {
    return ((await response.json()) as { error: { code: string; message: string } }).error;
  }

  it("sets a photo's tags, refuses bad input and others' photos, and answers counts and suggestions", async () => {
    const server = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
    try {
      const { client, user } = await signedInAs("editor");
      const other = await signedInAs("editor");
      const mine = await makePhoto(server, user.id, "public");
      const theirs = await makePhoto(server, other.user.id, "private");

      const put = (id: string, names: unknown, who: TestClient = client) => who.request(`/api/photos/${id}/tags`, { method: "PUT", body: { json: { names } } });
      const set = await put(mine, ["Café", "Cafe\u0301", "Night"]);
      expect(set.status).toBe(200);
      expect(((await set.json()) as { tags: Array<{ name: string }> }).tags.map((tag) => tag.name)).toEqual(["Café", "Night"]);

      const empty = await put(mine, [" "]);
      expect(empty.status).toBe(422);
      expect((await errorOf(empty)).message).toMatch(/empty/);
      expect((await put(mine, ["x".repeat(65)])).status).toBe(422);
      expect((await put(mine, "Café")).status).toBe(422);
      expect((await put(theirs, ["Mine"])).status).toBe(404);
      expect((await put("no-such-photo", ["Mine"])).status).toBe(404);
      expect((await (await client.request(`/api/photos/${mine}/tags`)).json()) as unknown).toMatchObject({ tags: [{ name: "Café" }, { name: "Night" }] });
      expect((await client.request(`/api/photos/${theirs}/tags`)).status).toBe(404);

      await put(theirs, ["Hidden thing"], other.client);
      // The pages say nothing of it either, to visitors or other users (SECURITY 43).
      for (const who of [new TestClient(), client]) {
        const list = await who.request("/tags");
        expect(list.status).toBe(200);
        const html = await list.text();
        expect(html).toContain("Night");
        expect(html).not.toContain("Hidden thing");
        expect((await who.request("/tags/hidden%20thing")).status).toBe(404);
        const page = await who.request("/tags/night");
        expect(page.status).toBe(200);
        expect(await page.text()).toContain(mine);
      }
      expect((await other.client.request("/tags/Hidden%20Thing")).status).toBe(308);
      expect((await other.client.request("/tags/hidden%20thing")).status).toBe(200);
      const tags = (await (await client.request("/api/tags")).json()) as { tags: Array<{ name: string; count: number }> };
      expect(tags.tags.map((tag) => tag.name)).toContain("Café");
      expect(tags.tags.map((tag) => tag.name)).not.toContain("Hidden thing");
      const suggested = (await (await client.request("/api/tags/suggest?q=CAF")).json()) as { tags: Array<{ name: string }> };
      expect(suggested.tags.map((tag) => tag.name)).toEqual(["Café"]);
      expect((await client.request("/api/tags/suggest?q=hid")).status).toBe(200);
      expect(((await (await client.request("/api/tags/suggest?q=hid")).json()) as { tags: unknown[] }).tags).toEqual([]);
      expect((await new TestClient().request("/api/tags")).status).toBe(401);

      const bulk = await client.request("/api/tags/photos", { body: { json: { action: "add", photoIds: [mine, theirs], names: ["Bulk"] } } });
      expect(bulk.status).toBe(404);
      expect((await client.request(`/api/photos/${mine}/tags`).then((response) => response.json())) as unknown).toMatchObject({ tags: [{ name: "Café" }, { name: "Night" }] });
    } finally {
      await server.destroy();
    }
  });

  it("lets admins rename (409 on another tag's name) and merge; others get 403", async () => {
    const server = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
    try {
      const adminClient = await signedInAdmin();
      const editor = await createTestUser(adminClient, "editor");
      const editorClient = new TestClient();
      await editorClient.signIn(editor.email, editor.password);
      const photo = await makePhoto(server, editor.id, "public");
      const answer = await editorClient.request(`/api/photos/${photo}/tags`, { method: "PUT", body: { json: { names: ["Api one", "Api two"] } } });
      const [one, two] = ((await answer.json()) as { tags: Array<{ id: string; name: string }> }).tags;

      expect((await editorClient.request(`/api/tags/${one.id}`, { method: "PATCH", body: { json: { name: "Nope" } } })).status).toBe(403);
      const conflict = await adminClient.request(`/api/tags/${one.id}`, { method: "PATCH", body: { json: { name: "API TWO" } } });
      expect(conflict.status).toBe(409);
      expect((await errorOf(conflict)).message).toMatch(/Merge/);
      expect((await adminClient.request("/api/tags/no-such-tag", { method: "PATCH", body: { json: { name: "X" } } })).status).toBe(404);
      const renamed = await adminClient.request(`/api/tags/${one.id}`, { method: "PATCH", body: { json: { name: "API One" } } });
      expect(renamed.status).toBe(200);
      expect(((await renamed.json()) as { tag: { name: string } }).tag.name).toBe("API One");

      const merged = await adminClient.request("/api/tags/merge", { body: { json: { sourceIds: [two.id], targetId: one.id } } });
      expect(merged.status).toBe(200);
      expect(((await merged.json()) as { tag: { name: string; count: number } }).tag).toMatchObject({ name: "API One", count: 1 });
      expect((await server.selectFrom("photo_tags").select("tag_id").where("photo_id", "=", photo).execute()).map((row) => row.tag_id)).toEqual([one.id]);
      expect((await server.selectFrom("audit_log").select("action").where("target_id", "=", one.id).execute()).map((row) => row.action).sort()).toEqual(["tag.merge", "tag.rename"]);
    } finally {
      await server.destroy();
    }
  });
});
