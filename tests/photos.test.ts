import { randomBytes } from "node:crypto";
import path from "node:path";
import exifr from "exifr";
import { sql } from "kysely";
import { inject } from "vitest";
import { makePixelBombPng } from "@/src/images/image-test-helpers";
import { describe, expect, it } from "vitest";
import { corpusFile, listFiles, listStoredKeys, uploadCorpusFile, uploadFiles, type UploadedPhoto, waitForEveryVariant, waitForProcessing } from "./helpers/photos";
import { openTestDatabase } from "./helpers/test-database";
import { signedInAs, TestClient } from "./helpers/test-client";

function database() {
  return openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
}

async function countPhotos(): Promise<number> {
  const db = database();
  try {
    const row = await db.selectFrom("photos").select((eb) => eb.fn.countAll<string | number>().as("count")).executeTakeFirstOrThrow();
    return Number(row.count);
  } finally {
    await db.destroy();
  }
}

/**
 * The stored originals. A refused upload could only ever leave an original behind (variants are
 * made later, by jobs), and other tests' photos keep gaining variants in the background.
 */
async function storedOriginals(): Promise<string[]> {
  return (await storedFiles()).filter((key) => key.startsWith("originals/"));
}

function storedFiles(): Promise<string[]> {
  return listStoredKeys(inject("storageConfig"));
}

/**
 * The stored files of a deleted photo, once none are left or after 30 s. A job still encoding the
 * photo (the AVIF phase takes seconds) finds it gone when it is done, and removes what it stored.
 */
async function filesLeftOf(photoId: string): Promise<string[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const left = (await storedFiles()).filter((file) => file.includes(photoId));
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Multipart uploads' temporary files (the worker's copies of originals it is processing are not). */
function temporaryFiles(): string[] {
  return listFiles(path.join(inject("dataDirectory"), "tmp")).filter((file) => file.endsWith(".upload"));
}

async function errorOf(response: Response): Promise<{ code: string; message: string }> {
  return ((await response.json()) as { error: { code: string; message: string } }).error;
}

describe("uploading and processing a photo", () => {
  it("stores a camera JPEG, makes it ready with variants, and reads its EXIF summary", async () => {
    const { client } = await signedInAs("editor");
    const uploaded = await uploadCorpusFile(client, "exif-samples/jpg/Nikon_D70.jpg");
    expect(uploaded).toMatchObject({ status: "processing", isDuplicate: false, name: "Nikon_D70.jpg" });

    const photo = await waitForProcessing(client, uploaded.id);
    expect(photo.status, photo.failureReason ?? "").toBe("ready");
    expect(photo.visibility).toBe("private");
    expect(photo.thumbhash).toBeTruthy();
    const expected = await exifr.parse(Buffer.from(corpusFile("exif-samples/jpg/Nikon_D70.jpg")));
    expect(photo.exif).toMatchObject({ cameraModel: expect.stringContaining("D70"), iso: expected.ISO ?? null });
    expect(photo.exif.focalLength).toBe(expected.FocalLength);

    const formats = new Set(photo.variants.map((variant) => variant.format));
    expect(formats).toContain("jpeg");
    expect(formats).toContain("webp");
    for (const variant of photo.variants) {
      expect(variant.width).toBeLessThanOrEqual(photo.width ?? 0);
      const media = await client.request(variant.url);
      expect(media.status).toBe(200);
      expect(media.headers.get("cache-control")).toBe("private, no-store");
      expect(media.headers.get("content-type")).toBe(`image/${variant.format}`);
    }
  });

  it("answers a second upload of the same bytes with the existing photo, also when both arrive at once (18)", async () => {
    const { client } = await signedInAs("editor");
    const bytes = corpusFile("exif-samples/jpg/Canon_DIGITAL_IXUS_400.jpg");
    const [first, second] = await Promise.all([
      uploadFiles(client, [{ bytes, name: "a.jpg" }]),
      uploadFiles(client, [{ bytes, name: "b.jpg" }]),
    ]);
    expect([first.status, second.status]).toEqual([201, 201]);
    const photos = [first, second].map(async (response) => ((await response.json()) as { photos: UploadedPhoto[] }).photos[0]);
    const [a, b] = await Promise.all(photos);
    expect(a.id).toBe(b.id);
    expect([a.isDuplicate, b.isDuplicate].sort()).toEqual([false, true]);
    const again = await uploadCorpusFile(client, "exif-samples/jpg/Canon_DIGITAL_IXUS_400.jpg");
    expect(again).toMatchObject({ id: a.id, isDuplicate: true });
    // The same new bytes twice in one request: stored once, the second named as its duplicate.
    const twice = await uploadFiles(client, [
      { bytes: corpusFile("exif-samples/jpg/Canon_40D.jpg"), name: "c.jpg" },
      { bytes: corpusFile("exif-samples/jpg/Canon_40D.jpg"), name: "d.jpg" },
    ]);
    expect(twice.status).toBe(201);
    const [c, d] = ((await twice.json()) as { photos: UploadedPhoto[] }).photos;
    expect([c.isDuplicate, d.isDuplicate, d.id]).toEqual([false, true, c.id]);
    expect((await storedOriginals()).filter((key) => key.includes(c.id))).toHaveLength(1);

    // Another editor's copy is their own photo: a duplicate would reveal the first one.
    const { client: otherEditor } = await signedInAs("editor");
    const theirs = await uploadCorpusFile(otherEditor, "exif-samples/jpg/Canon_DIGITAL_IXUS_400.jpg");
    expect(theirs.isDuplicate).toBe(false);
    expect(theirs.id).not.toBe(a.id);
  });

  it("decides the type by content: PNG bytes declared as JPEG are accepted as PNG (4, 17)", async () => {
    const { client } = await signedInAs("editor");
    const sharp = (await import("sharp")).default;
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#3366cc" } }).png().toBuffer();
    const response = await uploadFiles(client, [{ bytes: new Uint8Array(png), name: "holiday.jpg.php", type: "image/jpeg" }]);
    expect(response.status).toBe(201);
    const { photos } = (await response.json()) as { photos: UploadedPhoto[] };
    const photo = await waitForProcessing(client, photos[0].id);
    expect(photo).toMatchObject({ status: "ready", width: 64, height: 48 });
  });
});

/** The first 60% of a file. */
function truncated(bytes: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  return bytes.slice(0, Math.floor(bytes.length * 0.6));
}

/** A noisy PNG of some size, so that its first 60% ends inside the pixel data. */
async function makePng(): Promise<Uint8Array<ArrayBuffer>> {
  const sharp = (await import("sharp")).default;
  const noise = randomBytes(256 * 256 * 3);
  return new Uint8Array(await sharp(noise, { raw: { width: 256, height: 256, channels: 3 } }).png().toBuffer());
}

/** A 64 × 64 JPEG whose frame header says 4000 × 4000. */
async function makeLyingJpeg(): Promise<Uint8Array<ArrayBuffer>> {
  const sharp = (await import("sharp")).default;
  const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#808080" } }).jpeg().toBuffer();
  const frameHeader = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
  const lying = new Uint8Array(jpeg);
  new DataView(lying.buffer).setUint16(frameHeader + 5, 4000);
  new DataView(lying.buffer).setUint16(frameHeader + 7, 4000);
  return lying;
}

describe("uploads that are refused leave nothing behind", () => {
  const refusals: Array<[string, () => Promise<{ bytes: Uint8Array<ArrayBuffer>; name: string; type?: string }>, number, string]> = [
    ["HTML declared as image/jpeg (4)", async () => ({ bytes: new TextEncoder().encode("<!doctype html><script>alert(1)</script>"), name: "x.jpg" }), 415, "UNSUPPORTED_MEDIA_TYPE"],
    ["SVG (5)", async () => ({ bytes: new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), name: "x.svg", type: "image/svg+xml" }), 415, "UNSUPPORTED_MEDIA_TYPE"],
    ["PDF (5)", async () => ({ bytes: new TextEncoder().encode("%PDF-1.7\n1 0 obj\n"), name: "x.pdf", type: "application/pdf" }), 415, "UNSUPPORTED_MEDIA_TYPE"],
    ["an executable (5)", async () => ({ bytes: new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0]), name: "x.jpg" }), 415, "UNSUPPORTED_MEDIA_TYPE"],
    ["a zero-byte file (2)", async () => ({ bytes: new Uint8Array(0), name: "empty.jpg" }), 400, "BAD_REQUEST"],
    ["a truncated JPEG (7)", async () => ({ bytes: truncated(corpusFile("exif-samples/jpg/Nikon_D70.jpg")), name: "cut.jpg" }), 422, "INVALID_INPUT"],
    ["a truncated PNG (7)", async () => ({ bytes: truncated(await makePng()), name: "cut.png", type: "image/png" }), 422, "INVALID_INPUT"],
    ["a JPEG whose header claims 4000 × 4000 pixels but holds 64 × 64 (9)", async () => ({ bytes: await makeLyingJpeg(), name: "lying.jpg" }), 422, "INVALID_INPUT"],
    ["a pixel bomb: a 30000 × 30000 PNG under 1 MB (8)", async () => ({ bytes: new Uint8Array(makePixelBombPng()), name: "bomb.png", type: "image/png" }), 422, "INVALID_INPUT"],
  ];

  it.each(refusals)("%s", async (_label, makeFile, status, code) => {
    const { client } = await signedInAs("editor");
    const photosBefore = await countPhotos();
    const storedBefore = await storedOriginals();
    const response = await uploadFiles(client, [await makeFile()]);
    expect(response.status).toBe(status);
    expect((await errorOf(response)).code).toBe(code);
    expect(await countPhotos()).toBe(photosBefore);
    expect(await storedOriginals()).toEqual(storedBefore);
    expect(temporaryFiles()).toEqual([]);
  });

  it("refuses a multipart body without a file part, and a body without a boundary (3)", async () => {
    const { client } = await signedInAs("editor");
    const form = new FormData();
    form.append("title", "no file here");
    const noFile = await client.request("/api/upload", { body: { multipart: form } });
    expect(noFile.status).toBe(400);
    const noBoundary = await client.request("/api/upload", { body: { raw: "--x\r\n\r\n--x--", contentType: "multipart/form-data" } });
    expect(noBoundary.status).toBe(400);
    expect(temporaryFiles()).toEqual([]);
  });

  it("refuses a batch with one bad file whole, keeping none of it", async () => {
    const { client } = await signedInAs("editor");
    const photosBefore = await countPhotos();
    const response = await uploadFiles(client, [
      { bytes: corpusFile("exif-samples/jpg/Pentax_K10D.jpg"), name: "good.jpg" },
      { bytes: new TextEncoder().encode("<html></html>"), name: "bad.jpg" },
    ]);
    expect(response.status).toBe(415);
    expect((await errorOf(response)).message).toContain("bad.jpg");
    expect(await countPhotos()).toBe(photosBefore);
  });

  it("stores hostile file names under a generated key and shows them sanitised (15, 16)", async () => {
    const { client } = await signedInAs("editor");
    const sharp = (await import("sharp")).default;
    const bytes = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#ff0000" } }).jpeg().toBuffer();
    const response = await uploadFiles(client, [{ bytes: new Uint8Array(bytes), name: "../../etc/\u202epasswd.jpg" }]);
    expect(response.status).toBe(201);
    const [photo] = ((await response.json()) as { photos: UploadedPhoto[] }).photos;
    expect(photo.name).toBe("passwd.jpg");
    const download = await client.request(`/api/photos/${photo.id}/original`);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toMatch(/^attachment; filename="passwd.jpg"/);
    expect(download.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await storedFiles()).every((file) => !file.includes("passwd") && !file.includes(".."))).toBe(true);
  });

  it("removes the stored original when the database refuses the row after the write (24)", async () => {
    const { client } = await signedInAs("editor");
    const db = database();
    // A trigger makes the insert of this one file's row fail, after its original was stored.
    const isPostgres = inject("databaseKind") === "postgres";
    if (isPostgres) {
      await sql`create function refuse_commit_test() returns trigger language plpgsql as $$ begin raise exception 'refused for the test'; end $$`.execute(db);
      await sql`create trigger refuse_commit_test before insert on photos for each row when (new.original_name = 'commit-fails.jpg') execute function refuse_commit_test()`.execute(db);
    } else {
      await sql`create trigger refuse_commit_test before insert on photos when new.original_name = 'commit-fails.jpg' begin select raise(abort, 'refused for the test'); end`.execute(db);
    }
    try {
      const storedBefore = await storedOriginals();
      const photosBefore = await countPhotos();
      const response = await uploadFiles(client, [{ bytes: corpusFile("exif-samples/jpg/Ricoh_Caplio_RR330.jpg"), name: "commit-fails.jpg" }]);
      expect(response.status).toBe(500);
      expect(await countPhotos()).toBe(photosBefore);
      expect(await storedOriginals()).toEqual(storedBefore);
      expect(temporaryFiles()).toEqual([]);
    } finally {
      await sql`drop trigger refuse_commit_test${sql.raw(isPostgres ? " on photos" : "")}`.execute(db);
      if (isPostgres) await sql`drop function refuse_commit_test()`.execute(db);
      await db.destroy();
    }
  });

  it("lets only editors and admins upload", async () => {
    const { client: viewer } = await signedInAs("viewer");
    const bytes = corpusFile("exif-samples/jpg/Canon_40D.jpg");
    expect((await uploadFiles(viewer, [{ bytes, name: "x.jpg" }])).status).toBe(403);
    expect((await uploadFiles(new TestClient(), [{ bytes, name: "x.jpg" }])).status).toBe(401);
  });
});

describe("who may see, change and delete a photo (40, 43)", () => {
  async function readyPhotoOf(relativePath: string) {
    const owner = await signedInAs("editor");
    const uploaded = await uploadCorpusFile(owner.client, relativePath);
    const photo = await waitForProcessing(owner.client, uploaded.id);
    expect(photo.status).toBe("ready");
    return { owner, photo };
  }

  async function setVisibility(client: TestClient, id: string, visibility: string): Promise<void> {
    const response = await client.request(`/api/photos/${id}`, { method: "PATCH", body: { json: { visibility } } });
    expect(response.status).toBe(200);
  }

  it("hides a private photo from another user by every verb and every variant URL", async () => {
    const { owner, photo } = await readyPhotoOf("exif-samples/jpg/Olympus_C8080WZ.jpg");
    const { client: other } = await signedInAs("editor");
    expect((await other.request(`/api/photos/${photo.id}`)).status).toBe(404);
    expect((await other.request(`/api/photos/${photo.id}`, { method: "PATCH", body: { json: { title: "mine now" } } })).status).toBe(404);
    expect((await other.request(`/api/photos/${photo.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await other.request(`/api/photos/${photo.id}/original`)).status).toBe(404);
    for (const variant of photo.variants) {
      expect((await other.request(variant.url)).status).toBe(404);
      expect((await new TestClient().request(variant.url)).status).toBe(404);
    }
    const listed = (await (await other.request("/api/photos")).json()) as { photos: Array<{ id: string }> };
    expect(listed.photos.map((item) => item.id)).not.toContain(photo.id);
    expect((await owner.client.request(`/api/photos/${photo.id}`)).status).toBe(200);
  });

  it("shows a members photo to members, who still may not change or delete it", async () => {
    const { owner, photo } = await readyPhotoOf("exif-samples/jpg/Panasonic_DMC-FZ30.jpg");
    await setVisibility(owner.client, photo.id, "members");
    const { client: member } = await signedInAs("viewer");
    expect((await member.request(`/api/photos/${photo.id}`)).status).toBe(200);
    expect((await member.request(photo.variants[0].url)).status).toBe(200);
    expect((await member.request(`/api/photos/${photo.id}`, { method: "PATCH", body: { json: { title: "x" } } })).status).toBe(403);
    expect((await member.request(`/api/photos/${photo.id}`, { method: "DELETE" })).status).toBe(403);
    expect((await new TestClient().request(photo.variants[0].url)).status).toBe(404);
    const gallery = await (await new TestClient().request("/")).text();
    expect(gallery).not.toContain(photo.id);
  });

  it("serves a public photo to everyone with immutable caching, ETag and ranges, and lists it in the gallery", async () => {
    const { owner, photo } = await readyPhotoOf("exif-samples/jpg/Ricoh_Caplio_RR330.jpg");
    await setVisibility(owner.client, photo.id, "public");
    const visitor = new TestClient();
    const variant = photo.variants.find((item) => item.format === "jpeg") ?? photo.variants[0];
    const full = await visitor.request(variant.url);
    expect(full.status).toBe(200);
    expect(full.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const etag = full.headers.get("etag") ?? "";
    const body = Buffer.from(await full.arrayBuffer());
    expect((await visitor.request(variant.url, { headers: { "If-None-Match": etag } })).status).toBe(304);
    const range = await visitor.request(variant.url, { headers: { Range: "bytes=0-9" } });
    expect(range.status).toBe(206);
    expect(range.headers.get("content-range")).toBe(`bytes 0-9/${body.length}`);
    expect(Buffer.from(await range.arrayBuffer()).equals(body.subarray(0, 10))).toBe(true);
    expect((await visitor.request(variant.url, { headers: { Range: `bytes=${body.length}-` } })).status).toBe(416);
    expect(await (await visitor.request("/")).text()).toContain(`/p/${photo.id}`);
    expect((await visitor.request(`/p/${photo.id}`)).status).toBe(200);

    // Made private again: the same URLs stop working for others at once.
    await setVisibility(owner.client, photo.id, "private");
    expect((await visitor.request(variant.url)).status).toBe(404);
    expect((await visitor.request(`/p/${photo.id}`)).status).toBe(404);
  });

  it("never lists an unlisted photo, but opens it by link", async () => {
    const { owner, photo } = await readyPhotoOf("exif-samples/jpg/Sony_HDR-HC3.jpg");
    await setVisibility(owner.client, photo.id, "unlisted");
    const visitor = new TestClient();
    expect(await (await visitor.request("/")).text()).not.toContain(photo.id);
    const { client: member } = await signedInAs("viewer");
    const listed = (await (await member.request("/api/photos")).json()) as { photos: Array<{ id: string }> };
    expect(listed.photos.map((item) => item.id)).not.toContain(photo.id);
    expect((await visitor.request(`/p/${photo.id}`)).status).toBe(200);
    expect((await visitor.request(photo.variants[0].url)).status).toBe(200);
  });

  it("deleting moves a photo to the trash (files kept); emptying the trash deletes its files", async () => {
    const { owner, photo } = await readyPhotoOf("exif-samples/jpg/Kodak_CX7530.jpg");
    // Its AVIF sizes are made after "ready": the files are compared once they stop changing.
    await waitForEveryVariant(owner.client, photo.id);
    const before = (await storedFiles()).filter((file) => file.includes(photo.id));
    expect(before.length).toBeGreaterThan(1);
    expect((await owner.client.request(`/api/photos/${photo.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await owner.client.request(`/api/photos/${photo.id}`)).status).toBe(404);
    expect((await storedFiles()).filter((file) => file.includes(photo.id))).toEqual(before);
    expect((await owner.client.request("/api/trash", { method: "DELETE", body: { json: { photoIds: [photo.id] } } })).status).toBe(200);
    expect(await filesLeftOf(photo.id)).toEqual([]);
  });
});

describe("deleting a user", () => {
  it("deletes their photos' stored files too, not only the rows", async () => {
    const { client, user, admin } = await signedInAs("editor");
    const uploaded = await uploadCorpusFile(client, "exif-samples/jpg/Olympus_C8080WZ.jpg");
    await waitForProcessing(client, uploaded.id);
    expect((await storedFiles()).filter((file) => file.includes(uploaded.id)).length).toBeGreaterThan(1);
    // In the trash or not: deleting the user deletes it for good.
    expect((await client.request(`/api/photos/${uploaded.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await admin.request(`/api/admin/users/${user.id}`, { method: "DELETE" })).status).toBe(204);
    expect(await filesLeftOf(uploaded.id)).toEqual([]);
  });
});

describe("hostile content inside a real image", () => {
  it("serves only re-encoded pixels of a JPEG with HTML appended, and the original only as an attachment (6)", async () => {
    const { client } = await signedInAs("editor");
    const sharp = (await import("sharp")).default;
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#3366cc" } }).jpeg().toBuffer();
    const polyglot = Buffer.concat([jpeg, Buffer.from("<html><script>alert(1)</script></html>")]);
    const response = await uploadFiles(client, [{ bytes: new Uint8Array(polyglot), name: "polyglot.jpg" }]);
    expect(response.status).toBe(201);
    const [uploaded] = ((await response.json()) as { photos: UploadedPhoto[] }).photos;
    const photo = await waitForProcessing(client, uploaded.id);
    expect(photo.status).toBe("ready");
    for (const variant of photo.variants) {
      const served = await client.request(variant.url);
      expect(served.headers.get("x-content-type-options")).toBe("nosniff");
      expect(Buffer.from(await served.arrayBuffer()).includes("<script>")).toBe(false);
    }
    const original = await client.request(`/api/photos/${photo.id}/original`);
    expect(original.headers.get("content-disposition")).toMatch(/^attachment;/);
    expect(original.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("shows EXIF text with markup and control characters escaped, never as markup (14)", async () => {
    const { client } = await signedInAs("editor");
    const sharp = (await import("sharp")).default;
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#cc6633" } })
      .withExif({ IFD0: { Make: "<script>alert(1)</script>", Model: "Cam\u0007era <b>X</b>" } })
      .jpeg()
      .toBuffer();
    const uploaded = (await uploadFiles(client, [{ bytes: new Uint8Array(jpeg), name: "exif.jpg" }]));
    expect(uploaded.status).toBe(201);
    const [created] = ((await uploaded.json()) as { photos: UploadedPhoto[] }).photos;
    const photo = await waitForProcessing(client, created.id);
    expect(JSON.stringify(photo.exif)).not.toContain("\\u0007");
    const page = await (await client.request(`/p/${photo.id}`)).text();
    expect(page).not.toContain("<script>alert(1)");
    expect(page).not.toContain("<b>X</b>");
    expect(page).toContain("&lt;b&gt;X&lt;/b&gt;");
  });
});

describe("listing photos with a cursor", () => {
  it.each([
    ["a NUL inside", "2026-01-01T00:00:00.000Z\u0000|x"],
    ["a newline inside", "2026-01-01\n|x"],
    ["no separator", "2026-01-01T00:00:00.000Z"],
    ["two separators", "a|b|c"],
  ])("answers 400 to a cursor with %s, never 500", async (_, text) => {
    const { client } = await signedInAs("viewer");
    const response = await client.request(`/api/photos?cursor=${Buffer.from(text).toString("base64url")}`);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe("BAD_REQUEST");
  });
});

describe("GPS never leaves through a served file (13)", () => {
  it("keeps GPS for the owner only and strips it from every variant", async () => {
    const { client: owner } = await signedInAs("editor");
    const uploaded = await uploadCorpusFile(owner, "exif-samples/jpg/gps/DSCN0010.jpg");
    const photo = await waitForProcessing(owner, uploaded.id);
    expect(photo.status).toBe("ready");
    expect(photo.location).toMatchObject({ latitude: expect.any(Number), longitude: expect.any(Number) });
    await owner.request(`/api/photos/${photo.id}`, { method: "PATCH", body: { json: { visibility: "public" } } });
    const visitorView = await (await new TestClient().request(`/p/${photo.id}`)).text();
    expect(visitorView).not.toMatch(/Location/);
    for (const variant of photo.variants) {
      const bytes = Buffer.from(await (await new TestClient().request(variant.url)).arrayBuffer());
      const gps = await exifr.gps(bytes).catch(() => undefined);
      expect(gps ?? null).toBeNull();
    }
  });
});
