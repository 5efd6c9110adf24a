import { createHash } from "node:crypto";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { corpusFile, listFiles, listStoredKeys, waitForProcessing } from "./helpers/photos";
import { openTestDatabase } from "./helpers/test-database";
import { signedInAs, TestClient } from "./helpers/test-client";
import {
  createUpload,
  createUploadPath,
  deleteUpload,
  headUpload,
  offsetOf,
  patchThenDropConnection,
  patchThenStall,
  patchUpload,
  settledOffsetOf,
  TUS_ENDPOINT,
} from "./helpers/tus";

// tus 1.0.0 over raw HTTP against /api/upload/tus (SECURITY.md 1, 5, 19, 20, 40).

const LARGE_JPEG = "exif-samples/jpg/mobile/HMD_Nokia_8.3_5G.jpg";
const CHUNK = 512 * 1024;

interface UploadedPhoto {
  id: string;
  status: string;
  name: string;
  isDuplicate: boolean;
}

async function photoCountOf(ownerId: string): Promise<number> {
  const db = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
  try {
    const row = await db
      .selectFrom("photos")
      .where("owner_id", "=", ownerId)
      .select((eb) => eb.fn.countAll<string | number>().as("count"))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  } finally {
    await db.destroy();
  }
}

/** Stored originals: variants of earlier tests' photos may still be appearing, originals never. */
async function storedOriginals(): Promise<string[]> {
  return (await listStoredKeys(inject("storageConfig"))).filter((key) => key.startsWith("originals/"));
}

/** The upload locks held in the database for this upload (only on S3; local uploads lock in memory). */
async function databaseLocksOf(uploadId: string): Promise<string[]> {
  const db = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
  try {
    const rows = await db.selectFrom("upload_locks").select("upload_id").execute();
    return rows.map((row) => row.upload_id).filter((id) => id.endsWith(uploadId));
  } finally {
    await db.destroy();
  }
}

/**
 * What tus keeps of uploads (whose id starts with `idPrefix`): files under DATA_DIR/tmp/tus on local
 * storage, objects under tus-uploads/ in the bucket on S3.
 */
async function tusLeftovers(idPrefix = ""): Promise<string[]> {
  const config = inject("storageConfig");
  if (config.kind === "s3") {
    return (await listStoredKeys(config)).filter((key) => key.startsWith(`tus-uploads/${idPrefix}`));
  }
  return listFiles(path.join(inject("dataDirectory"), "tmp", "tus")).filter((file) => file.startsWith(idPrefix));
}

function idOf(uploadPath: string): string {
  return uploadPath.split("/").pop() ?? "";
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Sends `bytes[from..]` in chunks, expecting 204 for each but the last; answers the last response. */
async function sendRest(client: TestClient, uploadPath: string, bytes: Uint8Array<ArrayBuffer>, from: number): Promise<Response> {
  let offset = from;
  for (;;) {
    const end = Math.min(offset + CHUNK, bytes.length);
    const response = await patchUpload(client, uploadPath, offset, bytes.slice(offset, end));
    if (end === bytes.length) return response;
    expect(response.status, await response.clone().text()).toBe(204);
    expect(Number(response.headers.get("upload-offset"))).toBe(end);
    offset = end;
  }
}

async function photoOf(response: Response): Promise<UploadedPhoto> {
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { photo: UploadedPhoto }).photo;
}

/** The stored original's bytes, to prove the upload arrived intact. */
async function originalOf(client: TestClient, photoId: string): Promise<Uint8Array> {
  const response = await client.request(`/api/photos/${photoId}/original`);
  expect(response.status).toBe(200);
  return new Uint8Array(await response.arrayBuffer());
}

describe("tus uploads", () => {
  it("creates an upload, takes it in chunks, and answers the new photo, which then becomes ready", async () => {
    const { client, user } = await signedInAs("editor");
    const bytes = corpusFile(LARGE_JPEG);

    const created = await createUpload(client, bytes.length, "Nokia 8.3.jpg");
    expect(created.status).toBe(201);
    expect(created.headers.get("tus-resumable")).toBe("1.0.0");
    const uploadPath = new URL(created.headers.get("location") ?? "", client.baseUrl).pathname;
    expect(uploadPath).toMatch(/^\/api\/upload\/tus\/[0-9a-f]{32}$/);
    expect(await offsetOf(client, uploadPath)).toBe(0);

    const photo = await photoOf(await sendRest(client, uploadPath, bytes, 0));
    expect(photo).toMatchObject({ status: "processing", isDuplicate: false, name: "Nokia 8.3.jpg" });
    expect(await photoCountOf(user.id)).toBe(1);
    // The finished upload is gone from the tus folder and from tus.
    expect(await tusLeftovers(idOf(uploadPath))).toEqual([]);
    expect((await headUpload(client, uploadPath)).status).toBe(404);

    const ready = await waitForProcessing(client, photo.id);
    expect(ready.status, ready.failureReason ?? "").toBe("ready");
    expect(sha256(await originalOf(client, photo.id))).toBe(sha256(bytes));

    // The same bytes again, now in one PATCH: the existing photo, reported as a duplicate.
    const again = await createUploadPath(client, bytes.length, "copy.jpg");
    const duplicate = await photoOf(await patchUpload(client, again, 0, bytes));
    expect(duplicate).toMatchObject({ id: photo.id, isDuplicate: true });
    expect(await photoCountOf(user.id)).toBe(1);
  });

  it("resumes after an interrupted PATCH from the offset HEAD gives (20)", async () => {
    const { client, user } = await signedInAs("editor");
    const bytes = corpusFile(LARGE_JPEG);
    const uploadPath = await createUploadPath(client, bytes.length, "resumed.jpg");

    const sent = 700 * 1024;
    await patchThenDropConnection(client, uploadPath, 0, bytes.subarray(0, sent), bytes.length);

    // The server keeps what reached it before the connection dropped; HEAD says how much, once the
    // server has noticed the drop (tus's file store may flush the last bytes just after it).
    const offset = await settledOffsetOf(client, uploadPath);
    expect(offset).not.toBeNull();
    expect(offset).toBeLessThanOrEqual(sent);
    // A half-arrived file is no photo.
    expect(await photoCountOf(user.id)).toBe(0);

    const photo = await photoOf(await sendRest(client, uploadPath, bytes, offset ?? 0));
    expect(photo.isDuplicate).toBe(false);
    const ready = await waitForProcessing(client, photo.id);
    expect(ready.status, ready.failureReason ?? "").toBe("ready");
    expect(sha256(await originalOf(client, photo.id))).toBe(sha256(bytes));
  });

  it("keeps an upload whose client dropped mid-PATCH resumable, with no photo row, until it is deleted (20)", async () => {
    const { client, user } = await signedInAs("editor");
    const bytes = corpusFile(LARGE_JPEG);
    const uploadPath = await createUploadPath(client, bytes.length, "dropped.jpg");
    const storedBefore = await storedOriginals();

    await patchThenDropConnection(client, uploadPath, 0, bytes.subarray(0, 300 * 1024), bytes.length);

    const head = await headUpload(client, uploadPath);
    expect(head.status).toBe(200);
    expect(Number(head.headers.get("upload-offset"))).toBeLessThanOrEqual(300 * 1024);
    expect(Number(head.headers.get("upload-length"))).toBe(bytes.length);
    expect(head.headers.get("cache-control")).toBe("no-store");
    expect(await photoCountOf(user.id)).toBe(0);
    expect(await storedOriginals()).toEqual(storedBefore);
    expect(await tusLeftovers(idOf(uploadPath))).not.toEqual([]);

    // The uploader gives up: DELETE removes the partial bytes.
    expect((await deleteUpload(client, uploadPath)).status).toBe(204);
    expect((await headUpload(client, uploadPath)).status).toBe(404);
    expect(await tusLeftovers(idOf(uploadPath))).toEqual([]);
  });

  it("ends a stalled PATCH when its client comes back for the upload, which then resumes and finishes whole (20)", async () => {
    const { client } = await signedInAs("editor");
    const bytes = corpusFile(LARGE_JPEG);
    const uploadPath = await createUploadPath(client, bytes.length, "stalled.jpg");
    const stalled = await patchThenStall(client, uploadPath, 0, bytes.subarray(0, 300 * 1024), bytes.length);
    const isS3 = inject("storageConfig").kind === "s3";
    try {
      // On S3 the stalled request's lock is a row every instance sees (it appears once the server
      // has read the request's headers).
      if (isS3) await expect.poll(() => databaseLocksOf(idOf(uploadPath)), { timeout: 5000 }).toHaveLength(1);
      else expect(await databaseLocksOf(idOf(uploadPath))).toEqual([]);
      // The uploader sees a dead connection and asks where to go on. The stalled request holds the
      // upload's lock (in memory, or on S3 in the database for every instance): asked to let go,
      // it ends, and HEAD answers rather than waiting out the lock's 30 s timeout.
      // The ended request's last bytes may still land after that answer (tus's file store flushes
      // them after the abort); the PATCH then gets 409, and the client asks again, as Uppy does.
      let finished: Response | undefined;
      for (let attempt = 0; attempt < 3 && finished?.status !== 200; attempt++) {
        const offset = await offsetOf(client, uploadPath);
        expect(offset).not.toBeNull();
        expect(offset).toBeLessThanOrEqual(300 * 1024);
        finished = await patchUpload(client, uploadPath, offset as number, bytes.slice(offset as number));
        if (finished.status !== 409) expect(finished.status, await finished.clone().text()).toBe(200);
      }
      if (!finished) throw new Error("No PATCH was sent");
      expect(finished.status).toBe(200);
      const { photo } = (await finished.json()) as { photo: { id: string } };
      const original = await client.request(`/api/photos/${photo.id}/original`);
      expect(createHash("sha256").update(Buffer.from(await original.arrayBuffer())).digest("hex")).toBe(createHash("sha256").update(bytes).digest("hex"));
      // Nothing left behind: no lock, no tus upload.
      expect(await databaseLocksOf(idOf(uploadPath))).toEqual([]);
      expect(await tusLeftovers(idOf(uploadPath))).toEqual([]);
    } finally {
      stalled.close();
    }
  });

  it("answers a replayed chunk, a chunk ahead of the offset and one behind with 409, appending nothing (19)", async () => {
    const { client } = await signedInAs("editor");
    const bytes = corpusFile(LARGE_JPEG);
    const uploadPath = await createUploadPath(client, bytes.length, "replayed.jpg");

    expect((await patchUpload(client, uploadPath, 0, bytes.slice(0, CHUNK))).status).toBe(204);
    expect((await patchUpload(client, uploadPath, CHUNK, bytes.slice(CHUNK, 2 * CHUNK))).status).toBe(204);

    const replayed = await patchUpload(client, uploadPath, 0, bytes.slice(0, CHUNK));
    expect(replayed.status).toBe(409);
    expect(((await replayed.json()) as { error: { code: string } }).error.code).toBe("CONFLICT");
    expect(await offsetOf(client, uploadPath)).toBe(2 * CHUNK);

    const ahead = await patchUpload(client, uploadPath, 3 * CHUNK, bytes.slice(3 * CHUNK, 4 * CHUNK));
    expect(ahead.status).toBe(409);
    const behind = await patchUpload(client, uploadPath, CHUNK + 10, bytes.slice(CHUNK + 10, 2 * CHUNK + 10));
    expect(behind.status).toBe(409);
    expect(await offsetOf(client, uploadPath)).toBe(2 * CHUNK);

    // Finishing from the right offset gives exactly the original bytes.
    const photo = await photoOf(await sendRest(client, uploadPath, bytes, 2 * CHUNK));
    expect(sha256(await originalOf(client, photo.id))).toBe(sha256(bytes));
  });

  it("refuses an Upload-Length over the limit with 413 and keeps nothing (1)", async () => {
    const { client } = await signedInAs("editor");
    const filesBefore = await tusLeftovers();
    const response = await createUpload(client, 200 * 1024 * 1024 + 1);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(response.headers.get("location")).toBeNull();
    expect(await tusLeftovers()).toEqual(filesBefore);
  });

  it("refuses more bytes than the upload declared with 413, appending nothing", async () => {
    const { client } = await signedInAs("editor");
    const bytes = corpusFile(LARGE_JPEG);
    const uploadPath = await createUploadPath(client, 1000);
    const response = await patchUpload(client, uploadPath, 0, bytes.slice(0, 2000));
    expect(response.status).toBe(413);
    expect(await offsetOf(client, uploadPath)).toBe(0);
    expect((await deleteUpload(client, uploadPath)).status).toBe(204);
  });

  it("refuses an empty upload, and one that defers its length, with 400 and keeps nothing (2)", async () => {
    const { client, user } = await signedInAs("editor");
    const filesBefore = await tusLeftovers();
    const empty = await createUpload(client, 0, "empty.jpg");
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: { code: string } }).error.code).toBe("BAD_REQUEST");
    const deferred = await client.request(TUS_ENDPOINT, {
      method: "POST",
      headers: { "Tus-Resumable": "1.0.0", "Upload-Defer-Length": "1" },
    });
    expect(deferred.status).toBe(400);
    expect(await photoCountOf(user.id)).toBe(0);
    expect(await tusLeftovers()).toEqual(filesBefore);
  });

  it("refuses a finished upload that is not a photo with 415 and leaves nothing behind (5)", async () => {
    const { client, user } = await signedInAs("editor");
    const html = new TextEncoder().encode(`<!doctype html><html><body><script>alert(1)</script>${"x".repeat(600 * 1024)}</body></html>`);
    const storedBefore = await storedOriginals();
    const uploadPath = await createUploadPath(client, html.length, "page.jpg");

    expect((await patchUpload(client, uploadPath, 0, html.slice(0, CHUNK))).status).toBe(204);
    const refused = await patchUpload(client, uploadPath, CHUNK, html.slice(CHUNK));
    expect(refused.status).toBe(415);
    const { error } = (await refused.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(error.message).toContain("page.jpg");

    expect(await photoCountOf(user.id)).toBe(0);
    expect(await storedOriginals()).toEqual(storedBefore);
    expect(await tusLeftovers(idOf(uploadPath))).toEqual([]);
    expect((await headUpload(client, uploadPath)).status).toBe(404);
  });

  it("answers 404 to another user's HEAD, PATCH and DELETE on an upload, and leaves it intact (40)", async () => {
    const owner = await signedInAs("editor");
    const other = await signedInAs("editor");
    const admin = await signedInAs("admin");
    const bytes = corpusFile(LARGE_JPEG);
    const uploadPath = await createUploadPath(owner.client, bytes.length, "mine.jpg");
    expect((await patchUpload(owner.client, uploadPath, 0, bytes.slice(0, CHUNK))).status).toBe(204);

    for (const stranger of [other.client, admin.client]) {
      expect((await headUpload(stranger, uploadPath)).status).toBe(404);
      const patch = await patchUpload(stranger, uploadPath, CHUNK, bytes.slice(CHUNK, 2 * CHUNK));
      expect(patch.status).toBe(404);
      expect(((await patch.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
      expect((await deleteUpload(stranger, uploadPath)).status).toBe(404);
    }
    // An id that is no upload at all answers the same.
    expect((await headUpload(other.client, `${TUS_ENDPOINT}/${"0".repeat(32)}`)).status).toBe(404);
    expect((await headUpload(other.client, `${TUS_ENDPOINT}/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);

    expect(await offsetOf(owner.client, uploadPath)).toBe(CHUNK);
    const photo = await photoOf(await sendRest(owner.client, uploadPath, bytes, CHUNK));
    expect(sha256(await originalOf(owner.client, photo.id))).toBe(sha256(bytes));
  });

  it("answers a signed-out caller 401 and a viewer 403 on every tus method", async () => {
    const owner = await signedInAs("editor");
    const uploadPath = await createUploadPath(owner.client, 1000);
    const viewer = await signedInAs("viewer");
    const anonymous = new TestClient();
    const chunk = new Uint8Array(100);

    for (const [client, status] of [
      [anonymous, 401],
      [viewer.client, 403],
    ] as const) {
      expect((await createUpload(client, 1000)).status).toBe(status);
      expect((await headUpload(client, uploadPath)).status).toBe(status);
      // A chunk skips the interceptor (it streams), so this is the handler's own answer.
      const patch = await patchUpload(client, uploadPath, 0, chunk);
      expect(patch.status).toBe(status);
      expect(((await patch.json()) as { error: { code: string } }).error.code).toBe(status === 401 ? "UNAUTHENTICATED" : "FORBIDDEN");
      expect((await deleteUpload(client, uploadPath)).status).toBe(status);
      expect((await client.request(TUS_ENDPOINT, { method: "OPTIONS" })).status).toBe(status);
    }
    expect(await offsetOf(owner.client, uploadPath)).toBe(0);
    expect((await deleteUpload(owner.client, uploadPath)).status).toBe(204);
  });

  it("refuses a cross-site chunk that rides on the session cookie with 403 (35)", async () => {
    const { client } = await signedInAs("editor");
    const uploadPath = await createUploadPath(client, 1000);
    const response = await client.request(uploadPath, {
      method: "PATCH",
      headers: { "Tus-Resumable": "1.0.0", "Upload-Offset": "0" },
      body: { raw: new Uint8Array(100), contentType: "application/offset+octet-stream" },
      origin: "https://evil.example",
    });
    expect(response.status).toBe(403);
    expect(await offsetOf(client, uploadPath)).toBe(0);
    expect((await deleteUpload(client, uploadPath)).status).toBe(204);
  });
});
