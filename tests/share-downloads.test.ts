import path from "node:path";
import exifr from "exifr";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Database, ShareDownloadRight } from "@/src/db/database";
import { findFirstScan } from "@/src/images/jpeg-stream-rewriter";
import { encodeShareGrant } from "@/src/shares/share-grant-cookie";
import { newShareKey } from "@/src/shares/share-key";
import { insertSharePhotos } from "@/src/shares/share-photos.repository";
import { SHARE_GRANT_COOKIE } from "@/src/shares/share.types";
import { TEST_SECRET } from "./setup/global-setup";
import { corpusFile, uploadFiles, type UploadedPhoto, waitForProcessing } from "./helpers/photos";
import { openTestDatabase } from "./helpers/test-database";
import { signedInAs, type TestClient } from "./helpers/test-client";
import { unzipEntries } from "./helpers/unzip";

// Share downloads (SECURITY.md 13, 43, 44): one photo and the whole-share ZIP, under the link's
// download right and metadata policy. The ZIP's Content-Length is exactly what is sent, it unzips,
// no entry carries a coordinate when the link hides location, and no name is an uploaded file's.

process.env.NEXTAUTH_SECRET ??= TEST_SECRET;

const FILES = [
  "exif-samples/jpg/gps/DSCN0010.jpg",
  "exif-samples/jpg/gps/DSCN0012.jpg",
  "exif-samples/jpg/gps/DSCN0021.jpg",
  "exif-samples/jpg/gps/DSCN0025.jpg",
  "exif-samples/heic/IMG_5195.HEIC",
];
const TITLES = ["Sunset / Étretat", "", "Twin", "twin", ""];

interface Photo {
  id: string;
  file: string;
  originalName: string;
  bytes: Buffer;
  gps: { latitude: number; longitude: number } | undefined;
}

let owner: TestClient;
let ownerId: string;
let db: Kysely<Database>;
const photos: Photo[] = [];
let outsider: Photo;

async function readMetadata(bytes: Buffer): Promise<Record<string, Record<string, unknown>>> {
  const options = { tiff: true, ifd1: true, exif: true, gps: true, interop: true, makerNote: true, xmp: true, iptc: true, mergeOutput: false };
  return ((await exifr.parse(bytes, options as never).catch(() => undefined)) ?? {}) as Record<string, Record<string, unknown>>;
}

interface ShareOptions {
  download?: ShareDownloadRight;
  allowZip?: boolean;
  showExif?: boolean;
  showLocation?: boolean;
  title?: string;
}

/** A share of `photos` (in this order) and the grant cookie of a browser admitted to it. */
async function makeShare(options: ShareOptions = {}, shared = photos): Promise<{ id: string; key: string; cookie: string }> {
  const now = new Date().toISOString();
  const id = crypto.randomUUID();
  const key = newShareKey();
  await db
    .insertInto("shares")
    .values({
      id,
      key,
      owner_id: ownerId,
      title: options.title ?? "Anna & Ben",
      download: options.download ?? "copy",
      allow_zip: options.allowZip === false ? 0 : 1,
      show_exif: options.showExif === false ? 0 : 1,
      show_location: options.showLocation ? 1 : 0,
      expires_at: null,
      max_views: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await insertSharePhotos(db, id, shared.map((photo) => photo.id));
  const { value } = encodeShareGrant(id, 1, new Date());
  return { id, key, cookie: `${SHARE_GRANT_COOKIE}=${value}` };
}

function get(path: string, cookie?: string, method = "GET"): Promise<Response> {
  return fetch(new URL(path, inject("baseUrl")), { method, headers: cookie ? { Cookie: cookie } : {} });
}

beforeAll(async () => {
  db = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
  const signedIn = await signedInAs("editor");
  owner = signedIn.client;
  ownerId = signedIn.user.id;
  const all = [...FILES, "exif-samples/jpg/gps/DSCN0027.jpg"];
  const response = await uploadFiles(owner, all.map((file) => ({ bytes: corpusFile(file), name: path.basename(file) })));
  expect(response.status).toBe(201);
  const uploaded = ((await response.json()) as { photos: UploadedPhoto[] }).photos;
  for (const [index, file] of all.entries()) {
    const ready = await waitForProcessing(owner, uploaded[index].id, 180_000);
    expect(ready.status, file).toBe("ready");
    if (TITLES[index]) {
      const patched = await owner.request(`/api/photos/${ready.id}`, { method: "PATCH", body: { json: { title: TITLES[index] } } });
      expect(patched.status).toBe(200);
    }
    const bytes = Buffer.from(corpusFile(file));
    const photo = { id: ready.id, file, originalName: path.basename(file), bytes, gps: await exifr.gps(bytes).catch(() => undefined) };
    if (index < FILES.length) photos.push(photo);
    else outsider = photo;
  }
}, 300_000);

afterAll(async () => {
  await db?.destroy();
});

async function expectNoPrivateFields(bytes: Buffer, label: string): Promise<Record<string, Record<string, unknown>>> {
  const metadata = await readMetadata(bytes);
  expect(metadata.makerNote, label).toBeUndefined();
  expect(metadata.ifd1, `${label}: embedded thumbnail`).toBeUndefined();
  expect(metadata.xmp, label).toBeUndefined();
  expect(metadata.iptc, label).toBeUndefined();
  for (const tag of ["BodySerialNumber", "LensSerialNumber", "SerialNumber", "CameraOwnerName", "ImageUniqueID"]) expect(metadata.exif?.[tag], label).toBeUndefined();
  return metadata;
}

describe("the whole-share ZIP", () => {
  it("streams every photo in order with an exact Content-Length, STORED, without coordinates or original names", async () => {
    const share = await makeShare();
    const response = await get(`/s/${share.key}/download.zip`, share.cookie);
    expect(response.status, await response.clone().text().catch(() => "")).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(response.headers.get("content-disposition")).toContain('filename="Anna & Ben.zip"');
    expect(response.headers.get("content-length") ?? "", JSON.stringify([...response.headers])).toMatch(/^\d+$/);
    const length = Number(response.headers.get("content-length"));
    const zip = Buffer.from(await response.arrayBuffer());
    expect(zip.length).toBe(length);

    const entries = await unzipEntries(zip);
    expect(entries.map((entry) => entry.name)).toEqual(["Sunset Étretat.jpg", "Anna & Ben 002.jpg", "Twin.jpg", "twin (2).jpg", "Anna & Ben 005.jpg"]);
    for (const [index, entry] of entries.entries()) {
      const photo = photos[index];
      expect(entry.method, "stored").toBe(0);
      expect(entry.name).not.toContain(path.parse(photo.originalName).name);
      expect(entry.bytes.subarray(0, 2).equals(Buffer.from([0xff, 0xd8])), `${photo.file}: a JPEG`).toBe(true);
      expect(await exifr.gps(entry.bytes).catch(() => undefined), `${photo.file}: no coordinates`).toBeUndefined();
      const metadata = await expectNoPrivateFields(entry.bytes, photo.file);
      expect(metadata.ifd0?.Make, `${photo.file}: the camera is shown`).toBeTruthy();
      // The same bytes as the single download (up to zeros where the original had trailing images).
      const single = Buffer.from(await (await get(`/s/${share.key}/p/${photo.id}/download`, share.cookie)).arrayBuffer());
      expect(entry.bytes.subarray(0, single.length).equals(single), photo.file).toBe(true);
      expect(entry.bytes.subarray(single.length).every((byte) => byte === 0)).toBe(true);
    }
    // A JPEG entry keeps the original's compressed pixels byte for byte.
    const scanStart = (bytes: Buffer) => findFirstScan(bytes) as number;
    expect(entries[0].bytes.subarray(scanStart(entries[0].bytes)).equals(photos[0].bytes.subarray(scanStart(photos[0].bytes)))).toBe(true);
  });

  it("carries the location and hides camera details exactly as the link says", async () => {
    const withLocation = await makeShare({ showLocation: true, showExif: false });
    const zip = Buffer.from(await (await get(`/s/${withLocation.key}/download.zip`, withLocation.cookie)).arrayBuffer());
    const entries = await unzipEntries(zip);
    for (const [index, entry] of entries.entries()) {
      const photo = photos[index];
      const gps = await exifr.gps(entry.bytes).catch(() => undefined);
      if (photo.gps) {
        expect(gps?.latitude, photo.file).toBeCloseTo(photo.gps.latitude, 6);
        expect(gps?.longitude, photo.file).toBeCloseTo(photo.gps.longitude, 6);
      }
      const metadata = await expectNoPrivateFields(entry.bytes, photo.file);
      for (const tag of ["Make", "Model", "DateTime"]) expect(metadata.ifd0?.[tag], `${photo.file}: ${tag} hidden`).toBeUndefined();
      for (const tag of ["ExposureTime", "FNumber", "ISO", "DateTimeOriginal", "LensModel", "FocalLength"]) expect(metadata.exif?.[tag], `${photo.file}: ${tag} hidden`).toBeUndefined();
    }
  });

  it("is refused when the link does not offer it, and to anyone not admitted", async () => {
    const noZip = await makeShare({ allowZip: false });
    expect((await get(`/s/${noZip.key}/download.zip`, noZip.cookie)).status).toBe(403);
    const none = await makeShare({ download: "none" });
    const refused = await get(`/s/${none.key}/download.zip`, none.cookie);
    expect(refused.status).toBe(403);
    const open = await makeShare();
    expect((await get(`/s/${open.key}/download.zip`)).status).toBe(401);
    expect((await get(`/s/${open.key}/download.zip`, noZip.cookie)).status).toBe(401);
    await db.updateTable("shares").set({ revoked_at: new Date().toISOString() }).where("id", "=", open.id).execute();
    expect((await get(`/s/${open.key}/download.zip`, open.cookie)).status).toBe(401);
  });

  it("is logged and counted once per download; HEAD tells the length without counting", async () => {
    const share = await makeShare();
    const head = await get(`/s/${share.key}/download.zip`, share.cookie, "HEAD");
    expect(head.status).toBe(200);
    const response = await get(`/s/${share.key}/download.zip`, share.cookie);
    expect(head.headers.get("content-length")).toBe(response.headers.get("content-length"));
    await response.arrayBuffer();
    const row = await db.selectFrom("shares").select("download_count").where("id", "=", share.id).executeTakeFirstOrThrow();
    expect(row.download_count).toBe(1);
    const log = await db.selectFrom("share_access_log").select("event").where("share_id", "=", share.id).execute();
    expect(log.map((entry) => entry.event)).toEqual(["download_zip"]);
  });
});

describe("one photo of a share", () => {
  it("is the download copy, named by its title or the share's numbering, without coordinates", async () => {
    const share = await makeShare();
    for (const [index, photo] of photos.entries()) {
      const response = await get(`/s/${share.key}/p/${photo.id}/download`, share.cookie);
      expect(response.status, photo.file).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/jpeg");
      expect(response.headers.get("x-download-kind")).toBe("copy");
      const disposition = response.headers.get("content-disposition") ?? "";
      expect(disposition).not.toContain(path.parse(photo.originalName).name);
      if (index === 1) expect(disposition).toContain('filename="Anna & Ben 002.jpg"');
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(bytes.equals(photo.bytes)).toBe(false);
      expect(await exifr.gps(bytes).catch(() => undefined), photo.file).toBeUndefined();
      await expectNoPrivateFields(bytes, photo.file);
    }
    const log = await db.selectFrom("share_access_log").select(["event", "photo_id"]).where("share_id", "=", share.id).execute();
    expect(log.filter((entry) => entry.event === "download").map((entry) => entry.photo_id).sort()).toEqual(photos.map((photo) => photo.id).sort());
    const row = await db.selectFrom("shares").select("download_count").where("id", "=", share.id).executeTakeFirstOrThrow();
    expect(row.download_count).toBe(photos.length);
  });

  it("is the original's own pixels, filtered, for a JPEG when the link offers originals; a HEIC gets the copy and says so", async () => {
    const share = await makeShare({ download: "original", showLocation: true });
    const jpeg = await get(`/s/${share.key}/p/${photos[0].id}/download`, share.cookie);
    expect(jpeg.headers.get("x-download-kind")).toBe("original");
    const bytes = Buffer.from(await jpeg.arrayBuffer());
    expect(bytes.equals(photos[0].bytes), "never the untouched original").toBe(false);
    expect((await exifr.gps(bytes))?.latitude).toBeCloseTo(photos[0].gps?.latitude as number, 6);
    await expectNoPrivateFields(bytes, photos[0].file);
    const heic = await get(`/s/${share.key}/p/${photos[4].id}/download`, share.cookie);
    expect(heic.status).toBe(200);
    expect(heic.headers.get("x-download-kind")).toBe("copy");
    expect(heic.headers.get("content-type")).toBe("image/jpeg");
  });

  it("is 404 outside the share, 403 when the link offers no downloads, 401 to anyone not admitted", async () => {
    const share = await makeShare();
    const outside = await get(`/s/${share.key}/p/${outsider.id}/download`, share.cookie);
    expect(outside.status).toBe(404);
    expect(Buffer.from(await outside.arrayBuffer()).includes(outsider.bytes.subarray(0, 64))).toBe(false);
    const none = await makeShare({ download: "none" });
    const refused = await get(`/s/${none.key}/p/${photos[0].id}/download`, none.cookie);
    expect(refused.status).toBe(403);
    expect(JSON.stringify(await refused.json())).toContain("This link does not offer downloads.");
    expect((await get(`/s/${share.key}/p/${photos[0].id}/download`)).status).toBe(401);
    // Another link's key (one character changed: never the same one again, as a fixed "A" was once in 64 runs).
    const otherKey = `${share.key.slice(0, -1)}${share.key.endsWith("A") ? "B" : "A"}`;
    expect((await get(`/s/${otherKey}/p/${photos[0].id}/download`, share.cookie)).status).toBe(401);
  });
});
