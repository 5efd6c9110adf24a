import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { listFiles, listStoredKeys, uploadFiles } from "./helpers/photos";
import { startTestApp, type TestApp, testStorageFromEnvironment } from "./helpers/test-app";
import { createTestUser, TestClient } from "./helpers/test-client";
import { openTestDatabase } from "./helpers/test-database";
import { createUpload, createUploadPath, deleteUpload, patchUpload, tusMetadata, TUS_ENDPOINT } from "./helpers/tus";
import { TEST_SECRET } from "./setup/global-setup";

// SECURITY.md 54: unfinished tus uploads reserve room. Their declared bytes count against the quota
// from the moment they are created, a user has a bounded number of them, and a creation that is
// refused leaves nothing behind. A server of its own: 3 unfinished uploads, 3 MB per user.

const ADMIN = { email: "tus-limits@example.test", password: "tus-limits-password-1" };
const MAX_UNFINISHED_UPLOADS = 3;
const UPLOAD_QUOTA_BYTES = 3_000_000;

const storage = testStorageFromEnvironment();
let app: TestApp;
let admin: TestClient;

beforeAll(async () => {
  app = await startTestApp(inject("databaseKind"), {
    ...storage.env,
    NEXTAUTH_SECRET: TEST_SECRET,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: "error",
    MAX_UNFINISHED_UPLOADS: String(MAX_UNFINISHED_UPLOADS),
    UPLOAD_QUOTA_BYTES: String(UPLOAD_QUOTA_BYTES),
  });
  admin = new TestClient(app.url);
  await admin.signIn(ADMIN.email, ADMIN.password);
}, 60_000);

afterAll(async () => {
  await app?.stop();
});

/** A new editor of this server, signed in. */
async function newEditor(): Promise<{ client: TestClient; id: string }> {
  const user = await createTestUser(admin, "editor");
  const client = new TestClient(app.url);
  await client.signIn(user.email, user.password);
  if (!client.sessionToken) throw new Error("The editor could not sign in");
  return { client, id: user.id };
}

async function smallJpeg(colour: string): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await sharp({ create: { width: 32, height: 24, channels: 3, background: colour } }).jpeg().toBuffer());
}

/** The unfinished uploads the database holds for this user. */
async function pendingRowsOf(ownerId: string): Promise<Array<{ upload_id: string; declared_bytes: number }>> {
  const db = openTestDatabase({ dataDirectory: app.dataDirectory, databaseUrl: app.databaseUrl || undefined });
  try {
    const rows = await db.selectFrom("pending_uploads").select(["upload_id", "declared_bytes"]).where("owner_id", "=", ownerId).execute();
    return rows.map((row) => ({ upload_id: row.upload_id, declared_bytes: Number(row.declared_bytes) }));
  } finally {
    await db.destroy();
  }
}

/** What tus keeps of uploads: files under DATA_DIR/tmp/tus, or objects under tus-uploads/ on S3. */
async function tusLeftovers(): Promise<string[]> {
  if (storage.config) return (await listStoredKeys(storage.config)).filter((key) => key.startsWith("tus-uploads/"));
  return listFiles(path.join(app.dataDirectory, "tmp", "tus"));
}

async function errorOf(response: Response): Promise<{ code: string; message: string }> {
  return ((await response.json()) as { error: { code: string; message: string } }).error;
}

describe("unfinished tus uploads (54)", () => {
  it("refuses the upload past MAX_UNFINISHED_UPLOADS with 429; finishing or deleting one frees its slot", async () => {
    const { client, id } = await newEditor();
    const paths: string[] = [];
    for (let index = 0; index < MAX_UNFINISHED_UPLOADS; index++) paths.push(await createUploadPath(client, 1000, `unfinished-${index}.jpg`));

    const refused = await createUpload(client, 1000, "one-too-many.jpg");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("location")).toBeNull();
    const error = await errorOf(refused);
    expect(error.code).toBe("RATE_LIMITED");
    expect(error.message).toContain(`${MAX_UNFINISHED_UPLOADS} unfinished uploads`);
    expect(await pendingRowsOf(id)).toHaveLength(MAX_UNFINISHED_UPLOADS);

    // DELETE frees a slot.
    expect((await deleteUpload(client, paths[0])).status).toBe(204);
    expect(await pendingRowsOf(id)).toHaveLength(MAX_UNFINISHED_UPLOADS - 1);
    const photo = await smallJpeg("#335577");
    const finishing = await createUploadPath(client, photo.length, "finishing.jpg");
    expect((await createUpload(client, 1000)).status).toBe(429);

    // Finishing one frees a slot too.
    const finished = await patchUpload(client, finishing, 0, photo);
    expect(finished.status, await finished.clone().text()).toBe(200);
    expect(await pendingRowsOf(id)).toHaveLength(MAX_UNFINISHED_UPLOADS - 1);
    paths.push(await createUploadPath(client, 1000, "after-finish.jpg"));

    // Another user's slots are their own.
    const other = await newEditor();
    expect((await createUpload(other.client, 1000)).status).toBe(201);

    for (const uploadPath of paths.slice(1)) expect((await deleteUpload(client, uploadPath)).status).toBe(204);
    expect(await pendingRowsOf(id)).toEqual([]);
  });

  it("never lets concurrent creations past the cap", async () => {
    const { client, id } = await newEditor();
    const responses = await Promise.all(Array.from({ length: 12 }, (_, index) => createUpload(client, 1000, `racing-${index}.jpg`)));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([...Array(MAX_UNFINISHED_UPLOADS).fill(201), ...Array(12 - MAX_UNFINISHED_UPLOADS).fill(429)]);
    expect(await pendingRowsOf(id)).toHaveLength(MAX_UNFINISHED_UPLOADS);
    for (const response of responses.filter((created) => created.status === 201)) {
      const uploadPath = new URL(response.headers.get("location") ?? "", app.url).pathname;
      expect((await deleteUpload(client, uploadPath)).status).toBe(204);
    }
  });

  it("counts the declared bytes of unfinished uploads against the quota at creation (413), and frees them on DELETE", async () => {
    const { client, id } = await newEditor();
    const large = await createUploadPath(client, 2_500_000, "large.jpg");

    const refused = await createUpload(client, 1_000_000, "over-quota.jpg");
    expect(refused.status).toBe(413);
    expect(refused.headers.get("location")).toBeNull();
    const error = await errorOf(refused);
    expect(error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(error.message).toMatch(/storage quota of 3 MB/);
    expect(error.message).toMatch(/unfinished uploads/);
    expect(await pendingRowsOf(id)).toEqual([expect.objectContaining({ declared_bytes: 2_500_000 })]);

    // The multipart path counts them too: 1 MB more would pass the quota.
    const noise = new Uint8Array(await sharp(Buffer.alloc(700 * 700 * 3, 0).map(() => Math.floor(Math.random() * 256)), { raw: { width: 700, height: 700, channels: 3 } }).jpeg({ quality: 95 }).toBuffer());
    expect(noise.length).toBeGreaterThan(UPLOAD_QUOTA_BYTES - 2_500_000);
    const multipart = await uploadFiles(client, [{ bytes: noise, name: "multipart.jpg" }]);
    expect(multipart.status).toBe(413);
    expect((await errorOf(multipart)).message).toMatch(/unfinished uploads/);

    expect((await deleteUpload(client, large)).status).toBe(204);
    expect(await pendingRowsOf(id)).toEqual([]);
    expect((await uploadFiles(client, [{ bytes: noise, name: "multipart.jpg" }])).status).toBe(201);
    const fits = await createUploadPath(client, UPLOAD_QUOTA_BYTES - noise.length, "fits.jpg");
    expect((await createUpload(client, 1, "one-byte-over.jpg")).status).toBe(413);
    expect((await deleteUpload(client, fits)).status).toBe(204);
  });

  it("frees the bytes of a finished upload, counting the stored photo instead", async () => {
    const { client, id } = await newEditor();
    const photo = await smallJpeg("#775533");
    const uploadPath = await createUploadPath(client, photo.length, "finished.jpg");
    expect(await pendingRowsOf(id)).toEqual([expect.objectContaining({ declared_bytes: photo.length })]);
    expect((await patchUpload(client, uploadPath, 0, photo)).status).toBe(200);
    expect(await pendingRowsOf(id)).toEqual([]);
    // What is left is the quota minus the stored photo, to the byte.
    const rest = await createUploadPath(client, UPLOAD_QUOTA_BYTES - photo.length, "rest.jpg");
    expect((await deleteUpload(client, rest)).status).toBe(204);
  });

  it("frees the slot of a finished upload that is refused (not a photo)", async () => {
    const { client, id } = await newEditor();
    const html = new TextEncoder().encode("<!doctype html><script>alert(1)</script>");
    const uploadPath = await createUploadPath(client, html.length, "page.jpg");
    expect((await patchUpload(client, uploadPath, 0, html)).status).toBe(415);
    expect(await pendingRowsOf(id)).toEqual([]);
  });

  it("leaves nothing behind when a creating POST sends more than its Upload-Length", async () => {
    const { client, id } = await newEditor();
    const before = await tusLeftovers();
    const photo = await smallJpeg("#557733");
    const response = await client.request(TUS_ENDPOINT, {
      method: "POST",
      headers: { "Tus-Resumable": "1.0.0", "Upload-Length": String(photo.length - 100), "Upload-Metadata": tusMetadata({ filename: "longer.jpg" }) },
      body: { raw: photo, contentType: "application/offset+octet-stream" },
    });
    expect(response.status).toBe(413);
    expect(response.headers.get("location")).toBeNull();
    expect(await tusLeftovers()).toEqual(before);
    expect(await pendingRowsOf(id)).toEqual([]);
    // And the slot it took is free again.
    for (let index = 0; index < MAX_UNFINISHED_UPLOADS; index++) await createUploadPath(client, 1000);
  });
});
