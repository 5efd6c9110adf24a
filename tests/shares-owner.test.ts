// The owner's side of share links over HTTP: making a link from an album or from photo ids (an
// editor shares only photos they may edit, an admin any), validation, 404 for every verb on someone
// else's link, the password never answered and its changes bumping the grant version, revoking,
// the access log's paging, and the job that hashes access-log addresses after 30 days.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Visibility } from "@/src/db/database";
import { hashOldShareAddresses, hashShareAddress } from "@/src/shares/share-address-hashing.job";
import { shareAccessLogResponseSchema, shareListResponseSchema, shareResponseSchema } from "@/src/shares/shares-api.schemas";
import type { ShareSummary } from "@/src/shares/shares-owner.types";
import { TEST_SECRET } from "./setup/global-setup";
import { bearer, createApiToken } from "./helpers/api-tokens";
import { openTestDatabase } from "./helpers/test-database";
import { signedInAdmin, signedInAs, TestClient, type TestUser } from "./helpers/test-client";

const db = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
afterAll(() => db.destroy());

let alice: { client: TestClient; user: TestUser };
let bob: { client: TestClient; user: TestUser };
let viewer: { client: TestClient; user: TestUser };
let admin: TestClient;
let run: string;
const photo = (name: string) => `${run}-${name}`;

async function insertPhotos(ownerId: string, photos: Array<{ id: string; visibility: Visibility; trashed?: boolean }>): Promise<void> {
  const now = new Date().toISOString();
  await db
    .insertInto("photos")
    .values(
      photos.map((each, index) => {
        const at = new Date(Date.UTC(2023, 0, 1) + index * 60_000).toISOString();
        return {
          id: each.id, owner_id: ownerId, sha256: each.id, status: "ready" as const, visibility: each.visibility, original_key: `originals/${each.id}`,
          original_name: `${each.id}.jpg`, original_type: "image/jpeg", original_size: 1, width: 300, height: 200, sort_at: at, created_at: at, updated_at: now,
          title: `Title ${each.id}`, trashed_at: each.trashed ? now : null,
        };
      }),
    )
    .execute();
}

const json = (value: unknown) => ({ body: { json: value } });
async function errorCode(response: Response): Promise<string> {
  return ((await response.json()) as { error: { code: string } }).error.code;
}
async function auditActions(targetId: string): Promise<string[]> {
  return (await db.selectFrom("audit_log").select("action").where("target_id", "=", targetId).orderBy("created_at").execute()).map((row) => row.action);
}
async function createShare(client: TestClient, body: Record<string, unknown>): Promise<ShareSummary> {
  const response = await client.request("/api/shares", json(body));
  const text = await response.text();
  expect(response.status, text).toBe(201);
  return shareResponseSchema.parse(JSON.parse(text)).share;
}
async function sharePhotoIds(shareId: string): Promise<string[]> {
  return (await db.selectFrom("share_photos").select("photo_id").where("share_id", "=", shareId).orderBy("position").execute()).map((row) => row.photo_id);
}
async function shareRow(shareId: string) {
  return db.selectFrom("shares").selectAll().where("id", "=", shareId).executeTakeFirstOrThrow();
}
async function makeAlbum(client: TestClient, title: string, photoIds: string[]): Promise<string> {
  const response = await client.request("/api/albums", json({ title, visibility: "public" }));
  expect(response.status).toBe(201);
  const { album } = (await response.json()) as { album: { id: string } };
  const added = await client.request(`/api/albums/${album.id}/photos`, json({ photoIds }));
  expect(added.status, await added.clone().text()).toBe(200);
  return album.id;
}

beforeAll(async () => {
  run = `so${Date.now().toString(36)}`;
  alice = await signedInAs("editor");
  bob = await signedInAs("editor");
  viewer = await signedInAs("viewer");
  admin = await signedInAdmin();
  await insertPhotos(alice.user.id, [
    { id: photo("a1"), visibility: "public" },
    { id: photo("a2"), visibility: "private" },
    { id: photo("a3"), visibility: "members" },
    { id: photo("a-trashed"), visibility: "public", trashed: true },
  ]);
  await insertPhotos(bob.user.id, [
    { id: photo("b1"), visibility: "public" },
    { id: photo("b2"), visibility: "private" },
  ]);
}, 60_000);

describe("making a share link", () => {
  it("from an album: an editor's snapshot holds only their own photos, in the album's order; an admin's holds all", async () => {
    const albumId = await makeAlbum(admin, `Wedding ${run}`, [photo("b1"), photo("a2"), photo("a1"), photo("b2"), photo("a3")]);
    const before = Date.now();
    const share = await createShare(alice.client, { albumId });
    expect(share.title).toBe(`Wedding ${run}`);
    expect(share.photoCount).toBe(3);
    expect(await sharePhotoIds(share.id)).toEqual([photo("a2"), photo("a1"), photo("a3")]);
    expect(share).toMatchObject({ state: "active", views: 0, maxViews: null, downloads: 0, hasPassword: false, download: "none", allowZip: false, showExif: true, showLocation: false, allowPicks: false, albumId });
    // The default expiry is 30 days; "never" must be asked for.
    const expires = Date.parse(share.expiresAt as string);
    expect(expires - before).toBeGreaterThan(29.9 * 86_400_000);
    expect(expires - before).toBeLessThan(30.1 * 86_400_000);
    expect(share.url).toMatch(/^https?:\/\/[^/]+\/s\/[A-Za-z0-9_-]{24}$/);
    expect(await auditActions(share.id)).toEqual(["share.create"]);

    const all = await createShare(admin, { albumId, title: "Everything", expiresAt: null });
    expect(all.photoCount).toBe(5);
    expect(all.expiresAt).toBeNull();
    // Sharing never changes a photo's visibility.
    const visibilities = await db.selectFrom("photos").select(["id", "visibility"]).where("id", "in", [photo("a2"), photo("b2")]).execute();
    expect(visibilities.every((row) => row.visibility === "private")).toBe(true);
  });

  it("from photo ids: keeps those the editor may edit, in the order given, and refuses when none are left", async () => {
    const share = await createShare(alice.client, {
      photoIds: [photo("a3"), photo("b1"), photo("a1"), photo("a-trashed"), photo("a3"), "no-such-photo"],
      title: "Picks",
      message: "Hello",
      password: "correct horse",
      maxViews: 10,
      download: "copy",
      allowZip: true,
      showLocation: true,
      allowPicks: true,
      pickLimit: 5,
    });
    expect(await sharePhotoIds(share.id)).toEqual([photo("a3"), photo("a1")]);
    expect(share).toMatchObject({ title: "Picks", message: "Hello", hasPassword: true, maxViews: 10, download: "copy", allowZip: true, showLocation: true, allowPicks: true, pickLimit: 5 });
    const row = await shareRow(share.id);
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.key).toHaveLength(24);

    const none = await alice.client.request("/api/shares", json({ photoIds: [photo("b1"), photo("b2")] }));
    expect(none.status).toBe(422);
    // An admin may share anyone's photos.
    const byAdmin = await createShare(admin, { photoIds: [photo("b2"), photo("a2")] });
    expect(await sharePhotoIds(byAdmin.id)).toEqual([photo("b2"), photo("a2")]);
    expect(byAdmin.title).toBe("2 shared photos");
  });

  it("answers 422 for bad input and writes nothing", async () => {
    const count = async () => (await db.selectFrom("shares").select("id").where("owner_id", "=", alice.user.id).execute()).length;
    const before = await count();
    const bad: Array<Record<string, unknown>> = [
      {},
      { albumId: "x", photoIds: [photo("a1")] },
      { photoIds: [] },
      { photoIds: [photo("a1")], expiresAt: new Date(Date.now() - 60_000).toISOString() },
      { photoIds: [photo("a1")], expiresAt: "tomorrow" },
      { photoIds: [photo("a1")], maxViews: 0 },
      { photoIds: [photo("a1")], password: "short" },
      { photoIds: [photo("a1")], download: "everything" },
      { photoIds: [photo("a1")], title: "  " },
      { photoIds: [photo("a1")], unknown: true },
    ];
    for (const body of bad) {
      const response = await alice.client.request("/api/shares", json(body));
      expect(response.status, JSON.stringify(body)).toBe(422);
    }
    expect((await alice.client.request("/api/shares", json({ albumId: "no-such-album" }))).status).toBe(404);
    expect(await count()).toBe(before);
    // Viewers make no links.
    expect((await viewer.client.request("/api/shares", json({ photoIds: [photo("a1")] }))).status).toBe(403);
  });
});

describe("managing share links", () => {
  it("answers 404 to every verb on another editor's link, lists only one's own, and shows admins all", async () => {
    const share = await createShare(alice.client, { photoIds: [photo("a1")], title: `Alice only ${run}` });
    const attempts: Array<[string, string, unknown?]> = [
      ["GET", `/api/shares/${share.id}`],
      ["PATCH", `/api/shares/${share.id}`, { title: "Mine" }],
      ["PATCH", `/api/shares/${share.id}`, { revoked: true }],
      ["DELETE", `/api/shares/${share.id}`],
      ["GET", `/api/shares/${share.id}/access-log`],
    ];
    for (const [method, path, body] of attempts) {
      const response = await bob.client.request(path, { method, ...(body ? json(body) : {}) });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(await errorCode(response)).toBe("NOT_FOUND");
    }
    expect((await shareRow(share.id)).title).toBe(`Alice only ${run}`);
    expect(await auditActions(share.id)).toEqual(["share.create"]);

    const bobs = shareListResponseSchema.parse(await (await bob.client.request("/api/shares")).json());
    expect(bobs.shares.map((each) => each.id)).not.toContain(share.id);
    const alices = shareListResponseSchema.parse(await (await alice.client.request("/api/shares")).json());
    expect(alices.shares.every((each) => each.owner.id === alice.user.id)).toBe(true);
    expect(alices.shares[0].id).toBe(share.id);

    const forAdmin = await admin.request(`/api/shares/${share.id}`);
    expect(forAdmin.status).toBe(200);
    expect(((await forAdmin.json()) as { share: ShareSummary }).share.owner.id).toBe(alice.user.id);
  });

  it("pages the list newest first by cursor", async () => {
    const editor = await signedInAs("editor");
    await insertPhotos(editor.user.id, [{ id: photo("paged"), visibility: "private" }]);
    const made: string[] = [];
    for (let index = 0; index < 5; index += 1) made.unshift((await createShare(editor.client, { photoIds: [photo("paged")], title: `Page ${index}` })).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=2&cursor=${cursor}` : "?limit=2";
      const page = shareListResponseSchema.parse(await (await editor.client.request(`/api/shares${query}`)).json());
      seen.push(...page.shares.map((each) => each.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(made);
    expect((await editor.client.request("/api/shares?cursor=%00bad")).status).toBe(400);
  });

  it("never answers the password; setting or changing it bumps the grant version, removing it does not", async () => {
    const share = await createShare(alice.client, { photoIds: [photo("a1")] });
    const version = async () => (await shareRow(share.id)).grant_version;
    expect(await version()).toBe(1);
    let response = await alice.client.request(`/api/shares/${share.id}`, { method: "PATCH", ...json({ password: "first secret" }) });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    expect(text).not.toContain("first secret");
    expect(text).not.toContain("argon2");
    expect(JSON.parse(text).share.hasPassword).toBe(true);
    expect(await version()).toBe(2);
    response = await alice.client.request(`/api/shares/${share.id}`, { method: "PATCH", ...json({ password: "second secret" }) });
    expect(await version()).toBe(3);
    response = await alice.client.request(`/api/shares/${share.id}`, { method: "PATCH", ...json({ password: null }) });
    expect(((await response.json()) as { share: ShareSummary }).share.hasPassword).toBe(false);
    expect(await version()).toBe(3);
    // Other changes leave it alone too.
    response = await alice.client.request(`/api/shares/${share.id}`, { method: "PATCH", ...json({ maxViews: 3, expiresAt: null, showExif: false, download: "original" }) });
    expect(((await response.json()) as { share: ShareSummary }).share).toMatchObject({ maxViews: 3, expiresAt: null, showExif: false, download: "original", views: 0 });
    expect(await version()).toBe(3);
    // Nowhere in any answer, nor in the audit log.
    for (const path of [`/api/shares/${share.id}`, "/api/shares", `/api/shares/${share.id}/access-log`]) {
      const body = await (await alice.client.request(path)).text();
      expect(body).not.toMatch(/argon2|secret|password_hash/);
    }
    const details = await db.selectFrom("audit_log").select("details").where("target_id", "=", share.id).execute();
    expect(details.map((row) => row.details).join("")).not.toMatch(/argon2|first secret|second secret/);
    expect(await auditActions(share.id)).toEqual(["share.create", "share.update", "share.update", "share.update", "share.update"]);
  });

  it("revokes for good, answers 422 for bad changes, and deletes", async () => {
    const share = await createShare(alice.client, { photoIds: [photo("a1"), photo("a2")] });
    expect((await alice.client.request(`/api/shares/${share.id}`, { method: "PATCH", ...json({ revoked: false }) })).status).toBe(422);
    expect((await alice.client.request(`/api/shares/${share.id}`, { method: "PATCH", ...json({}) })).status).toBe(422);
    expect((await alice.client.request(`/api/shares/${share.id}`, { method: "PATCH", ...json({ expiresAt: "2000-01-01T00:00:00Z" }) })).status).toBe(422);
    expect((await alice.client.request(`/api/shares/${share.id}`, { method: "PATCH", ...json({ refreshFromAlbum: true }) })).status).toBe(422);
    const response = await alice.client.request(`/api/shares/${share.id}`, { method: "PATCH", ...json({ revoked: true }) });
    const revoked = shareResponseSchema.parse(await response.json()).share;
    expect(revoked.state).toBe("revoked");
    expect(revoked.revokedAt).not.toBeNull();
    expect(await auditActions(share.id)).toEqual(["share.create", "share.revoke"]);
    // A later change of expiry does not reopen it.
    const later = await alice.client.request(`/api/shares/${share.id}`, { method: "PATCH", ...json({ expiresAt: null }) });
    expect(((await later.json()) as { share: ShareSummary }).share.state).toBe("revoked");

    expect((await alice.client.request(`/api/shares/${share.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await alice.client.request(`/api/shares/${share.id}`)).status).toBe(404);
    expect(await sharePhotoIds(share.id)).toEqual([]);
    expect(await db.selectFrom("photos").select("id").where("id", "in", [photo("a1"), photo("a2")]).execute()).toHaveLength(2);
    expect((await auditActions(share.id)).at(-1)).toBe("share.delete");
  });

  it("refreshes a snapshot from its album", async () => {
    const albumId = await makeAlbum(alice.client, `Refresh ${run}`, [photo("a1")]);
    const share = await createShare(alice.client, { albumId });
    expect(share.photoCount).toBe(1);
    await alice.client.request(`/api/albums/${albumId}/photos`, json({ photoIds: [photo("a3")] }));
    const response = await alice.client.request(`/api/shares/${share.id}`, { method: "PATCH", ...json({ refreshFromAlbum: true }) });
    expect(shareResponseSchema.parse(await response.json()).share.photoCount).toBe(2);
  });

  it("takes API tokens with the photos scopes", async () => {
    const read = await createApiToken(alice.client, ["photos:read"]);
    expect((await new TestClient().request("/api/shares", { headers: bearer(read.secret) })).status).toBe(200);
    const response = await new TestClient().request("/api/shares", { headers: bearer(read.secret), ...json({ photoIds: [photo("a1")] }) });
    expect(response.status).toBe(403);
  });
});

describe("the access log", () => {
  it("pages newest first with photo titles, and shows no hashed address", async () => {
    const share = await createShare(alice.client, { photoIds: [photo("a1")] });
    const base = Date.UTC(2026, 0, 1);
    await db
      .insertInto("share_access_log")
      .values(
        Array.from({ length: 7 }, (_, index) => ({
          id: `${run}-log-${index}`,
          share_id: share.id,
          created_at: new Date(base + index * 1000).toISOString(),
          event: index === 0 ? "visit" : "view_photo",
          photo_id: index === 0 ? null : photo("a1"),
          address: index === 1 ? "hmac-sha256:abc" : `192.0.2.${index}`,
          address_is_hashed: index === 1 ? 1 : 0,
          user_agent: "Test browser",
        })),
      )
      .execute();
    const seen: Array<{ id: string; address: string | null; addressHashed: boolean; photoTitle: string | null }> = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=3&cursor=${cursor}` : "?limit=3";
      const page = shareAccessLogResponseSchema.parse(await (await alice.client.request(`/api/shares/${share.id}/access-log${query}`)).json());
      seen.push(...page.entries);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen.map((entry) => entry.id)).toEqual(Array.from({ length: 7 }, (_, index) => `${run}-log-${6 - index}`));
    expect(seen[0]).toMatchObject({ address: "192.0.2.6", addressHashed: false, photoTitle: `Title ${photo("a1")}` });
    expect(seen[5]).toMatchObject({ address: null, addressHashed: true });
    expect(seen[6]).toMatchObject({ photoTitle: null });
  });

  it("replaces addresses older than 30 days by a keyed hash", async () => {
    const share = await createShare(alice.client, { photoIds: [photo("a1")] });
    const now = new Date();
    const at = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
    await db
      .insertInto("share_access_log")
      .values([
        { id: `${run}-old`, share_id: share.id, created_at: at(31), event: "visit", address: "203.0.113.7", user_agent: "UA" },
        { id: `${run}-old-null`, share_id: share.id, created_at: at(40), event: "visit", address: null, user_agent: null },
        { id: `${run}-new`, share_id: share.id, created_at: at(29), event: "visit", address: "203.0.113.8", user_agent: "UA" },
      ])
      .execute();
    expect(await hashOldShareAddresses(db, TEST_SECRET, now)).toBeGreaterThanOrEqual(2);
    const rows = await db.selectFrom("share_access_log").select(["id", "address", "address_is_hashed"]).where("share_id", "=", share.id).orderBy("created_at").execute();
    expect(rows).toEqual([
      { id: `${run}-old-null`, address: null, address_is_hashed: 1 },
      { id: `${run}-old`, address: hashShareAddress("203.0.113.7", TEST_SECRET), address_is_hashed: 1 },
      { id: `${run}-new`, address: "203.0.113.8", address_is_hashed: 0 },
    ]);
    expect(rows[1].address).not.toContain("203.0.113.7");
    // The same address hashes the same (old visits can still be told apart), and only under this key.
    expect(hashShareAddress("203.0.113.7", TEST_SECRET)).toBe(hashShareAddress("203.0.113.7", TEST_SECRET));
    expect(hashShareAddress("203.0.113.7", "another-secret-0123456789abcdef-xyz")).not.toBe(hashShareAddress("203.0.113.7", TEST_SECRET));
    // Run again: nothing left to do for these.
    await hashOldShareAddresses(db, TEST_SECRET, now);
    const again = await db.selectFrom("share_access_log").select("address").where("id", "=", `${run}-old`).executeTakeFirstOrThrow();
    expect(again.address).toBe(rows[1].address);
  });
});
