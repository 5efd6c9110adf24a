// The trash: DELETE /api/photos/{id} and the bulk "trash" action hide a photo from everyone
// everywhere (lists, page, API, media, counts) but keep its files; restoring brings it back as it
// was; emptying or the purge job (after trashRetentionDays) deletes rows and files, no orphans.
import sharp from "sharp";
import { inject } from "vitest";
import { describe, expect, it } from "vitest";
import { listStoredKeys, uploadFiles, waitForProcessing } from "./helpers/photos";
import { openTestDatabase } from "./helpers/test-database";
import { signedInAs, TestClient } from "./helpers/test-client";

function database() {
  return openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
}

async function withDatabase<T>(work: (db: ReturnType<typeof database>) => Promise<T>): Promise<T> {
  const db = database();
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
}

/** A small JPEG of its own colour (so never a duplicate), uploaded, processed and given this visibility. */
async function uploadReadyPhoto(client: TestClient, visibility: string): Promise<{ id: string; variantUrl: string }> {
  const bytes = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: Math.floor(Math.random() * 256), g: Math.floor(Math.random() * 256), b: Math.floor(Math.random() * 256) } } })
    .jpeg()
    .toBuffer();
  const response = await uploadFiles(client, [{ bytes: new Uint8Array(bytes), name: "trash-test.jpg" }]);
  expect(response.status, await response.clone().text()).toBe(201);
  const [uploaded] = ((await response.json()) as { photos: Array<{ id: string }> }).photos;
  await waitForProcessing(client, uploaded.id);
  const patched = await client.request(`/api/photos/${uploaded.id}`, { method: "PATCH", body: { json: { visibility } } });
  expect(patched.status).toBe(200);
  const { photo } = (await patched.json()) as { photo: { variants: Array<{ url: string }> } };
  return { id: uploaded.id, variantUrl: photo.variants[0].url };
}

async function listedIds(client: TestClient, path = "/api/photos?limit=100"): Promise<string[]> {
  const body = (await (await client.request(path)).json()) as { photos: Array<{ id: string }> };
  return body.photos.map((photo) => photo.id);
}

async function storedKeysOf(photoId: string): Promise<string[]> {
  return (await listStoredKeys(inject("storageConfig"))).filter((key) => key.includes(photoId));
}

/** The trash's audit actions about a photo (its upload and edits have their own rows). */
const TRASH_ACTIONS = new Set(["photo.trash", "photo.restore", "photo.purge"]);

async function auditActions(targetOrDetail: string): Promise<string[]> {
  return withDatabase(async (db) => {
    const rows = await db.selectFrom("audit_log").select(["action", "target_id", "details"]).orderBy("created_at").execute();
    return rows
      .filter((row) => TRASH_ACTIONS.has(row.action) && (row.target_id === targetOrDetail || row.details.includes(targetOrDetail)))
      .map((row) => row.action);
  });
}

describe("the trash", () => {
  it("hides a trashed public photo from everyone everywhere at once, and restoring brings it back as it was", async () => {
    const { client, admin } = await signedInAs("editor");
    const member = await signedInAs("viewer");
    const anonymous = new TestClient();
    const photo = await uploadReadyPhoto(client, "public");
    expect((await anonymous.request(photo.variantUrl)).status).toBe(200);
    expect((await anonymous.request(`/p/${photo.id}`)).status).toBe(200);
    expect(await listedIds(member.client)).toContain(photo.id);

    expect((await client.request(`/api/photos/${photo.id}`, { method: "DELETE" })).status).toBe(204);

    for (const who of [client, admin, member.client]) {
      expect((await who.request(`/api/photos/${photo.id}`)).status).toBe(404);
      expect(await listedIds(who)).not.toContain(photo.id);
    }
    expect(await listedIds(client, "/api/photos/library?limit=100")).not.toContain(photo.id);
    expect(await listedIds(admin, "/api/photos/library?limit=100")).not.toContain(photo.id);
    expect((await anonymous.request(photo.variantUrl)).status).toBe(404);
    expect((await client.request(photo.variantUrl)).status).toBe(404);
    expect((await anonymous.request(`/p/${photo.id}`)).status).toBe(404);
    expect((await client.request(`/api/photos/${photo.id}/original`)).status).toBe(404);
    // The library's count leaves it out.
    const library = (await (await client.request("/api/photos/library")).json()) as { total: number };
    expect(library.total).toBe(0);
    // Files are kept while it is in the trash.
    expect((await storedKeysOf(photo.id)).length).toBeGreaterThan(1);

    const trash = (await (await client.request("/api/trash")).json()) as { photos: Array<{ id: string; expiresAt: string; thumbnailUrl: string }>; retentionDays: number };
    expect(trash.retentionDays).toBe(30);
    expect(trash.photos.map((each) => each.id)).toEqual([photo.id]);
    // Its thumbnail on the trash page is for its owner only, and never public.
    expect((await client.request(trash.photos[0].thumbnailUrl)).status).toBe(200);
    expect((await anonymous.request(trash.photos[0].thumbnailUrl)).status).toBe(404);
    expect((await (await member.client.request("/api/trash")).status)).toBe(403);
    const otherEditor = await signedInAs("editor");
    expect(await listedIds(otherEditor.client, "/api/trash")).toEqual([]);
    expect((await otherEditor.client.request("/api/trash/restore", { body: { json: { photoIds: [photo.id] } } })).status).toBe(404);

    const restored = await client.request("/api/trash/restore", { body: { json: { photoIds: [photo.id] } } });
    expect(restored.status).toBe(200);
    expect(await restored.json()).toMatchObject({ count: 1, message: "1 photo restored" });
    const detail = (await (await anonymous.request(`/p/${photo.id}`)).text());
    expect(detail.length).toBeGreaterThan(0);
    const back = (await (await client.request(`/api/photos/${photo.id}`)).json()) as { photo: { visibility: string; variants: Array<{ url: string }> } };
    expect(back.photo.visibility).toBe("public");
    // A new publication key: the old URL stays dead, the new one is public again.
    expect((await anonymous.request(photo.variantUrl)).status).toBe(404);
    expect((await anonymous.request(back.photo.variants[0].url)).status).toBe(200);
    expect(await listedIds(member.client)).toContain(photo.id);
    expect(await auditActions(photo.id)).toEqual(expect.arrayContaining(["photo.trash", "photo.restore"]));
  });

  it("uploading a trashed photo's bytes again brings that photo back, audited, rather than answering a photo nobody can open", async () => {
    const { client } = await signedInAs("editor");
    const bytes = new Uint8Array(await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 12, g: 200, b: Math.floor(Math.random() * 256) } } }).jpeg().toBuffer());
    const upload = async () => {
      const response = await uploadFiles(client, [{ bytes, name: "again.jpg" }]);
      expect(response.status, await response.clone().text()).toBe(201);
      return ((await response.json()) as { photos: Array<{ id: string }> }).photos[0].id;
    };
    const id = await upload();
    await waitForProcessing(client, id);
    expect((await client.request(`/api/photos/${id}`, { method: "DELETE" })).status).toBe(204);
    expect((await client.request(`/api/photos/${id}`)).status).toBe(404);

    expect(await upload()).toBe(id);
    expect((await client.request(`/api/photos/${id}`)).status).toBe(200);
    const trash = (await (await client.request("/api/trash")).json()) as { photos: Array<{ id: string }> };
    expect(trash.photos.map((photo) => photo.id)).not.toContain(id);
    expect(await auditActions(id)).toEqual(["photo.trash", "photo.restore"]);
  });

  it("bulk trash is all or nothing; emptying someone else's trashed photo is refused; emptying one's own deletes rows and files", async () => {
    const { client } = await signedInAs("editor");
    const other = await signedInAs("editor");
    const mine = await uploadReadyPhoto(client, "private");
    const theirs = await uploadReadyPhoto(other.client, "private");

    const refused = await client.request("/api/photos", { method: "PATCH", body: { json: { photoIds: [mine.id, theirs.id], action: "trash" } } });
    expect(refused.status).toBe(404);
    expect((await client.request(`/api/photos/${mine.id}`)).status).toBe(200);

    const trashed = await client.request("/api/photos", { method: "PATCH", body: { json: { photoIds: [mine.id], action: "trash" } } });
    expect(await trashed.json()).toMatchObject({ action: "trash", changed: 1, message: "1 photo moved to the trash", photoIds: [mine.id] });
    expect((await other.client.request(`/api/photos/${theirs.id}`, { method: "DELETE" })).status).toBe(204);

    const notMine = await client.request("/api/trash", { method: "DELETE", body: { json: { photoIds: [mine.id, theirs.id] } } });
    expect(notMine.status).toBe(404);
    expect((await storedKeysOf(mine.id)).length).toBeGreaterThan(0);

    const emptied = await client.request("/api/trash", { method: "DELETE" });
    expect(emptied.status).toBe(200);
    expect(await emptied.json()).toMatchObject({ count: 1 });
    expect(await storedKeysOf(mine.id)).toEqual([]);
    expect((await storedKeysOf(theirs.id)).length).toBeGreaterThan(0);
    expect(await withDatabase((db) => db.selectFrom("photos").select("id").where("id", "in", [mine.id, theirs.id]).execute())).toEqual([{ id: theirs.id }]);
    expect(await auditActions(mine.id)).toEqual(["photo.trash", "photo.purge"]);
  });

  it("the purge job deletes photos whose time in the trash ran out, with their files, and keeps the others", async () => {
    const { client } = await signedInAs("editor");
    const expired = await uploadReadyPhoto(client, "public");
    const recent = await uploadReadyPhoto(client, "private");
    for (const photo of [expired, recent]) expect((await client.request(`/api/photos/${photo.id}`, { method: "DELETE" })).status).toBe(204);
    await withDatabase(async (db) => {
      await db.updateTable("photos").set({ trashed_at: new Date(Date.now() - 31 * 86_400_000).toISOString() }).where("id", "=", expired.id).execute();
      await db.updateTable("photos").set({ trashed_at: new Date(Date.now() - 29 * 86_400_000).toISOString() }).where("id", "=", recent.id).execute();
      // What the hourly schedule queues; the worker takes it within its poll.
      const now = new Date().toISOString();
      await db.insertInto("jobs").values({ id: crypto.randomUUID(), kind: "trash.purge", photo_id: null, priority: 5, status: "queued", attempts: 0, created_at: now, updated_at: now }).execute();
    });
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && (await storedKeysOf(expired.id)).length > 0) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await storedKeysOf(expired.id)).toEqual([]);
    expect((await storedKeysOf(recent.id)).length).toBeGreaterThan(1);
    const rows = await withDatabase((db) => db.selectFrom("photos").select("id").where("id", "in", [expired.id, recent.id]).execute());
    expect(rows).toEqual([{ id: recent.id }]);
    expect(await auditActions(expired.id)).toEqual(["photo.trash", "photo.purge"]);
    const trash = (await (await client.request("/api/trash")).json()) as { photos: Array<{ id: string }> };
    expect(trash.photos.map((photo) => photo.id)).toEqual([recent.id]);
  });
});
