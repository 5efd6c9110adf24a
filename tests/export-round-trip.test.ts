// `contact-sheet export` and back: a member's library on the shared app (five small corpus JPEGs
// with every field set, three albums nested two deep with a manual order and a cover, tags (one of
// them made from the file's keywords, one such tag taken off by the owner and never read back), a
// rating, a private photo, a password-protected share link) is exported over the API with the
// member's token, then imported with `contact-sheet import` into a second, empty site (its own
// database and data folder), and the two libraries are compared field by field through the API.
// Around it: what the export must never hold (another member's private photo and album, a share
// key, a password hash, a token), an original missing from storage (told, the rest exported, exit
// code 1) and a rerun that fetches only what is missing. The other bad input (a folder that is a
// file, a refused token, a 500 mid-run) is tested without a server in src/cli/export/run-export.test.ts.
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { ExportAlbum, ExportPhoto, ExportShare } from "@/src/export/export-api.schemas";
import { createApiToken } from "./helpers/api-tokens";
import { runContactSheet } from "./helpers/contact-sheet-command";
import { CORPUS, corpusFile, uploadCorpusFile, uploadFiles, waitForProcessing } from "./helpers/photos";
import { startTestApp, type TestApp } from "./helpers/test-app";
import { openTestDatabase } from "./helpers/test-database";
import { signedInAs, TestClient } from "./helpers/test-client";
import { TEST_SECRET } from "./setup/global-setup";

// The last one's XMP lists eight keywords, which become its tags when it is processed; the owner takes one off.
const FILES = [
  ...["Kodak_CX7530.jpg", "PaintTool_sample.jpg", "Fujifilm_FinePix6900ZOOM.jpg", "Ricoh_Caplio_RR330.jpg"].map((name) => `exif-samples/jpg/${name}`),
  "immich-test-assets/albums/nature/tanners_ridge.jpg",
];
const REMOVED_KEYWORD_TAG = "Overlook";
const HOSTILE_CAPTION = "Closing tags: ]]></x:xmpmeta> & <rdf:li>more</rdf:li>";
const SECRET_TITLE = "Another member's secret photo";
const SECRET_ALBUM = "Another member's secret album";
const SHARE_PASSWORD = "share-password-long-enough";

let work: string;
let exportDir: string;
let owner: TestClient;
let ownerEmail: string;
let ownerToken: string;
let siteB: TestApp | null = null;
/** The empty site B, started while site A is seeded (its start-up is most of the round trip's time). */
let siteBStarting: Promise<TestApp>;
const photoIds: string[] = [];
let shareKey = "";

const sha256Of = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function call<T>(client: TestClient, url: string, init: { method?: string; json?: unknown } = {}): Promise<T> {
  const response = await client.request(url, { method: init.method, ...(init.json === undefined ? {} : { body: { json: init.json } }) });
  const text = await response.text();
  expect(response.ok, `${init.method ?? "GET"} ${url}: ${response.status} ${text}`).toBe(true);
  return (text ? JSON.parse(text) : undefined) as T;
}

function cli(args: string[], url: string, token: string) {
  return runContactSheet(args, { CONTACT_SHEET_URL: url, CONTACT_SHEET_TOKEN: token });
}

/** Every photo and album of a library as the export API answers them, keyed by what survives a move (SHA-256, album path). */
async function libraryOf(client: TestClient) {
  const { photos } = await call<{ photos: ExportPhoto[] }>(client, "/api/export/photos?limit=500");
  const { albums } = await call<{ albums: ExportAlbum[] }>(client, "/api/export/albums");
  const comparablePhotos = Object.fromEntries(
    photos.map((photo) => [
      photo.sha256,
      {
        title: photo.title,
        caption: photo.caption,
        altText: photo.altText,
        takenAt: photo.takenAt,
        location: photo.location && { latitude: photo.location.latitude, longitude: photo.location.longitude },
        place: photo.place && { city: photo.place.city, region: photo.place.region, countryCode: photo.place.countryCode },
        tags: [...photo.tags].sort(),
        albums: photo.albums,
        visibility: photo.visibility,
        rating: photo.rating,
        label: photo.label,
        showLocation: photo.showLocation,
        allowDownload: photo.allowDownload,
        rotation: photo.rotation,
      },
    ]),
  );
  const comparableAlbums = Object.fromEntries(
    albums.map((album) => [
      album.path.join(" › "),
      { description: album.description, visibility: album.visibility, sort: album.sort, coverSha256: album.coverSha256, photos: album.photos, nested: album.parentId !== null },
    ]),
  );
  // Share links by their settings and photos (SHA-256): their keys, dates and owner are new on the new site.
  const { shares } = await call<{ shares: ExportShare[] }>(client, "/api/export/shares");
  const comparableShares = shares.map(({ createdAt: _createdAt, ownerEmail: _ownerEmail, ...share }) => share).sort((a, b) => a.title.localeCompare(b.title));
  return { photos: comparablePhotos, albums: comparableAlbums, shares: comparableShares };
}

/** Every text file of the export, for "never in it" checks. */
function exportTexts(directory: string): string {
  const texts: string[] = [];
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(json|xmp)$/.test(entry.name)) texts.push(fs.readFileSync(full, "utf8"));
    }
  };
  walk(directory);
  return texts.join("\n");
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "cs-export-"));
  siteBStarting = startTestApp(inject("databaseKind"), { NEXTAUTH_SECRET: TEST_SECRET, ADMIN_EMAIL: "mover@example.test", ADMIN_PASSWORD: "mover-password-123" });
  siteBStarting.catch(() => {});
  exportDir = path.join(work, "export");
  const signedIn = await signedInAs("editor");
  owner = signedIn.client;
  ownerEmail = signedIn.user.email;
  ownerToken = (await createApiToken(owner, ["photos:read"])).secret;

  // Another member's private photo, in their private album: never in the owner's export.
  const other = await signedInAs("editor");
  const secret = await uploadCorpusFile(other.client, "exif-samples/jpg/Olympus_C8080WZ.jpg");
  await call(other.client, `/api/photos/${secret.id}`, { method: "PATCH", json: { title: SECRET_TITLE, visibility: "private" } });
  const { album: secretAlbum } = await call<{ album: { id: string } }>(other.client, "/api/albums", { json: { title: SECRET_ALBUM, visibility: "private" } });
  await call(other.client, `/api/albums/${secretAlbum.id}/photos`, { json: { photoIds: [secret.id] } });

  // One request for all five; the fields below are the owner's own, which processing never overwrites.
  const uploaded = await uploadFiles(owner, FILES.map((file) => ({ bytes: corpusFile(file), name: path.basename(file) })));
  expect(uploaded.status, await uploaded.clone().text()).toBe(201);
  photoIds.push(...((await uploaded.json()) as { photos: Array<{ id: string }> }).photos.map((photo) => photo.id));
  const [a, b, c, d, e] = photoIds;
  await call(owner, `/api/photos/${a}`, {
    method: "PATCH",
    json: {
      title: "Harbour & boats",
      caption: HOSTILE_CAPTION,
      altText: "Boats in a small harbour",
      takenAt: "2019-05-03T14:32+02:00",
      location: { latitude: 41.8902, longitude: 12.4922 },
      place: { city: "Rome", region: "Lazio", countryCode: "IT" },
      rating: 4,
      label: "red",
      visibility: "public",
      showLocation: true,
      allowDownload: false,
    },
  });
  await call(owner, `/api/photos/${b}`, { method: "PATCH", json: { title: "Private one", visibility: "private", takenAt: "2020-01-02T03:04", label: "blue" } });
  await call(owner, `/api/photos/${c}`, { method: "PATCH", json: { caption: "Line one\nline two", visibility: "members", rating: 2 } });
  await call(owner, `/api/photos/${d}`, { method: "PATCH", json: { rotation: 90 } });
  await call(owner, "/api/tags/photos", { json: { action: "add", photoIds: [a, b], names: ["Sea", "Boats & ships"] } });
  await call(owner, "/api/tags/photos", { json: { action: "add", photoIds: [d], names: ["Portrait"] } });
  // A tag that came from the file's keywords, taken off by the owner: the export's word, not the file's, is the truth.
  expect((await waitForProcessing(owner, e)).status).toBe("ready");
  const fileTags = (await call<{ tags: Array<{ name: string }> }>(owner, `/api/photos/${e}/tags`)).tags.map((tag) => tag.name);
  expect(fileTags).toContain(REMOVED_KEYWORD_TAG);
  await call(owner, "/api/tags/photos", { json: { action: "remove", photoIds: [e], names: [REMOVED_KEYWORD_TAG] } });

  // Trips › Italy, and Portraits (sorted by date taken); Trips in a manual order with a chosen cover.
  const { album: trips } = await call<{ album: { id: string } }>(owner, "/api/albums", { json: { title: "Trips", description: "Everywhere we went", visibility: "public" } });
  const { album: italy } = await call<{ album: { id: string } }>(owner, "/api/albums", { json: { title: "Italy", parentId: trips.id, visibility: "members" } });
  const { album: portraits } = await call<{ album: { id: string } }>(owner, "/api/albums", { json: { title: "Portraits", sort: "taken-desc" } });
  await call(owner, `/api/albums/${trips.id}/photos`, { json: { photoIds: [a, b, c] } });
  await call(owner, `/api/albums/${trips.id}/photos`, { method: "PATCH", json: { photoId: c, after: null } });
  await call(owner, `/api/albums/${trips.id}`, { method: "PATCH", json: { coverPhotoId: b } });
  await call(owner, `/api/albums/${italy.id}/photos`, { json: { photoIds: [e, a] } });
  await call(owner, `/api/albums/${portraits.id}/photos`, { json: { photoIds: [d] } });

  const { share } = await call<{ share: { url: string } }>(owner, "/api/shares", { json: { albumId: trips.id, password: SHARE_PASSWORD } });
  shareKey = new URL(share.url).pathname.split("/")[2];
  // Two links from photo ids, every setting changed from its default; one of them revoked.
  const proofing = { title: "Proofs for Ann", message: "Pick two", download: "original", allowZip: true, showExif: false, showLocation: true, allowPicks: true, pickLimit: 2, maxViews: 5 };
  await call(owner, "/api/shares", { json: { photoIds: [d, a], ...proofing, expiresAt: "2099-01-01T00:00:00.000Z" } });
  const { share: gone } = await call<{ share: { id: string } }>(owner, "/api/shares", { json: { photoIds: [b], title: "Revoked one", expiresAt: null } });
  await call(owner, `/api/shares/${gone.id}`, { method: "PATCH", json: { revoked: true } });
}, 120_000);

afterAll(async () => {
  await (siteB ?? (await siteBStarting.catch(() => null)))?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

/** Hides an original from storage (local disk only: S3 runs skip the fault) until the answer is called. */
async function hideOriginal(photoId: string): Promise<() => void> {
  if (inject("storageConfig").kind !== "local") return () => {};
  const db = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
  const row = await db.selectFrom("photos").select("original_key").where("id", "=", photoId).executeTakeFirstOrThrow();
  await db.destroy();
  const stored = path.join(inject("dataDirectory"), "media", row.original_key);
  fs.renameSync(stored, `${stored}.aside`);
  return () => fs.renameSync(`${stored}.aside`, stored);
}

/** The path the export gave its `index`th photo (manifest order). */
function manifestPhotoPath(index: number): string {
  return (JSON.parse(fs.readFileSync(path.join(exportDir, "manifest.json"), "utf8")) as { photos: Array<{ path: string }> }).photos[index].path;
}

const summaryOf = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as Record<string, number>;

describe("contact-sheet export", () => {
  it("tells a photo whose original is missing, exports the rest and exits non-zero", async () => {
    const putBack = await hideOriginal(photoIds[4]);
    try {
      const run = await cli(["export", exportDir, "--json"], inject("baseUrl"), ownerToken);
      if (inject("storageConfig").kind !== "local") return;
      expect(run.code, run.output).toBe(1);
      expect(run.stdout.split("\n").filter((line) => line.includes('"failed"') && line.includes(photoIds[4])), run.output).toHaveLength(1);
      expect(summaryOf(run.stdout)).toMatchObject({ exported: FILES.length - 1, failed: 1 });
      const manifest = JSON.parse(fs.readFileSync(path.join(exportDir, "manifest.json"), "utf8")) as { complete: boolean; photos: unknown[] };
      expect(manifest).toMatchObject({ complete: false });
      expect(manifest.photos).toHaveLength(FILES.length - 1);
    } finally {
      putBack();
    }
  });

  it("a rerun fetches only what is missing; then every original is there untouched with its sidecars, and nothing of anyone else's", async () => {
    const run = await cli(["export", exportDir, "--json"], inject("baseUrl"), ownerToken);
    expect(run.code, run.output).toBe(0);
    const local = inject("storageConfig").kind === "local";
    expect(summaryOf(run.stdout)).toMatchObject({ exported: local ? 1 : 0, unchanged: local ? FILES.length - 1 : FILES.length, failed: 0, albums: 3, shares: 3 });

    const manifest = JSON.parse(fs.readFileSync(path.join(exportDir, "manifest.json"), "utf8")) as {
      format: string;
      version: number;
      complete: boolean;
      photos: Array<{ path: string; sha256: string }>;
      files: Array<{ path: string; size: number; sha256: string }>;
    };
    expect(manifest).toMatchObject({ format: "contact-sheet-export", version: 1, complete: true });
    // Every original byte for byte, and every file the manifest names with its SHA-256.
    expect(manifest.photos.map((photo) => photo.sha256).sort()).toEqual(FILES.map((file) => sha256Of(fs.readFileSync(path.join(CORPUS, file)))).sort());
    expect(manifest.files.length).toBe(FILES.length * 3 + 3);
    for (const file of manifest.files) expect(sha256Of(fs.readFileSync(path.join(exportDir, file.path))), file.path).toBe(file.sha256);
    for (const photo of manifest.photos) expect(photo.path).toMatch(/^photos\/\d{4}\/\d{2}\/[^/]+\.jpg$/);

    const texts = exportTexts(exportDir);
    expect(texts).not.toContain(SECRET_TITLE);
    expect(texts).not.toContain(SECRET_ALBUM);
    expect(texts).not.toContain(sha256Of(fs.readFileSync(path.join(CORPUS, "exif-samples/jpg/Olympus_C8080WZ.jpg"))));
    expect(texts).not.toContain(shareKey);
    expect(texts).not.toContain(SHARE_PASSWORD);
    expect(texts).not.toContain("$argon2");
    expect(texts).not.toContain(ownerToken);
    const { shares } = JSON.parse(fs.readFileSync(path.join(exportDir, "shares.json"), "utf8")) as { shares: Array<Record<string, unknown>> };
    expect(shares.find((share) => share.hasPassword)).toMatchObject({ albumPath: ["Trips"] });
    for (const share of shares) expect(Object.keys(share)).not.toContain("key");
  });

  it("killed part way (SIGKILL) leaves only whole files and .partial ones, and the rerun finishes and verifies", async () => {
    const killedDir = path.join(work, "killed-export");
    // One photo at a time: the kill lands after the first original, with the others still to come.
    const killed = await runContactSheet(["export", killedDir, "--json", "--concurrency", "1"], { CONTACT_SHEET_URL: inject("baseUrl"), CONTACT_SHEET_TOKEN: ownerToken }, undefined, /"status":"exported"/);
    expect(killed.signal, killed.output).toBe("SIGKILL");
    const expected = new Map(FILES.map((file) => [sha256Of(fs.readFileSync(path.join(CORPUS, file))), file]));
    const left = fs.readdirSync(killedDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    expect(left.map((entry) => entry.name)).not.toContain("manifest.json");
    for (const entry of left) {
      if (entry.name.endsWith(".partial")) continue;
      const bytes = fs.readFileSync(path.join(entry.parentPath, entry.name));
      // A whole original is one of the library's, byte for byte; a whole sidecar parses.
      if (entry.name.endsWith(".jpg")) expect(expected.has(sha256Of(bytes)), entry.name).toBe(true);
      else if (entry.name.endsWith(".json")) expect(() => JSON.parse(bytes.toString("utf8")), entry.name).not.toThrow();
      else expect(bytes.toString("utf8"), entry.name).toMatch(/<\?xpacket end="w"\?>\s*$/);
    }

    const rerun = await cli(["export", killedDir, "--json"], inject("baseUrl"), ownerToken);
    expect(rerun.code, rerun.output).toBe(0);
    const manifest = JSON.parse(fs.readFileSync(path.join(killedDir, "manifest.json"), "utf8")) as { complete: boolean; files: Array<{ path: string; sha256: string }>; photos: Array<{ sha256: string }> };
    expect(manifest.complete).toBe(true);
    expect(manifest.photos.map((photo) => photo.sha256).sort()).toEqual([...expected.keys()].sort());
    for (const file of manifest.files) expect(sha256Of(fs.readFileSync(path.join(killedDir, file.path))), file.path).toBe(file.sha256);
    const everyFile = fs.readdirSync(killedDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    expect(everyFile.filter((entry) => entry.name.endsWith(".partial")).map((entry) => entry.name)).toEqual([]);
    expect(everyFile).toHaveLength(manifest.files.length + 1);
  }, 60_000);

  it("imports into an empty site as the same library: photos, every field, rotation, albums with nesting, order and cover, share links", async () => {
    // As if the folder were an admin's `export --all`: another owner's photo, album and link beside
    // the owner's, which `import --owner` leaves out.
    const foreign = path.join(exportDir, "photos", "2001", "01", "Olympus_C8080WZ.jpg");
    const foreignBytes = corpusFile("exif-samples/jpg/Olympus_C8080WZ.jpg");
    fs.mkdirSync(path.dirname(foreign), { recursive: true });
    fs.writeFileSync(foreign, foreignBytes);
    const someone = JSON.parse(fs.readFileSync(path.join(exportDir, manifestPhotoPath(0) + ".contact-sheet.json"), "utf8")) as Record<string, unknown>;
    fs.writeFileSync(`${foreign}.contact-sheet.json`, JSON.stringify({ ...someone, id: "foreign", sha256: sha256Of(foreignBytes), ownerEmail: "someone.else@example.test", title: "Not the owner's" }));
    const appendTo = (file: string, list: string, item: Record<string, unknown>) => {
      const json = JSON.parse(fs.readFileSync(path.join(exportDir, file), "utf8")) as Record<string, Array<Record<string, unknown>>>;
      fs.writeFileSync(path.join(exportDir, file), JSON.stringify({ [list]: [...json[list], { ...json[list][0], ...item }] }));
    };
    appendTo("albums.json", "albums", { id: "foreign-album", parentId: null, path: ["Someone else's"], title: "Someone else's", ownerEmail: "someone.else@example.test", photos: [sha256Of(foreignBytes)], coverSha256: null });
    appendTo("shares.json", "shares", { title: "Someone else's link", ownerEmail: "someone.else@example.test", albumPath: null, photos: [sha256Of(foreignBytes)] });

    siteB = await siteBStarting;
    const mover = new TestClient(siteB.url);
    await mover.signIn("mover@example.test", "mover-password-123");
    const token = (await createApiToken(mover, ["upload", "photos:read", "photos:write"])).secret;
    const run = await cli(["import", exportDir, "--json", "--owner", ownerEmail.toUpperCase(), "--state", path.join(work, "import-state.json")], siteB.url, token);
    expect(run.code, run.output).toBe(0);
    expect(summaryOf(run.stdout)).toMatchObject({ uploaded: FILES.length, failed: 0, albumsCreated: 3 });
    expect(run.stderr).toContain("share links: 3 share links made with new addresses");
    expect(run.stderr).toContain("1 share link asked for a password, which an export never holds: locked until you set a new password");
    // A link's address holds its key: never printed.
    expect(run.output).not.toMatch(/\/s\/[\w-]{8,}/);
    // Processed on the new site, where the file's keywords would become tags: compared once they could have.
    const importedIds = run.stdout.split("\n").flatMap((line) => (line.includes('"status":"uploaded"') ? [(JSON.parse(line) as { photoId: string }).photoId] : []));
    expect(importedIds).toHaveLength(FILES.length);
    for (const id of importedIds) {
      const photo = await waitForProcessing(mover, id);
      expect(photo.status, `${id}: ${photo.failureReason}\n${siteB?.server.output()}`).toBe("ready");
    }

    const [before, after] = await Promise.all([libraryOf(owner), libraryOf(mover)]);
    expect(after.photos).toEqual(before.photos);
    expect(after.albums).toEqual(before.albums);
    expect(after.shares).toEqual(before.shares);
    expect(Object.keys(after.albums).sort()).toEqual(["Portraits", "Trips", "Trips › Italy"]);
    expect(after.shares.map((share) => [share.title, share.hasPassword, share.revoked])).toEqual([
      ["Proofs for Ann", false, false],
      ["Revoked one", false, true],
      ["Trips", true, false],
    ]);
    expect(Object.values(after.photos).filter((photo) => photo.rotation === 90)).toHaveLength(1);
    expect(Object.values(after.photos).find((photo) => photo.caption === HOSTILE_CAPTION)).toMatchObject({ rating: 4, label: "red", place: { city: "Rome" } });
    const fromKeywords = Object.values(after.photos).find((photo) => photo.tags.includes("Tanners Ridge Overlook"));
    expect(fromKeywords?.tags).toHaveLength(7);
    expect(fromKeywords?.tags).not.toContain(REMOVED_KEYWORD_TAG);
  }, 90_000);
});
