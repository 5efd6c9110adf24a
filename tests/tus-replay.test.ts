import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { releaseAbandonedPendingUploads } from "@/src/uploads/pending-uploads.service";
import { ABANDONED_TUS_UPLOAD_MS, removeAbandonedTusUploads } from "@/src/uploads/tus-upload-expiry";
import { openTestDatabase } from "./helpers/test-database";
import { signedInAs, type TestClient, type TestUser } from "./helpers/test-client";
import { createUpload, createUploadPath, headUpload, offsetOf, patchUpload } from "./helpers/tus";

// nginx sends a tus request cut off by a dead instance to the other one (`proxy_next_upstream …
// non_idempotent` in docs/operations/nginx-contact-sheet.conf), so the same PATCH or creating POST
// may arrive twice, the first already applied. Here the replay is sent directly, as nginx would
// pass it on: the answers a tus client gets, what it does next (as @uppy/tus does), and that
// nothing is appended twice, no photo is made twice, and a second upload made by a replayed
// creation holds nothing but its reservation, until it expires.

interface UploadedPhoto {
  id: string;
  isDuplicate: boolean;
}

/** A JPEG of its own (a random colour), so it is nobody's duplicate, and small: a few hundred bytes. */
async function uniqueJpeg(): Promise<Uint8Array<ArrayBuffer>> {
  const background = { r: Math.floor(Math.random() * 256), g: Math.floor(Math.random() * 256), b: Math.floor(Math.random() * 256) };
  return new Uint8Array(await sharp({ create: { width: 48, height: 32, channels: 3, background } }).jpeg({ quality: 95 }).toBuffer());
}

/** The app's database, opened once for the file. */
let db: ReturnType<typeof openTestDatabase>;

async function photosOf(ownerId: string): Promise<Array<{ id: string; original_key: string }>> {
  return await db.selectFrom("photos").select(["id", "original_key"]).where("owner_id", "=", ownerId).execute();
}

async function pendingUploadsOf(ownerId: string): Promise<string[]> {
  return (await db.selectFrom("pending_uploads").select("upload_id").where("owner_id", "=", ownerId).execute()).map((row) => row.upload_id);
}

async function photoOf(response: Response): Promise<UploadedPhoto> {
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { photo: UploadedPhoto }).photo;
}

async function originalBytes(photoId: string): Promise<Buffer> {
  const response = await client.request(`/api/photos/${photoId}/original`);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

const isS3 = () => inject("storageConfig").kind === "s3";

/**
 * On S3 an upload's lock is a row every instance sees (src/uploads/tus-database-locker.ts). An
 * instance killed mid-request leaves its row, renewed by nobody: this one runs out in `leaseMs`.
 */
async function leaveLockOfADeadInstance(uploadPath: string, leaseMs: number): Promise<void> {
  const uploadId = `tus-uploads/${uploadPath.split("/").pop() ?? ""}`;
  await db.insertInto("upload_locks").values({ upload_id: uploadId, holder: "killed-instance", expires_at: new Date(Date.now() + leaseMs).toISOString(), release_requested: 0 }).execute();
}

async function lockCount(): Promise<number> {
  return (await db.selectFrom("upload_locks").select("holder").where("holder", "=", "killed-instance").execute()).length;
}

// One editor for the three tests (signing a new one in is most of a test's time); they run in
// order, so each compares the editor's photos before and after itself.
let client: TestClient;
let user: TestUser;
beforeAll(async () => {
  db = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
  ({ client, user } = await signedInAs("editor"));
});

afterAll(async () => {
  await db?.destroy();
});

describe("tus requests replayed by the load balancer", () => {
  it("answers a replayed PATCH whose first copy was applied with 409, appending nothing; the client asks HEAD and finishes the file whole", async () => {
    const before = await photosOf(user.id);
    const bytes = await uniqueJpeg();
    const third = Math.ceil(bytes.length / 3);
    const uploadPath = await createUploadPath(client, bytes.length, "replayed-chunk.jpg");

    const first = await patchUpload(client, uploadPath, 0, bytes.slice(0, third));
    expect(first.status).toBe(204);
    // The instance died before its answer left (on S3, still holding the upload's lock); nginx
    // sends the very same request to the other one, which waits out the dead lock, then refuses.
    if (isS3()) await leaveLockOfADeadInstance(uploadPath, 500);
    const replayed = await patchUpload(client, uploadPath, 0, bytes.slice(0, third));
    expect(replayed.status).toBe(409);
    expect(await lockCount()).toBe(0);
    expect(replayed.headers.get("tus-resumable")).toBe("1.0.0");
    expect(((await replayed.json()) as { error: { code: string } }).error.code).toBe("CONFLICT");

    // tus 1.0.0: on 409 the client asks the offset (HEAD) and goes on from there.
    const offset = await offsetOf(client, uploadPath);
    expect(offset).toBe(third);
    expect((await patchUpload(client, uploadPath, third, bytes.slice(third, 2 * third))).status).toBe(204);
    const photo = await photoOf(await patchUpload(client, uploadPath, 2 * third, bytes.slice(2 * third)));

    expect(photo.isDuplicate).toBe(false);
    expect(await photosOf(user.id)).toHaveLength(before.length + 1);
    expect((await originalBytes(photo.id)).equals(Buffer.from(bytes))).toBe(true);
    expect(await pendingUploadsOf(user.id)).toEqual([]);
  });

  it("answers a replayed last PATCH, whose first copy made the photo, with 404; the client starts the file again and gets that same photo, not a second", async () => {
    const before = await photosOf(user.id);
    const bytes = await uniqueJpeg();
    const half = Math.ceil(bytes.length / 2);
    const uploadPath = await createUploadPath(client, bytes.length, "replayed-last.jpg");
    expect((await patchUpload(client, uploadPath, 0, bytes.slice(0, half))).status).toBe(204);
    const made = await photoOf(await patchUpload(client, uploadPath, half, bytes.slice(half)));

    // The finished upload is gone (its bytes are the photo now): the replay finds nothing to append to.
    const replayed = await patchUpload(client, uploadPath, half, bytes.slice(half));
    expect(replayed.status).toBe(404);
    expect((await headUpload(client, uploadPath)).status).toBe(404);

    // The client never saw the photo; as @uppy/tus after a 404, it sends the file again from the start.
    const again = await createUploadPath(client, bytes.length, "replayed-last.jpg");
    const answered = await photoOf(await patchUpload(client, again, 0, bytes));
    expect(answered).toMatchObject({ id: made.id, isDuplicate: true });
    const after = await photosOf(user.id);
    expect(after.filter((photo) => !before.some((earlier) => earlier.id === photo.id)).map((photo) => photo.id)).toEqual([made.id]);
    expect((await originalBytes(made.id)).equals(Buffer.from(bytes))).toBe(true);
    expect(await pendingUploadsOf(user.id)).toEqual([]);
  });

  it("makes a second, unused upload of a replayed creating POST, which holds only its reservation and expires", async () => {
    const before = await photosOf(user.id);
    const bytes = await uniqueJpeg();
    const created = await createUpload(client, bytes.length, "created-twice.jpg");
    // nginx replays the POST whose answer was lost; the client learns only the replay's Location.
    const replayed = await createUpload(client, bytes.length, "created-twice.jpg");
    expect([created.status, replayed.status]).toEqual([201, 201]);
    const unusedPath = new URL(created.headers.get("location") ?? "", client.baseUrl).pathname;
    const usedPath = new URL(replayed.headers.get("location") ?? "", client.baseUrl).pathname;
    expect(unusedPath).not.toBe(usedPath);

    const photo = await photoOf(await patchUpload(client, usedPath, 0, bytes));
    expect(photo.isDuplicate).toBe(false);
    expect(await photosOf(user.id)).toHaveLength(before.length + 1);

    // The other one: empty, no photo, and one reservation (one of MAX_UNFINISHED_UPLOADS, its declared bytes of the quota).
    const head = await headUpload(client, unusedPath);
    expect(head.status).toBe(200);
    expect(head.headers.get("upload-offset")).toBe("0");
    const unusedId = unusedPath.split("/").pop() ?? "";
    const pending = await pendingUploadsOf(user.id);
    expect(pending).toHaveLength(1);
    expect(pending[0].endsWith(unusedId)).toBe(true);

    if (isS3()) {
      // On S3 the store expires an upload by its creation date, ABANDONED_TUS_UPLOAD_MS after it,
      // and says when in the creating answer; the hourly sweep removes it and frees the row. (The
      // store's clock cannot be moved from here, so the sweep itself is not run.)
      const expires = Date.parse(created.headers.get("upload-expires") ?? "");
      expect(Math.abs(expires - (Date.now() + ABANDONED_TUS_UPLOAD_MS))).toBeLessThan(5 * 60_000);
      return;
    }
    // On local disk an upload expires by its last write: made a day and a minute old, it is swept
    // by the server's own sweep functions, and its reservation freed. Nothing else is that old.
    const directory = path.join(inject("dataDirectory"), "tmp", "tus");
    const longAgo = new Date(Date.now() - ABANDONED_TUS_UPLOAD_MS - 60_000);
    for (const file of [unusedId, `${unusedId}.json`]) await fs.utimes(path.join(directory, file), longAgo, longAgo);
    await db.updateTable("pending_uploads").set({ created_at: longAgo.toISOString() }).where("upload_id", "=", pending[0]).execute();
    expect(await removeAbandonedTusUploads(directory, ABANDONED_TUS_UPLOAD_MS)).toEqual([unusedId]);
    const exists = async (id: string) => fs.access(path.join(directory, `${id}.json`)).then(() => true, () => false);
    expect(await releaseAbandonedPendingUploads(db, ABANDONED_TUS_UPLOAD_MS, exists)).toBeGreaterThanOrEqual(1);
    expect((await headUpload(client, unusedPath)).status).toBe(404);
    expect(await pendingUploadsOf(user.id)).toEqual([]);
    expect(await photosOf(user.id)).toHaveLength(before.length + 1);
  });
});
