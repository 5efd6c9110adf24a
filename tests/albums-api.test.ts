// The albums API over HTTP against the built app: who gets what (SECURITY.md 40: 404 for every verb
// on an album the caller may not see), token scopes, bad input with its status and nothing written,
// one audit row per change, and parallel reorders that never lose or duplicate a photo.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { albumListResponseSchema, albumPhotosResponseSchema, albumResponseSchema } from "@/src/albums/albums-api.schemas";
import type { Visibility } from "@/src/db/database";
import { bearer, createApiToken } from "./helpers/api-tokens";
import { openTestDatabase } from "./helpers/test-database";
import { signedInAs, type TestClient, TestClient as Client, type TestUser } from "./helpers/test-client";

const db = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
afterAll(() => db.destroy());

let alice: { client: TestClient; user: TestUser };
let bob: { client: TestClient; user: TestUser };
let member: { client: TestClient; user: TestUser };
let run: string;

async function insertPhotos(ownerId: string, photos: Array<{ id: string; visibility: Visibility }>): Promise<void> {
  const now = new Date().toISOString();
  await db
    .insertInto("photos")
    .values(
      photos.map((photo, index) => {
        // Dated long before any corpus photo, so these public rows never push another test's photo
        // off the first page of the gallery or the feeds in the shared database.
        const at = new Date(Date.UTC(1990, 0, 1) + index * 60_000).toISOString();
        return {
          id: photo.id, owner_id: ownerId, sha256: photo.id, status: "ready" as const, visibility: photo.visibility, original_key: `originals/${photo.id}`,
          original_name: `${photo.id}.jpg`, original_type: "image/jpeg", original_size: 1, width: 300, height: 200, sort_at: at, created_at: at, updated_at: now,
        };
      }),
    )
    .execute();
}

const json = (value: unknown) => ({ body: { json: value } });
async function errorCode(response: Response): Promise<string> {
  return ((await response.json()) as { error: { code: string } }).error.code;
}
async function auditCount(targetId: string): Promise<number> {
  return (await db.selectFrom("audit_log").select("id").where("target_id", "=", targetId).execute()).length;
}
async function albumRows(albumId: string) {
  return db.selectFrom("album_photos").select(["photo_id", "order_key"]).where("album_id", "=", albumId).orderBy("order_key").execute();
}

const photo = (name: string) => `${run}-${name}`;

beforeAll(async () => {
  run = `api${Date.now().toString(36)}`;
  alice = await signedInAs("editor");
  bob = await signedInAs("editor");
  member = await signedInAs("viewer");
  await insertPhotos(alice.user.id, [
    ...Array.from({ length: 30 }, (_, index) => ({ id: photo(`a${index}`), visibility: "public" as const })),
    { id: photo("a-private"), visibility: "private" },
  ]);
  await insertPhotos(bob.user.id, [
    { id: photo("b-private"), visibility: "private" },
    { id: photo("b-public"), visibility: "public" },
  ]);
}, 60_000);

async function createAlbum(client: TestClient, body: Record<string, unknown>): Promise<{ id: string; slug: string }> {
  const response = await client.request("/api/albums", json(body));
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { album: { id: string; slug: string } }).album;
}

describe("the albums API", () => {
  it("creates, fills, reads, reorders and deletes an album, one audit row per change", async () => {
    const album = await createAlbum(alice.client, { title: `Walks ${run}`, visibility: "public" });
    expect(await auditCount(album.id)).toBe(1);
    const ids = [photo("a0"), photo("a1"), photo("a2"), photo("a-private")];
    let response = await alice.client.request(`/api/albums/${album.id}/photos`, json({ photoIds: ids }));
    expect(await response.json()).toEqual({ added: 4 });
    response = await alice.client.request(`/api/albums/${album.id}/photos`, { method: "PATCH", ...json({ photoId: photo("a2"), after: null }) });
    expect(response.status).toBe(204);
    response = await alice.client.request(`/api/albums/${album.id}/photos`, { method: "PATCH", ...json({ photoId: photo("a0"), position: 2 }) });
    expect(response.status).toBe(204);
    response = await alice.client.request(`/api/albums/${album.id}`, { method: "PATCH", ...json({ coverPhotoId: photo("a-private"), title: "Walks" }) });
    expect(response.status).toBe(200);
    expect(await auditCount(album.id)).toBe(5);

    const page = (await (await alice.client.request(`/api/albums/${album.id}/photos?limit=2`)).json()) as { photos: Array<{ id: string }>; nextCursor: string };
    expect(page.photos.map((each) => each.id)).toEqual([photo("a2"), photo("a1")]);
    const rest = (await (await alice.client.request(`/api/albums/${album.id}/photos?limit=2&cursor=${page.nextCursor}`)).json()) as { photos: Array<{ id: string }> };
    expect(rest.photos.map((each) => each.id)).toEqual([photo("a0"), photo("a-private")]);

    // Real answers match the documented schemas (the OpenAPI document is generated from them).
    albumResponseSchema.parse(await (await alice.client.request(`/api/albums/${album.id}`)).json());
    albumListResponseSchema.parse(await (await member.client.request("/api/albums")).json());
    albumPhotosResponseSchema.parse(page);
    // Another signed-in user sees the public photos only, counted and covered likewise.
    const forMember = (await (await member.client.request(`/api/albums/${album.id}`)).json()) as { album: { photoCount: number; cover: { id: string }; coverPhotoId: string | null; canEdit: boolean } };
    expect(forMember.album).toMatchObject({ photoCount: 3, cover: { id: photo("a2") }, coverPhotoId: null, canEdit: false });
    const memberPage = (await (await member.client.request(`/api/albums/${album.id}/photos`)).json()) as { photos: Array<{ id: string }> };
    expect(memberPage.photos.map((each) => each.id)).not.toContain(photo("a-private"));

    response = await alice.client.request(`/api/albums/${album.id}/photos`, { method: "DELETE", ...json({ photoIds: [photo("a1")] }) });
    expect(await response.json()).toEqual({ removed: 1 });
    response = await alice.client.request(`/api/albums/${album.id}`, { method: "DELETE" });
    expect(response.status).toBe(204);
    expect(await auditCount(album.id)).toBe(7);
    expect((await alice.client.request(`/api/albums/${album.id}`)).status).toBe(404);
    // The photos stay.
    expect(await db.selectFrom("photos").select("id").where("id", "in", ids).execute()).toHaveLength(4);
  });

  it("answers 404 to every verb on someone else's private album, and never lists it", async () => {
    const album = await createAlbum(alice.client, { title: `Secret ${run}`, visibility: "private" });
    await alice.client.request(`/api/albums/${album.id}/photos`, json({ photoIds: [photo("a3")] }));
    const attempts: Array<[string, string, unknown?]> = [
      ["GET", `/api/albums/${album.id}`],
      ["PATCH", `/api/albums/${album.id}`, { title: "Mine" }],
      ["DELETE", `/api/albums/${album.id}`],
      ["GET", `/api/albums/${album.id}/photos`],
      ["POST", `/api/albums/${album.id}/photos`, { photoIds: [photo("b-public")] }],
      ["DELETE", `/api/albums/${album.id}/photos`, { photoIds: [photo("a3")] }],
      ["PATCH", `/api/albums/${album.id}/photos`, { photoId: photo("a3"), after: null }],
      ["GET", `/api/albums?parentId=${album.id}`],
      ["POST", "/api/albums", { title: "Inside", parentId: album.id }],
    ];
    for (const client of [bob.client, member.client]) {
      for (const [method, path, body] of attempts) {
        const response = await client.request(path, { method, ...(body === undefined ? {} : json(body)) });
        // A viewer may not create albums at all (403 from the role) before the parent is looked up.
        const expected = client === member.client && method === "POST" && path === "/api/albums" ? 403 : 404;
        expect(response.status, `${method} ${path}`).toBe(expected);
      }
      const list = (await (await client.request("/api/albums")).json()) as { albums: Array<{ id: string }> };
      expect(list.albums.map((each) => each.id)).not.toContain(album.id);
    }
    expect(await auditCount(album.id)).toBe(2);
    expect(await albumRows(album.id)).toHaveLength(1);
  });

  it("needs photos:read to read and photos:write to change with a token; a visitor gets 401", async () => {
    const album = await createAlbum(alice.client, { title: `Tokens ${run}`, visibility: "public" });
    const reader = await createApiToken(alice.client, ["photos:read"]);
    const writer = await createApiToken(alice.client, ["photos:write"]);
    const anonymous = new Client();
    expect((await anonymous.request("/api/albums")).status).toBe(401);
    expect((await anonymous.request(`/api/albums/${album.id}`, { headers: bearer(reader.secret) })).status).toBe(200);
    expect((await anonymous.request(`/api/albums/${album.id}/photos`, { headers: bearer(reader.secret) })).status).toBe(200);
    expect((await anonymous.request(`/api/albums/${album.id}`, { headers: bearer(writer.secret) })).status).toBe(403);
    const refused = await anonymous.request(`/api/albums/${album.id}`, { method: "PATCH", headers: bearer(reader.secret), origin: null, ...json({ title: "x" }) });
    expect(refused.status).toBe(403);
    const changed = await anonymous.request(`/api/albums/${album.id}`, { method: "PATCH", headers: bearer(writer.secret), origin: null, ...json({ title: "By token" }) });
    expect(changed.status).toBe(200);
  });

  it("refuses bad input with its status and writes nothing", async () => {
    const album = await createAlbum(alice.client, { title: `Strict ${run}`, visibility: "public", slug: `strict-${run}` });
    const other = await createAlbum(alice.client, { title: `Other ${run}`, visibility: "public" });
    await alice.client.request(`/api/albums/${album.id}/photos`, json({ photoIds: [photo("a4"), photo("a5")] }));
    const before = { rows: await albumRows(album.id), audit: await auditCount(album.id), albums: await db.selectFrom("albums").selectAll().orderBy("id").execute() };
    const cases: Array<[string, string, string, unknown, number]> = [
      ["unknown album", "GET", "/api/albums/no-such-album", undefined, 404],
      ["unknown album (photos)", "POST", "/api/albums/no-such-album/photos", { photoIds: [photo("a6")] }, 404],
      ["bad slug", "POST", "/api/albums", { title: "x", slug: "Bad Slug" }, 422],
      ["bad slug (change)", "PATCH", `/api/albums/${other.id}`, { slug: "no--double" }, 422],
      ["duplicate slug", "POST", "/api/albums", { title: "x", slug: `strict-${run}` }, 409],
      ["duplicate slug (change)", "PATCH", `/api/albums/${other.id}`, { slug: `strict-${run}` }, 409],
      ["move next to a photo not in it", "PATCH", `/api/albums/${album.id}/photos`, { photoId: photo("a4"), after: photo("a9") }, 422],
      ["move with two targets", "PATCH", `/api/albums/${album.id}/photos`, { photoId: photo("a4"), after: null, position: 1 }, 422],
      ["someone else's private photo", "POST", `/api/albums/${album.id}/photos`, { photoIds: [photo("a6"), photo("b-private")] }, 404],
      ["someone else's public photo", "POST", `/api/albums/${album.id}/photos`, { photoIds: [photo("a6"), photo("b-public")] }, 403],
      ["too many photos", "POST", `/api/albums/${album.id}/photos`, { photoIds: Array.from({ length: 501 }, (_, index) => `x${index}`) }, 422],
      ["no photos", "POST", `/api/albums/${album.id}/photos`, { photoIds: [] }, 422],
      ["unknown field", "PATCH", `/api/albums/${album.id}`, { owner: bob.user.id }, 422],
      ["bad cursor", "GET", `/api/albums/${album.id}/photos?cursor=nonsense`, undefined, 400],
    ];
    for (const [what, method, path, body, status] of cases) {
      const response = await alice.client.request(path, { method, ...(body === undefined ? {} : json(body)) });
      expect(response.status, what).toBe(status);
      expect(await errorCode(response), what).toMatch(/^[A-Z_]+$/);
    }
    const notJson = await alice.client.request(`/api/albums/${album.id}/photos`, { method: "PATCH", body: { raw: "{", contentType: "application/json" } });
    expect(notJson.status).toBe(400);
    expect({ rows: await albumRows(album.id), audit: await auditCount(album.id), albums: await db.selectFrom("albums").selectAll().orderBy("id").execute() }).toEqual(before);
  });

  it("keeps a renamed album's old address for it: another editor gets 409, old links still lead to it (SECURITY.md 66)", async () => {
    const original = `retired-${run}`;
    const album = await createAlbum(alice.client, { title: `Retired ${run}`, visibility: "public", slug: original });
    const renamed = await alice.client.request(`/api/albums/${album.id}`, { method: "PATCH", ...json({ slug: `${original}-new` }) });
    expect(renamed.status, await renamed.clone().text()).toBe(200);
    const bobs = await createAlbum(bob.client, { title: `Bob's ${run}`, visibility: "public" });
    for (const [what, method, path, body] of [
      ["create with it", "POST", "/api/albums", { title: "Mine now", slug: original }],
      ["rename to it", "PATCH", `/api/albums/${bobs.id}`, { slug: original }],
    ] as const) {
      const response = await bob.client.request(path, { method, ...json(body) });
      expect(response.status, what).toBe(409);
      expect(await errorCode(response), what).toBe("CONFLICT");
    }
    const old = await new Client().request(`/albums/${original}`);
    expect([307, 308]).toContain(old.status);
    expect(old.headers.get("location")).toContain(`/albums/${original}-new`);
  });

  it("keeps every photo exactly once when two editors reorder in parallel", async () => {
    const album = await createAlbum(alice.client, { title: `Busy ${run}`, visibility: "public" });
    const ids = Array.from({ length: 30 }, (_, index) => photo(`a${index}`));
    await alice.client.request(`/api/albums/${album.id}/photos`, json({ photoIds: ids }));
    const admin = (await signedInAs("admin")).client;
    // Alice and an admin both move photos next to the same two anchors at once.
    const moves = ids.slice(10, 30).map((id, index) =>
      (index % 2 === 0 ? alice.client : admin).request(`/api/albums/${album.id}/photos`, {
        method: "PATCH",
        ...json(index % 3 === 0 ? { photoId: id, before: ids[3] } : { photoId: id, after: ids[0] }),
      }),
    );
    const statuses = (await Promise.all(moves)).map((response) => response.status);
    expect(statuses.every((status) => status === 204), String(statuses)).toBe(true);
    const rows = await albumRows(album.id);
    expect(rows).toHaveLength(30);
    expect(new Set(rows.map((row) => row.photo_id))).toEqual(new Set(ids));
    expect(new Set(rows.map((row) => row.order_key)).size).toBe(30);
    // Paging answers the same order as the table.
    const listed: string[] = [];
    let cursor: string | null = null;
    do {
      const page = (await (await alice.client.request(`/api/albums/${album.id}/photos?limit=7${cursor ? `&cursor=${cursor}` : ""}`)).json()) as { photos: Array<{ id: string }>; nextCursor: string | null };
      listed.push(...page.photos.map((each) => each.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(listed).toEqual(rows.map((row) => row.photo_id));
    // One audit row per move (and one each for the create and the add).
    expect(await auditCount(album.id)).toBe(22);
  });
});
