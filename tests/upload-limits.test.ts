import { randomBytes } from "node:crypto";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { listFiles, listStoredKeys, uploadFiles } from "./helpers/photos";
import { startTestApp, type TestApp } from "./helpers/test-app";
import { TestClient } from "./helpers/test-client";
import { openTestDatabase } from "./helpers/test-database";
import { TEST_SECRET } from "./setup/global-setup";

// SECURITY.md 1 and 27 against a server with small limits of its own: 1 MB per file, 1.5 MB per user.

const ADMIN = { email: "limits@example.test", password: "limits-password-1" };
const MAX_UPLOAD_BYTES = 1_000_000;
const UPLOAD_QUOTA_BYTES = 1_500_000;

let app: TestApp;
let client: TestClient;

beforeAll(async () => {
  app = await startTestApp(inject("databaseKind"), {
    NEXTAUTH_SECRET: TEST_SECRET,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES),
    UPLOAD_QUOTA_BYTES: String(UPLOAD_QUOTA_BYTES),
  });
  client = new TestClient(app.url);
  await client.signIn(ADMIN.email, ADMIN.password);
}, 60_000);

afterAll(async () => {
  await app?.stop();
});

async function countPhotos(): Promise<number> {
  const db = openTestDatabase({ dataDirectory: app.dataDirectory, databaseUrl: app.databaseUrl || undefined });
  try {
    return (await db.selectFrom("photos").select("id").execute()).length;
  } finally {
    await db.destroy();
  }
}

/** A JPEG of random noise of about `kilobytes` KB (noise does not compress). */
async function makeNoisyJpeg(kilobytes: number): Promise<Uint8Array<ArrayBuffer>> {
  // Noise at quality 95 costs about 1.04 bytes per pixel.
  const side = Math.round(Math.sqrt((kilobytes * 1024) / 1.04));
  const bytes = await sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).jpeg({ quality: 95 }).toBuffer();
  return new Uint8Array(bytes);
}

describe("upload limits", () => {
  it("refuses a file over MAX_UPLOAD_BYTES with 413, keeping nothing (1)", async () => {
    const huge = new Uint8Array(3 * MAX_UPLOAD_BYTES);
    huge.set([0xff, 0xd8, 0xff, 0xe0]);
    const response = await uploadFiles(client, [{ bytes: huge, name: "huge.jpg" }]);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(`${MAX_UPLOAD_BYTES} bytes`);
    expect(await countPhotos()).toBe(0);
    expect(listFiles(path.join(app.dataDirectory, "tmp"))).toEqual([]);
    expect(await listStoredKeys({ kind: "local", directory: path.join(app.dataDirectory, "media") })).toEqual([]);
  });

  it("refuses the upload that would pass the user's quota with 413 and a clear message (27)", async () => {
    const [first, second, third] = await Promise.all([makeNoisyJpeg(600), makeNoisyJpeg(600), makeNoisyJpeg(600)]);
    expect(first.length + second.length).toBeLessThanOrEqual(UPLOAD_QUOTA_BYTES);
    expect(first.length + second.length + third.length).toBeGreaterThan(UPLOAD_QUOTA_BYTES);
    expect((await uploadFiles(client, [{ bytes: first, name: "first.jpg" }])).status).toBe(201);
    expect((await uploadFiles(client, [{ bytes: second, name: "second.jpg" }])).status).toBe(201);
    const refused = await uploadFiles(client, [{ bytes: third, name: "third.jpg" }]);
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/storage quota of 2 MB/);
    expect(await countPhotos()).toBe(2);
    expect(listFiles(path.join(app.dataDirectory, "tmp")).filter((file) => file.endsWith(".upload"))).toEqual([]);

    // A photo the user already has takes no more room: uploading it again at the quota is answered.
    const again = await uploadFiles(client, [{ bytes: first, name: "first-again.jpg" }]);
    expect(again.status).toBe(201);
    expect(((await again.json()) as { photos: Array<{ isDuplicate: boolean }> }).photos[0].isDuplicate).toBe(true);
    expect(await countPhotos()).toBe(2);
  });
});
