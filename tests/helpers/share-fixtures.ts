import { inflateRawSync } from "node:zlib";
import exifr from "exifr";
import type { Kysely } from "kysely";
import { expect, inject } from "vitest";
import type { Database, ShareDownloadRight, ShareRow } from "@/src/db/database";
import { admitShareVisit } from "@/src/shares/share-access";
import { encodeShareGrant } from "@/src/shares/share-grant-cookie";
import { newShareKey } from "@/src/shares/share-key";
import { insertSharePhotos } from "@/src/shares/share-photos.repository";
import { SHARE_GRANT_COOKIE } from "@/src/shares/share.types";
import { hashPassword } from "@/src/users/password";
import { TEST_SECRET } from "../setup/global-setup";
import { type PhotoDetailBody, uploadCorpusFile, waitForProcessing } from "./photos";
import { signedInAs, TestClient, type TestUser } from "./test-client";
import { openTestDatabase } from "./test-database";

// The world the share leak matrix (tests/share-leak-matrix.test.ts) probes: one owner, five real
// photos from the corpus (one with GPS and a camera serial number), shares in every state a visitor
// can meet, and a browser (TestClient) for each state. Everything is made straight in the database
// through the ground's own functions (no UI, no owner API), so the matrix does not depend on the
// owner's routes; the routes under test are the visitor's.

// The grant cookie is signed with a key derived from NEXTAUTH_SECRET: the test process signs with
// the same secret the test server runs with (tests/setup/global-setup.ts).
process.env.NEXTAUTH_SECRET = TEST_SECRET;

/** The photos, by role in the matrix. */
export const FIXTURE_FILES = {
  /** GPS and a camera serial number; private; in every share. */
  gpsSerial: "exif-samples/jpg/tests/87_OSError.jpg",
  /** GPS; private; in every share. */
  gps: "exif-samples/jpg/gps/DSCN0042.jpg",
  /** No GPS; private; in every share. */
  plain: "exif-samples/jpg/Canon_40D.jpg",
  /** Private and in no share but "other" (the link whose grant is tried on the others). */
  outside: "exif-samples/jpg/Nikon_D70.jpg",
  /** Public, in no share. */
  published: "exif-samples/jpg/Fujifilm_FinePix_E500.jpg",
} as const;
export type FixturePhotoName = keyof typeof FIXTURE_FILES;
export const SHARED_PHOTOS: FixturePhotoName[] = ["gpsSerial", "gps", "plain"];

/** A served file of a photo (a variant or the original) and a distinctive slice of its bytes. */
export interface FixtureFile {
  label: string;
  bytes: Buffer;
  /** 64 bytes from the middle of the file (entropy-coded data, unique to this file). */
  slice: Buffer;
}

export interface FixturePhoto {
  name: FixturePhotoName;
  id: string;
  file: string;
  visibility: "private" | "public";
  detail: PhotoDetailBody;
  /** Every variant (all formats and widths): storage key, format, width, public URL (/media/<publication key>/<storage key>). */
  variants: Array<{ storageKey: string; format: string; width: number; url: string }>;
  /** Keys in storage (variants and the original): none may appear in an answer outside the grant. */
  storageKeys: string[];
  files: FixtureFile[];
  /** The coordinate as it could be written in HTML/JSON (to 3 decimals, rounded and cut), when the file has one. */
  coordinateStrings: string[];
  gps: { latitude: number; longitude: number } | undefined;
}

export type ShareName =
  | "open"
  | "locked"
  | "originals"
  | "located"
  | "limited"
  | "expired"
  | "revoked"
  | "repassworded"
  | "other"
  | "lockedRefused";

export interface ShareOptions {
  password?: string;
  download?: ShareDownloadRight;
  allowZip?: boolean;
  showLocation?: boolean;
  showExif?: boolean;
  allowPicks?: boolean;
  pickLimit?: number | null;
  maxViews?: number | null;
  expiresAt?: string | null;
  photos?: FixturePhotoName[];
}

export interface FixtureShare {
  name: ShareName;
  row: ShareRow;
  key: string;
  photos: FixturePhotoName[];
  options: ShareOptions;
}

export interface ShareWorld {
  db: Kysely<Database>;
  owner: { client: TestClient; user: TestUser };
  admin: TestClient;
  photos: Record<FixturePhotoName, FixturePhoto>;
  shares: Record<ShareName, FixtureShare>;
  password: string;
  close(): Promise<void>;
}

export const FIXTURE_PASSWORD = "correct horse battery staple";

function middleSlice(bytes: Buffer): Buffer {
  const start = Math.max(0, Math.floor(bytes.length / 2) - 32);
  return Buffer.from(bytes.subarray(start, start + 64));
}

function coordinateStrings(value: number): string[] {
  const rounded = value.toFixed(3);
  const cut = (Math.trunc(value * 1000) / 1000).toFixed(3);
  return [...new Set([rounded, cut])];
}

/** The photo once its last processing phase (AVIF) is listed, so every variant it will have is known. */
async function waitForAllVariants(client: TestClient, id: string): Promise<PhotoDetailBody> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const photo = await waitForProcessing(client, id, 180_000);
    if (photo.status !== "ready") throw new Error(`Photo ${id} failed: ${photo.failureReason}`);
    if (photo.variants.some((variant) => variant.format === "avif")) return photo;
    if (Date.now() > deadline) throw new Error(`Photo ${id} has no AVIF variants yet`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function fetchBytes(client: TestClient, url: string): Promise<Buffer> {
  const response = await client.request(url);
  expect(response.status, `owner GET ${url}`).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

async function preparePhoto(db: Kysely<Database>, owner: TestClient, name: FixturePhotoName): Promise<FixturePhoto> {
  const file = FIXTURE_FILES[name];
  const uploaded = await uploadCorpusFile(owner, file);
  const visibility = name === "published" ? "public" : "private";
  const patch = await owner.request(`/api/photos/${uploaded.id}`, { method: "PATCH", body: { json: { visibility } } });
  expect(patch.status, await patch.clone().text()).toBe(200);
  const detail = await waitForAllVariants(owner, uploaded.id);
  const variantRows = await db.selectFrom("photo_variants").selectAll().where("photo_id", "=", uploaded.id).execute();
  const photoRow = await db.selectFrom("photos").select(["original_key"]).where("id", "=", uploaded.id).executeTakeFirstOrThrow();
  const variants = variantRows.map((row) => {
    const served = detail.variants.find((variant) => variant.format === row.format && variant.width === row.width);
    if (!served) throw new Error(`Variant ${row.storage_key} is not in the owner's detail of ${file}`);
    return { storageKey: row.storage_key, format: row.format, width: row.width, url: served.url };
  });
  const files: FixtureFile[] = [];
  const original = await fetchBytes(owner, `/api/photos/${uploaded.id}/original`);
  files.push({ label: `${name}'s original`, bytes: original, slice: middleSlice(original) });
  for (const variant of variants) {
    const bytes = await fetchBytes(owner, variant.url);
    files.push({ label: `${name}'s ${variant.format}-${variant.width} variant`, bytes, slice: middleSlice(bytes) });
  }
  const gps = (await exifr.gps(original).catch(() => undefined)) ?? undefined;
  return {
    name,
    id: uploaded.id,
    file,
    visibility,
    detail,
    variants,
    storageKeys: [photoRow.original_key, ...variants.map((variant) => variant.storageKey)],
    files,
    coordinateStrings: gps ? [...coordinateStrings(gps.latitude), ...coordinateStrings(gps.longitude)] : [],
    gps: gps ? { latitude: gps.latitude, longitude: gps.longitude } : undefined,
  };
}

/** A share straight in the database, through the ground's insertSharePhotos (as the owner's service would). */
export async function insertShare(
  db: Kysely<Database>,
  ownerId: string,
  photos: Record<FixturePhotoName, FixturePhoto>,
  name: ShareName,
  options: ShareOptions,
): Promise<FixtureShare> {
  const now = new Date().toISOString();
  const id = crypto.randomUUID();
  const key = newShareKey();
  const photoNames = options.photos ?? SHARED_PHOTOS;
  await db
    .insertInto("shares")
    .values({
      id,
      key,
      owner_id: ownerId,
      title: `Matrix ${name}`,
      album_id: null,
      password_hash: options.password ? await hashPassword(options.password) : null,
      expires_at: options.expiresAt === undefined ? new Date(Date.now() + 30 * 86_400_000).toISOString() : options.expiresAt,
      max_views: options.maxViews ?? null,
      last_visited_at: null,
      download: options.download ?? "none",
      allow_zip: options.allowZip ? 1 : 0,
      show_exif: options.showExif === false ? 0 : 1,
      show_location: options.showLocation ? 1 : 0,
      allow_picks: options.allowPicks ? 1 : 0,
      pick_limit: options.pickLimit ?? null,
      selection_locked_at: null,
      revoked_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await insertSharePhotos(db, id, photoNames.map((photoName) => photos[photoName].id));
  return { name, row: await readShare(db, id), key, photos: photoNames, options };
}

export async function readShare(db: Kysely<Database>, id: string): Promise<ShareRow> {
  return db.selectFrom("shares").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

/** A new browser with no cookies (its own client address, so per-address rate limits stay its own). */
export function newBrowser(): TestClient {
  return new TestClient();
}

/** A browser admitted to the share as the ground's gate admits one (a view counted, "visit" logged, the grant cookie set). */
export async function admittedBrowser(db: Kysely<Database>, share: FixtureShare): Promise<TestClient> {
  const admitted = await admitShareVisit(db, await readShare(db, share.row.id), new Date());
  if (admitted.kind !== "admitted") throw new Error(`The share ${share.name} refused to admit a browser: ${admitted.reason}`);
  const browser = newBrowser();
  browser.cookies.set(SHARE_GRANT_COOKIE, admitted.cookieValue);
  return browser;
}

/** A browser holding a grant cookie value made by hand (for another link, or an old grant version). */
export function browserWithGrant(shareId: string, grantVersion: number): TestClient {
  const browser = newBrowser();
  browser.cookies.set(SHARE_GRANT_COOKIE, encodeShareGrant(shareId, grantVersion, new Date()).value);
  return browser;
}

/** The key with one character changed (still well formed). */
export function keyOneCharacterOff(key: string): string {
  const last = key.at(-1) as string;
  return `${key.slice(0, -1)}${last === "A" ? "B" : "A"}`;
}

/**
 * Uploads the photos, waits until every variant exists, and makes the shares. The shares whose
 * state depends on a visit (expired, revoked, used up, a changed password) are brought into that
 * state by the matrix after it admitted their browsers.
 */
export async function createShareWorld(): Promise<ShareWorld> {
  const { client: ownerClient, user, admin } = await signedInAs("editor");
  const db = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
  const photos = {} as Record<FixturePhotoName, FixturePhoto>;
  for (const name of Object.keys(FIXTURE_FILES) as FixturePhotoName[]) photos[name] = await preparePhoto(db, ownerClient, name);

  const definitions: Record<ShareName, ShareOptions> = {
    // Valid, no password: copies and the ZIP, picks, location hidden.
    open: { download: "copy", allowZip: true, allowPicks: true, pickLimit: 2 },
    // Valid with a password (a browser that entered it): no downloads, no ZIP (asked for, but nothing to zip).
    locked: { password: FIXTURE_PASSWORD, download: "none", allowZip: true },
    // The same kind of link, for the browsers that did not enter the password (wrong or none yet).
    lockedRefused: { password: FIXTURE_PASSWORD, download: "copy", allowZip: true },
    // Originals, no ZIP, location hidden.
    originals: { download: "original", allowZip: false },
    // Location shown, copies and the ZIP, picks.
    located: { download: "copy", allowZip: true, showLocation: true, allowPicks: true },
    // One view: the first browser is admitted, a new one is refused.
    limited: { download: "copy", allowZip: true, maxViews: 1 },
    expired: { download: "original", allowZip: true, showLocation: true },
    revoked: { download: "original", allowZip: true, showLocation: true },
    // Its password changes after a browser entered the old one (the grant version is bumped).
    repassworded: { password: FIXTURE_PASSWORD, download: "original", allowZip: true },
    // Another link: the outside photo is in it; its grant is tried on the others.
    other: { download: "original", allowZip: true, showLocation: true, photos: ["outside"] },
  };
  const shares = {} as Record<ShareName, FixtureShare>;
  for (const [name, options] of Object.entries(definitions) as Array<[ShareName, ShareOptions]>) {
    shares[name] = await insertShare(db, user.id, photos, name, options);
  }
  return { db, owner: { client: ownerClient, user }, admin, photos, shares, password: FIXTURE_PASSWORD, close: () => db.destroy() };
}

/** Sets columns of a share (expiry, revocation, password) as the owner's service would, straight in the database. */
export async function updateShare(db: Kysely<Database>, share: FixtureShare, changes: Partial<Pick<ShareRow, "expires_at" | "revoked_at" | "password_hash" | "grant_version">>): Promise<void> {
  await db.updateTable("shares").set({ ...changes, updated_at: new Date().toISOString() }).where("id", "=", share.row.id).execute();
  share.row = await readShare(db, share.row.id);
}

// ---------------------------------------------------------------------------------------------
// Reading what left the server.

export interface ZipEntry {
  name: string;
  bytes: Buffer;
}

/**
 * The entries of a ZIP (stored or deflated), read through its central directory (ZIP64 sizes
 * included), so a ZIP the product streams is checked entry by entry, as an unzip tool reads it.
 */
export function readZipEntries(zip: Buffer): ZipEntry[] {
  let end = -1;
  for (let offset = zip.length - 22; offset >= Math.max(0, zip.length - 22 - 65_535); offset -= 1) {
    if (zip.readUInt32LE(offset) === 0x06054b50) {
      end = offset;
      break;
    }
  }
  if (end < 0) throw new Error("Not a ZIP: no end of central directory");
  let count = zip.readUInt16LE(end + 10);
  let directory = zip.readUInt32LE(end + 16);
  if (directory === 0xffffffff || count === 0xffff) {
    const locator = end - 20;
    if (zip.readUInt32LE(locator) !== 0x07064b50) throw new Error("ZIP64 end without its locator");
    const end64 = Number(zip.readBigUInt64LE(locator + 8));
    count = Number(zip.readBigUInt64LE(end64 + 32));
    directory = Number(zip.readBigUInt64LE(end64 + 48));
  }
  const entries: ZipEntry[] = [];
  let offset = directory;
  for (let index = 0; index < count; index += 1) {
    if (zip.readUInt32LE(offset) !== 0x02014b50) throw new Error(`Bad central directory entry ${index}`);
    const method = zip.readUInt16LE(offset + 10);
    let compressedSize = zip.readUInt32LE(offset + 20);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    let localOffset = zip.readUInt32LE(offset + 42);
    const name = zip.subarray(offset + 46, offset + 46 + nameLength).toString("utf8");
    const extra = zip.subarray(offset + 46 + nameLength, offset + 46 + nameLength + extraLength);
    // ZIP64 extra field: the 64-bit values, in order, of the 32-bit fields set to 0xffffffff.
    for (let at = 0; at + 4 <= extra.length; ) {
      const id = extra.readUInt16LE(at);
      const size = extra.readUInt16LE(at + 2);
      if (id === 0x0001) {
        let field = at + 4;
        if (zip.readUInt32LE(offset + 24) === 0xffffffff) field += 8;
        if (compressedSize === 0xffffffff) {
          compressedSize = Number(extra.readBigUInt64LE(field));
          field += 8;
        }
        if (localOffset === 0xffffffff) localOffset = Number(extra.readBigUInt64LE(field));
      }
      at += 4 + size;
    }
    if (zip.readUInt32LE(localOffset) !== 0x04034b50) throw new Error(`Bad local header for ${name}`);
    const dataStart = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28);
    const data = zip.subarray(dataStart, dataStart + compressedSize);
    entries.push({ name, bytes: method === 8 ? inflateRawSync(data) : Buffer.from(data) });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

const SERIAL_TAGS = ["SerialNumber", "BodySerialNumber", "LensSerialNumber", "InternalSerialNumber", "CameraOwnerName", "OwnerName", "ImageUniqueID"];

/** What a JPEG carries that the metadata policy may forbid: coordinates and serial/owner fields. */
export async function readPrivateMetadata(bytes: Buffer): Promise<{ gps: boolean; privateTags: string[] }> {
  const gps = await exifr.gps(bytes).catch(() => undefined);
  const options = { tiff: true, exif: true, gps: true, makerNote: false, xmp: false, iptc: false, mergeOutput: true };
  const parsed = ((await exifr.parse(bytes, options as never).catch(() => undefined)) ?? {}) as Record<string, unknown>;
  return { gps: gps !== undefined && gps !== null && Number.isFinite(gps.latitude), privateTags: SERIAL_TAGS.filter((tag) => parsed[tag] !== undefined) };
}

export function isJpeg(bytes: Buffer): boolean {
  return bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
}

export function isZip(bytes: Buffer): boolean {
  return bytes.length > 4 && bytes.readUInt32LE(0) === 0x04034b50;
}
