import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, inject, it } from "vitest";
import { bearer, createApiToken, rawGetWithAuthorization } from "./helpers/api-tokens";
import { CORPUS, corpusFile, uploadCorpusFile, type UploadedPhoto, waitForProcessing } from "./helpers/photos";
import { openTestDatabase } from "./helpers/test-database";
import { createTestUser, signedInAdmin, signedInAs, TestClient } from "./helpers/test-client";

// Photos this file uploads, and a session that can read each. The worker decodes them in the
// background (a HEIC takes a while); other files check that nothing is left in the temp folder,
// so this file waits for its own processing to finish before it hands the server on.
const uploadedPhotos: Array<{ client: TestClient; id: string }> = [];

afterAll(async () => {
  for (const { client, id } of uploadedPhotos) await waitForProcessing(client, id, 120_000);
}, 180_000);

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

async function errorOf(response: Response): Promise<{ code: string; message: string }> {
  return ((await response.json()) as { error: { code: string; message: string } }).error;
}

/** What `curl -F file=@IMG_0001.HEIC -H "Authorization: Bearer <token>" <site>/api/upload` sends: no cookie, no Origin. */
async function curlUpload(secret: string, address: string, bytes: Uint8Array<ArrayBuffer>, name: string): Promise<Response> {
  const form = new FormData();
  form.append("file", new Blob([bytes]), name);
  return fetch(new URL("/api/upload", inject("baseUrl")), {
    method: "POST",
    headers: { Authorization: `Bearer ${secret}`, "X-Forwarded-For": address, "User-Agent": "curl/8.0" },
    body: form,
  });
}

describe("creating, listing and revoking tokens", () => {
  it("shows the secret once, stores only its SHA-256, and never lists it again", async () => {
    const { client, user } = await signedInAs("editor");
    const created = await createApiToken(client, ["photos:read", "upload", "upload"], { name: "phone import", expiresInDays: 30 });
    expect(created.secret).toMatch(/^cs_[A-Za-z0-9_-]{43}$/);
    expect(created.token).toMatchObject({ name: "phone import", scopes: ["upload", "photos:read"], hint: created.secret.slice(0, 7), lastUsedAt: null });
    expect(Date.parse(created.token.expiresAt ?? "") - Date.parse(created.token.createdAt)).toBe(30 * 24 * 3600 * 1000);

    const list = await client.request("/api/tokens");
    expect(list.status).toBe(200);
    const text = await list.text();
    expect(text).not.toContain(created.secret);
    expect(text).not.toContain(created.secret.slice(7));
    const hash = createHash("sha256").update(created.secret).digest("hex");
    expect(text).not.toContain(hash);
    expect((JSON.parse(text) as { tokens: Array<{ id: string }> }).tokens.map((token) => token.id)).toEqual([created.token.id]);

    const rows = await withDatabase((db) => db.selectFrom("api_tokens").selectAll().where("user_id", "=", user.id).execute());
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(hash);
    expect(JSON.stringify(rows[0])).not.toContain(created.secret.slice(7));
  });

  it("refuses bad input with 422 and stores nothing", async () => {
    const { client, user } = await signedInAs("editor");
    for (const json of [{ name: "", scopes: ["upload"] }, { name: "x", scopes: [] }, { name: "x", scopes: ["admin"] }, { name: "x", scopes: ["upload"], expiresInDays: 0 }]) {
      const response = await client.request("/api/tokens", { body: { json } });
      expect(response.status, JSON.stringify(json)).toBe(422);
    }
    const count = await withDatabase((db) => db.selectFrom("api_tokens").select("id").where("user_id", "=", user.id).execute());
    expect(count).toHaveLength(0);
  });

  it("lets a viewer make photo tokens but not an upload token; viewers cannot open /admin/tokens", async () => {
    const { client } = await signedInAs("viewer");
    const refused = await client.request("/api/tokens", { body: { json: { name: "x", scopes: ["upload"] } } });
    expect(refused.status).toBe(403);
    await createApiToken(client, ["photos:read"]);
    expect((await client.request("/admin/tokens")).status).toBe(403);
  });

  it("revokes a token: it stops working at once; another user's token id answers 404", async () => {
    const { client } = await signedInAs("editor");
    const { client: other } = await signedInAs("editor");
    const created = await createApiToken(client, ["photos:read"]);
    const script = new TestClient();
    expect((await script.request("/api/photos", { headers: bearer(created.secret) })).status).toBe(200);

    expect((await other.request(`/api/tokens/${created.token.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await script.request("/api/photos", { headers: bearer(created.secret) })).status).toBe(200);

    expect((await client.request(`/api/tokens/${created.token.id}`, { method: "DELETE" })).status).toBe(204);
    const revoked = await script.request("/api/photos", { headers: bearer(created.secret) });
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect((await client.request(`/api/tokens/${created.token.id}`, { method: "DELETE" })).status).toBe(404);
    expect(await (await client.request("/api/tokens")).json()).toEqual({ tokens: [] });
  });

  it("refuses cross-site token creation with a session cookie (403)", async () => {
    const { client } = await signedInAs("editor");
    const response = await client.request("/api/tokens", { body: { json: { name: "x", scopes: ["upload"] } }, origin: "https://evil.example" });
    expect(response.status).toBe(403);
  });
});

describe("using a token", () => {
  it("uploads a HEIC like curl does: 201 with the photo id and status processing", async () => {
    const { client, user } = await signedInAs("editor");
    const { secret } = await createApiToken(client, ["upload"]);
    const response = await curlUpload(secret, new TestClient().address, corpusFile("exif-samples/heic/IMG_5195.HEIC"), "IMG_0001.HEIC");
    expect(response.status, await response.clone().text()).toBe(201);
    const { photos } = (await response.json()) as { photos: UploadedPhoto[] };
    expect(photos).toHaveLength(1);
    expect(photos[0]).toMatchObject({ status: "processing", name: "IMG_0001.HEIC", isDuplicate: false });
    uploadedPhotos.push({ client, id: photos[0].id });
    const row = await withDatabase((db) => db.selectFrom("photos").select(["owner_id", "original_type"]).where("id", "=", photos[0].id).executeTakeFirst());
    expect(row).toEqual({ owner_id: user.id, original_type: "heic" });
  });

  // The real thing, where curl is installed: the exact command a person would type.
  it.skipIf(!fs.existsSync("/usr/bin/curl"))("uploads with the curl command line", async () => {
    const { client } = await signedInAs("editor");
    const { secret } = await createApiToken(client, ["upload"]);
    const file = path.join(CORPUS, "exif-samples/jpg/Fujifilm_FinePix6900ZOOM.jpg");
    const { stdout } = await promisify(execFile)("/usr/bin/curl", [
      "-sS", "-w", "\n%{http_code}", "-F", `file=@${file}`, "-H", `Authorization: Bearer ${secret}`,
      "-H", `X-Forwarded-For: ${new TestClient().address}`, new URL("/api/upload", inject("baseUrl")).toString(),
    ]);
    const [body, status] = stdout.split("\n");
    expect(status, body).toBe("201");
    const [photo] = (JSON.parse(body) as { photos: UploadedPhoto[] }).photos;
    expect(photo).toMatchObject({ status: "processing", name: "Fujifilm_FinePix6900ZOOM.jpg" });
    uploadedPhotos.push({ client, id: photo.id });
  });

  it("an upload-only token cannot read photos (403 insufficient_scope)", async () => {
    const { client } = await signedInAs("editor");
    const photo = await uploadCorpusFile(client, "exif-samples/jpg/Canon_40D.jpg");
    uploadedPhotos.push({ client, id: photo.id });
    const { secret } = await createApiToken(client, ["upload"]);
    const script = new TestClient();
    for (const path of ["/api/photos", `/api/photos/${photo.id}`, `/api/photos/${photo.id}/original`]) {
      const response = await script.request(path, { headers: bearer(secret) });
      expect(response.status, path).toBe(403);
      expect(response.headers.get("www-authenticate")).toContain('scope="photos:read"');
    }
    expect((await script.request(`/api/photos/${photo.id}`, { method: "DELETE", headers: bearer(secret) })).status).toBe(403);
    expect((await script.request("/api/upload", { headers: bearer(secret) })).status).toBe(200);
  });

  it("a photos:read token reads but cannot change or delete; photos:write can, from any origin", async () => {
    const { client } = await signedInAs("editor");
    const photo = await uploadCorpusFile(client, "exif-samples/jpg/Canon_40D.jpg");
    const reader = await createApiToken(client, ["photos:read"]);
    const writer = await createApiToken(client, ["photos:write"]);
    const script = new TestClient();

    const list = await script.request("/api/photos?owner=me", { headers: bearer(reader.secret) });
    expect(list.status).toBe(200);
    expect(((await list.json()) as { photos: Array<{ id: string }> }).photos.map((item) => item.id)).toContain(photo.id);
    expect((await script.request(`/api/photos/${photo.id}`, { headers: bearer(reader.secret) })).status).toBe(200);
    const original = await script.request(`/api/photos/${photo.id}/original`, { headers: bearer(reader.secret) });
    expect(original.status).toBe(200);
    expect(original.headers.get("content-disposition")).toMatch(/^attachment/);
    expect((await script.request("/api/upload", { body: { multipart: new FormData() }, headers: bearer(reader.secret) })).status).toBe(403);

    const patchByReader = await script.request(`/api/photos/${photo.id}`, { method: "PATCH", body: { json: { title: "x" } }, headers: bearer(reader.secret) });
    expect(patchByReader.status).toBe(403);
    expect((await errorOf(patchByReader)).code).toBe("FORBIDDEN");
    expect((await script.request(`/api/photos/${photo.id}`, { method: "DELETE", headers: bearer(reader.secret) })).status).toBe(403);

    // Bearer calls are exempt from the same-origin check: no browser attaches a token by itself.
    const patchByWriter = await script.request(`/api/photos/${photo.id}`, {
      method: "PATCH",
      body: { json: { title: "Renamed by script" } },
      headers: bearer(writer.secret),
      origin: "https://evil.example",
    });
    expect(patchByWriter.status).toBe(200);
    expect(((await patchByWriter.json()) as { photo: { title: string } }).photo.title).toBe("Renamed by script");
    expect((await script.request(`/api/photos/${photo.id}`, { headers: bearer(writer.secret) })).status).toBe(403);
    // Let the worker finish first, so the delete does not race a job that still holds a temp file.
    await waitForProcessing(client, photo.id);
    expect((await script.request(`/api/photos/${photo.id}`, { method: "DELETE", headers: bearer(writer.secret) })).status).toBe(204);
    expect((await client.request(`/api/photos/${photo.id}`)).status).toBe(404);
  });

  it("acts as its owner only: another user's private photo is 404 by token too", async () => {
    const { client: owner } = await signedInAs("editor");
    const photo = await uploadCorpusFile(owner, "exif-samples/jpg/Canon_40D.jpg");
    uploadedPhotos.push({ client: owner, id: photo.id });
    const { client: stranger } = await signedInAs("editor");
    const { secret } = await createApiToken(stranger, ["photos:read", "photos:write"]);
    const script = new TestClient();
    for (const [method, path] of [["GET", `/api/photos/${photo.id}`], ["GET", `/api/photos/${photo.id}/original`], ["DELETE", `/api/photos/${photo.id}`]]) {
      expect((await script.request(path, { method, headers: bearer(secret) })).status, `${method} ${path}`).toBe(404);
    }
  });

  it("follows the owner's account: disabled 401, demoted editor's upload token 403, deleted 401 and rows gone", async () => {
    const admin = await signedInAdmin();
    const { client, user } = await signedInAs("editor");
    const uploader = await createApiToken(client, ["upload"]);
    const reader = await createApiToken(client, ["photos:read"]);
    const script = new TestClient();
    expect((await script.request("/api/upload", { headers: bearer(uploader.secret) })).status).toBe(200);

    expect((await admin.request(`/api/admin/users/${user.id}`, { method: "PATCH", body: { json: { disabled: true } } })).status).toBe(200);
    expect((await script.request("/api/upload", { headers: bearer(uploader.secret) })).status).toBe(401);
    expect((await script.request("/api/photos", { headers: bearer(reader.secret) })).status).toBe(401);
    expect((await admin.request(`/api/admin/users/${user.id}`, { method: "PATCH", body: { json: { disabled: false } } })).status).toBe(200);
    expect((await script.request("/api/photos", { headers: bearer(reader.secret) })).status).toBe(200);

    expect((await admin.request(`/api/admin/users/${user.id}`, { method: "PATCH", body: { json: { role: "viewer" } } })).status).toBe(200);
    const demoted = await curlUpload(uploader.secret, script.address, corpusFile("exif-samples/jpg/Canon_40D.jpg"), "a.jpg");
    expect(demoted.status).toBe(403);
    expect((await errorOf(demoted)).message).toBe("Your role does not allow this.");
    expect((await script.request("/api/photos", { headers: bearer(reader.secret) })).status).toBe(200);

    expect((await admin.request(`/api/admin/users/${user.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await script.request("/api/photos", { headers: bearer(reader.secret) })).status).toBe(401);
    const left = await withDatabase((db) => db.selectFrom("api_tokens").select("id").where("user_id", "=", user.id).execute());
    expect(left).toEqual([]);
  });

  it("refuses an expired token with 401", async () => {
    const { client } = await signedInAs("editor");
    const created = await createApiToken(client, ["photos:read"], { expiresInDays: 1 });
    await withDatabase((db) => db.updateTable("api_tokens").set({ expires_at: "2000-01-01T00:00:00.000Z" }).where("id", "=", created.token.id).execute());
    expect((await new TestClient().request("/api/photos", { headers: bearer(created.secret) })).status).toBe(401);
  });

  it("writes last used when it is stale, and not again on every request", async () => {
    const { client } = await signedInAs("editor");
    const created = await createApiToken(client, ["photos:read"]);
    const script = new TestClient();
    const lastUsed = () =>
      withDatabase(async (db) => (await db.selectFrom("api_tokens").select("last_used_at").where("id", "=", created.token.id).executeTakeFirstOrThrow()).last_used_at);
    const setLastUsed = (value: string) => withDatabase((db) => db.updateTable("api_tokens").set({ last_used_at: value }).where("id", "=", created.token.id).execute());

    expect((await script.request("/api/photos", { headers: bearer(created.secret) })).status).toBe(200);
    const first = await lastUsed();
    expect(first).not.toBeNull();
    const listed = ((await (await client.request("/api/tokens")).json()) as { tokens: Array<{ lastUsedAt: string | null }> }).tokens[0];
    expect(listed.lastUsedAt).toBe(first);

    // A use recorded "just now" (here: a marker no clock reaches) is not overwritten...
    await setLastUsed("2999-01-01T00:00:00.000Z");
    expect((await script.request("/api/photos", { headers: bearer(created.secret) })).status).toBe(200);
    expect(await lastUsed()).toBe("2999-01-01T00:00:00.000Z");
    // ...a stale one is.
    await setLastUsed("2000-01-01T00:00:00.000Z");
    expect((await script.request("/api/photos", { headers: bearer(created.secret) })).status).toBe(200);
    expect(await lastUsed()).not.toBe("2000-01-01T00:00:00.000Z");
  });
});

describe("where tokens never work", () => {
  it("cannot manage tokens, users or sessions, or open pages", async () => {
    const admin = await signedInAdmin();
    const created = await createApiToken(admin, ["upload", "photos:read", "photos:write"]);
    const script = new TestClient();
    const headers = bearer(created.secret);
    const attempts: Array<[string, string, { json: unknown } | undefined]> = [
      ["GET", "/api/tokens", undefined],
      ["POST", "/api/tokens", { json: { name: "minted", scopes: ["upload"] } }],
      ["DELETE", `/api/tokens/${created.token.id}`, undefined],
      ["GET", "/api/admin/users", undefined],
      ["POST", "/api/admin/users", { json: { email: "x@example.test", name: "X", role: "admin", password: "password-long-enough" } }],
      ["DELETE", "/api/me/sessions", undefined],
    ];
    for (const [method, path, body] of attempts) {
      const response = await script.request(path, { method, body, headers });
      expect(response.status, `${method} ${path}`).toBe(401);
    }
    const page = await script.request("/admin/tokens", { headers });
    expect(page.status).toBe(307);
    expect(page.headers.get("location")).toContain("/signin");
    expect(await (await script.request("/api/auth/session", { headers })).json()).toEqual({});
    // Nothing was minted, and the token still exists.
    const list = (await (await admin.request("/api/tokens")).json()) as { tokens: Array<{ id: string; name: string }> };
    expect(list.tokens.map((token) => token.name)).not.toContain("minted");
    expect(list.tokens.map((token) => token.id)).toContain(created.token.id);
  });

  it("is not a session cookie, and a session cookie is not a token", async () => {
    const { client } = await signedInAs("editor");
    const { secret } = await createApiToken(client, ["photos:read"]);
    const pasted = new TestClient();
    pasted.setSessionToken(secret);
    expect((await pasted.request("/api/photos")).status).toBe(401);
    expect(await pasted.session()).toEqual({});
    expect((await pasted.request("/admin/tokens")).status).toBe(307);

    const sessionAsBearer = await new TestClient().request("/api/photos", { headers: bearer(client.sessionToken ?? "") });
    expect(sessionAsBearer.status).toBe(401);
  });

  it("refuses a request with both a session cookie and a Bearer token (400), but lets other schemes ride along", async () => {
    const { client } = await signedInAs("editor");
    const { secret } = await createApiToken(client, ["photos:read", "upload"]);
    const both = await client.request("/api/photos", { headers: bearer(secret) });
    expect(both.status).toBe(400);
    expect((await errorOf(both)).message).toMatch(/not both/);
    const bothUpload = await client.request("/api/upload", { body: { multipart: new FormData() }, headers: bearer(secret) });
    expect(bothUpload.status).toBe(400);
    expect((await client.request("/api/tokens", { headers: bearer(secret) })).status).toBe(400);
    // A reverse proxy's Basic auth is not ours to judge: the cookie still decides.
    expect((await client.request("/api/photos", { headers: { Authorization: "Basic dXNlcjpwYXNz" } })).status).toBe(200);
  });
});

describe("garbage Authorization headers", () => {
  const unknownToken = `cs_${"A".repeat(43)}`;

  it.each([
    ["empty", ""],
    ["the scheme alone", "Bearer"],
    ["the scheme and spaces", "Bearer    "],
    ["an unknown token", `Bearer ${unknownToken}`],
    ["a token of another shape", "Bearer abc.def.ghi"],
    ["two tokens", `Bearer ${unknownToken} ${unknownToken}`],
    ["8 KB", `Bearer ${"x".repeat(8 * 1024)}`],
    ["Latin-1", "Bearer cs_caf\u00e9"],
    ["another scheme", "Basic dXNlcjpwYXNz"],
  ])("%s: 401 on /api/photos and on a multipart upload, never 500", async (_label, value) => {
    const script = new TestClient();
    const read = await script.request("/api/photos", { headers: { Authorization: value } });
    expect(read.status).toBe(401);
    const upload = await script.request("/api/upload", { body: { multipart: new FormData() }, headers: { Authorization: value } });
    expect(upload.status).toBe(401);
    expect((await errorOf(upload)).code).toBe("UNAUTHENTICATED");
    if (value.startsWith("Bearer")) expect(upload.headers.get("www-authenticate")).toMatch(/^Bearer /);
  });

  it.each([
    ["UTF-8", Buffer.from("Bearer cs_\u{1F642}\u00e9\u202e", "utf8")],
    ["raw high bytes", Buffer.from([0x42, 0x65, 0x61, 0x72, 0x65, 0x72, 0x20, 0xff, 0xfe, 0x80])],
  ])("%s bytes: 401, never 500", async (_label, bytes) => {
    for (const path of ["/api/photos", "/api/upload"]) {
      const answer = await rawGetWithAuthorization(inject("baseUrl"), path, bytes, new TestClient().address);
      expect(answer.status, answer.text.slice(0, 300)).toBe(401);
    }
  });

  it("throttles an address after 20 failed lookups (429 with Retry-After), others unaffected", async () => {
    const { client } = await signedInAs("editor");
    const { secret } = await createApiToken(client, ["photos:read"]);
    const flooder = new TestClient();
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const response = await flooder.request("/api/photos", { headers: bearer(`cs_${String(attempt).padStart(43, "x")}`) });
      expect(response.status).toBe(401);
    }
    const throttled = await flooder.request("/api/photos", { headers: bearer(secret) });
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await new TestClient().request("/api/photos", { headers: bearer(secret) })).status).toBe(200);
  });
});

describe("sessions are unchanged", () => {
  it("a signed-in editor still uploads and reads with the cookie alone", async () => {
    const { client } = await signedInAs("editor");
    const photo = await uploadCorpusFile(client, "exif-samples/jpg/Canon_40D.jpg");
    uploadedPhotos.push({ client, id: photo.id });
    expect((await client.request(`/api/photos/${photo.id}`)).status).toBe(200);
    const unauthenticated = await new TestClient().request("/api/photos");
    expect(unauthenticated.status).toBe(401);
  });

  it("admins manage only their own tokens", async () => {
    const admin = await signedInAdmin();
    const user = await createTestUser(admin, "editor");
    const client = new TestClient();
    await client.signIn(user.email, user.password);
    const created = await createApiToken(client, ["upload"]);
    expect((await admin.request(`/api/tokens/${created.token.id}`, { method: "DELETE" })).status).toBe(404);
    const adminList = (await (await admin.request("/api/tokens")).json()) as { tokens: Array<{ id: string }> };
    expect(adminList.tokens.map((token) => token.id)).not.toContain(created.token.id);
  });
});
