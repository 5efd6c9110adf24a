// POST /api/upload/known: which of a batch of SHA-256s the caller already has. It answers about
// the caller's own photos only (the trash included), so it never tells that another user holds a file.
import { createHash } from "node:crypto";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { bearer, createApiToken } from "./helpers/api-tokens";
import { uploadFiles, waitForProcessing } from "./helpers/photos";
import { signedInAs, TestClient } from "./helpers/test-client";

const uploaded: Array<{ client: TestClient; id: string }> = [];

afterAll(async () => {
  for (const { client, id } of uploaded) await waitForProcessing(client, id, 60_000);
}, 90_000);

/** A small JPEG of its own colour, so no other test holds its bytes. */
async function distinctJpeg(): Promise<Uint8Array<ArrayBuffer>> {
  const background = { r: Math.floor(Math.random() * 256), g: Math.floor(Math.random() * 256), b: Math.floor(Math.random() * 256) };
  return new Uint8Array(await sharp({ create: { width: 40, height: 30, channels: 3, background } }).jpeg().toBuffer());
}

async function upload(client: TestClient, bytes: Uint8Array<ArrayBuffer>, options: { waitAtEnd?: boolean } = {}): Promise<string> {
  const response = await uploadFiles(client, [{ bytes, name: "known.jpg" }]);
  expect(response.status, await response.clone().text()).toBe(201);
  const [photo] = ((await response.json()) as { photos: Array<{ id: string }> }).photos;
  if (options.waitAtEnd !== false) uploaded.push({ client, id: photo.id });
  return photo.id;
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

function ask(secret: string, hashes: unknown): Promise<Response> {
  return new TestClient().request("/api/upload/known", { body: { json: { sha256: hashes } }, headers: bearer(secret), origin: null });
}

describe("POST /api/upload/known", () => {
  it("names the caller's own files (trashed ones marked), and reports another user's file as new", async () => {
    const { client: mine } = await signedInAs("editor");
    const { client: theirs } = await signedInAs("editor");
    const [kept, trashed, onlyTheirs] = await Promise.all([distinctJpeg(), distinctJpeg(), distinctJpeg()]);
    const keptId = await upload(mine, kept);
    // Processed before it goes to the trash (afterAll cannot wait for a photo it no longer sees).
    const trashedId = await upload(mine, trashed, { waitAtEnd: false });
    await waitForProcessing(mine, trashedId);
    expect((await mine.request(`/api/photos/${trashedId}`, { method: "DELETE" })).status).toBe(204);
    // The other user holds these bytes, and also the bytes of my kept photo.
    await upload(theirs, onlyTheirs);
    await upload(theirs, kept);

    const { secret } = await createApiToken(mine, ["upload"]);
    const never = "0".repeat(64);
    const response = await ask(secret, [sha256(kept), sha256(trashed), sha256(onlyTheirs), never, sha256(kept)]);
    expect(response.status, await response.clone().text()).toBe(200);
    const { known } = (await response.json()) as { known: Array<{ sha256: string; photoId: string; trashed: boolean }> };
    expect(known.sort((a, b) => Number(a.trashed) - Number(b.trashed))).toEqual([
      { sha256: sha256(kept), photoId: keptId, trashed: false },
      { sha256: sha256(trashed), photoId: trashedId, trashed: true },
    ]);
  });

  it("needs the upload scope and an editor; refuses malformed and oversized batches with 422", async () => {
    const { client } = await signedInAs("editor");
    const reader = await createApiToken(client, ["photos:read", "photos:write"]);
    const refused = await ask(reader.secret, ["0".repeat(64)]);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toContain('scope="upload"');

    const { secret } = await createApiToken(client, ["upload"]);
    for (const hashes of [[], ["A".repeat(64)], ["0".repeat(63)], "0".repeat(64), Array.from({ length: 501 }, (_, index) => index.toString(16).padStart(64, "0"))]) {
      const response = await ask(secret, hashes);
      expect(response.status, JSON.stringify(hashes).slice(0, 80)).toBe(422);
    }
    const full = await ask(secret, Array.from({ length: 500 }, (_, index) => index.toString(16).padStart(64, "0")));
    expect(full.status).toBe(200);
    expect(await full.json()).toEqual({ known: [] });

    const { client: viewer } = await signedInAs("viewer");
    expect((await viewer.request("/api/upload/known", { body: { json: { sha256: ["0".repeat(64)] } } })).status).toBe(403);
  });
});
