// `contact-sheet import` against the built app, as a person runs it: the real command in its own
// process, talking HTTP with an API token. A small tree of corpus JPEGs (nested folders, a zip with a
// `../` entry, a corrupt file, files to skip) becomes photos and nested albums; a second run reads no
// file bytes and uploads nothing; --dry-run changes nothing; an under-scoped token is refused.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createApiToken } from "./helpers/api-tokens";
import { jpegWithEmbeddedText } from "./helpers/embedded-metadata-jpeg";
import { handMadeZip } from "./helpers/hand-made-zip";
import { lengthen, supplementalJsonName } from "./helpers/takeout-corpus";
import { CORPUS, waitForProcessing } from "./helpers/photos";
import { withServerDatabase } from "./helpers/server-database";
import { signedInAs, type TestClient } from "./helpers/test-client";
import { createUploadPath, offsetOf, patchUpload } from "./helpers/tus";

const COMMAND = path.resolve(import.meta.dirname, "../bin/contact-sheet.mjs");
const JPEGS = ["Canon_40D.jpg", "Fujifilm_FinePix6900ZOOM.jpg", "Kodak_CX7530.jpg", "Nikon_COOLPIX_P1.jpg"].map((name) => path.join(CORPUS, "exif-samples/jpg", name));

let workFolder: string;
let userId: string;
let owner: TestClient;
let fullToken: string;
let uploadOnlyToken: string;
let readOnlyToken: string;

interface CommandRun {
  code: number | null;
  stdout: string;
  stderr: string;
  lines: Array<Record<string, unknown>>;
}

function runImport(args: string[], token: string): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [COMMAND, "import", "--json", "--state", path.join(workFolder, "state.json"), ...args], {
      env: { PATH: process.env.PATH ?? "", HOME: workFolder, NODE_ENV: "production", CONTACT_SHEET_URL: inject("baseUrl"), CONTACT_SHEET_TOKEN: token },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`contact-sheet import still running after 90 s:\n${stdout}\n${stderr}`));
    }, 90_000);
    child.once("close", (code) => {
      clearTimeout(timer);
      const lines = stdout
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      resolve({ code, stdout, stderr, lines });
    });
  });
}

const summaryOf = (run: CommandRun) => run.lines.at(-1);
/** A reported path below the work folder, as written (path.relative would resolve a zip entry's `../`). */
const shown = (line: Record<string, unknown>) => String(line.path).slice(workFolder.length + 1);
const linesWith = (run: CommandRun, status: string) => run.lines.filter((line) => line.status === status).map(shown);

/** The user's albums as paths ("Trips › 2024 › Rome") with the names of their photos. */
async function albumsOfUser(): Promise<Record<string, string[]>> {
  return withServerDatabase(async (db) => {
    const albums = await db.selectFrom("albums").select(["id", "title", "parent_id"]).where("owner_id", "=", userId).execute();
    const byId = new Map(albums.map((album) => [album.id, album]));
    const pathOf = (id: string): string => {
      const album = byId.get(id)!;
      return album.parent_id ? `${pathOf(album.parent_id)} › ${album.title}` : album.title;
    };
    const result: Record<string, string[]> = {};
    for (const album of albums) {
      const photos = await db
        .selectFrom("album_photos")
        .innerJoin("photos", "photos.id", "album_photos.photo_id")
        .select("photos.original_name")
        .where("album_photos.album_id", "=", album.id)
        .execute();
      result[pathOf(album.id)] = photos.map((photo) => photo.original_name).sort();
    }
    return result;
  });
}

const photoCount = () => withServerDatabase(async (db) => (await db.selectFrom("photos").select("id").where("owner_id", "=", userId).execute()).length);

beforeAll(async () => {
  workFolder = fs.mkdtempSync(path.join(os.tmpdir(), "cs-cli-import-"));
  const trips = path.join(workFolder, "Trips");
  fs.mkdirSync(path.join(trips, "2024", "Rome"), { recursive: true });
  fs.copyFileSync(JPEGS[0], path.join(trips, "top.jpg"));
  fs.copyFileSync(JPEGS[1], path.join(trips, "2024", "middle.jpg"));
  fs.copyFileSync(JPEGS[2], path.join(trips, "2024", "Rome", "deep.jpg"));
  fs.writeFileSync(path.join(trips, "notes.txt"), "not a photo");
  fs.writeFileSync(path.join(trips, ".hidden.jpg"), "hidden");
  // Cut short: the server refuses it (422), the run goes on.
  fs.writeFileSync(path.join(trips, "2024", "broken.jpg"), fs.readFileSync(JPEGS[3]).subarray(0, 400));
  fs.writeFileSync(path.join(trips, "Scans.zip"), handMadeZip([{ name: "scan.jpg", bytes: fs.readFileSync(JPEGS[3]) }, { name: "../escape.jpg", bytes: fs.readFileSync(JPEGS[0]) }]));

  const { client, user } = await signedInAs("editor");
  userId = user.id;
  owner = client;
  fullToken = (await createApiToken(client, ["upload", "photos:read", "photos:write"])).secret;
  uploadOnlyToken = (await createApiToken(client, ["upload"])).secret;
  readOnlyToken = (await createApiToken(client, ["photos:read"])).secret;
});

afterAll(async () => {
  // Other files check the temporary folder is empty: let the worker finish this file's photos.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const processing = await withServerDatabase((db) => db.selectFrom("photos").select("id").where("owner_id", "=", userId).where("status", "=", "processing").execute());
    if (processing.length === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  fs.rmSync(workFolder, { recursive: true, force: true });
}, 90_000);

describe("contact-sheet import", () => {
  it("--dry-run prints the plan and changes nothing", async () => {
    const run = await runImport([path.join(workFolder, "Trips"), "--albums", "folders", "--dry-run"], fullToken);
    expect(run.code, run.stderr).toBe(0);
    expect(linesWith(run, "new").sort()).toEqual(["Trips/2024/Rome/deep.jpg", "Trips/2024/broken.jpg", "Trips/2024/middle.jpg", `Trips/Scans.zip!/scan.jpg`, "Trips/top.jpg"]);
    expect(summaryOf(run)).toEqual({ uploaded: 5, duplicates: 0, skipped: 3, failed: 0, albumsCreated: 4, dryRun: true });
    expect(run.stderr).toContain("album to create: Trips › 2024 › Rome");
    expect(await photoCount()).toBe(0);
    expect(await albumsOfUser()).toEqual({});
    expect(fs.existsSync(path.join(workFolder, "state.json"))).toBe(false);
  });

  it("imports the tree into nested albums, reports the corrupt file and the ../ entry, and a rerun reads no file and uploads 0", async () => {
    const first = await runImport([path.join(workFolder, "Trips"), "--albums", "folders", "--tag", "imported", "--visibility", "unlisted"], fullToken);
    expect(first.code, first.stderr).toBe(1);
    expect(summaryOf(first)).toEqual({ uploaded: 4, duplicates: 0, skipped: 3, failed: 1, albumsCreated: 4 });
    expect(linesWith(first, "failed")).toEqual(["Trips/2024/broken.jpg"]);
    expect(String(first.lines.find((line) => line.status === "failed")?.reason)).toMatch(/\(422/);
    const skipped = Object.fromEntries(first.lines.filter((line) => line.status === "skipped").map((line) => [shown(line), line.reason]));
    expect(Object.keys(skipped).sort()).toEqual(["Trips/.hidden.jpg", "Trips/Scans.zip!/../escape.jpg", "Trips/notes.txt"]);
    expect(skipped["Trips/Scans.zip!/../escape.jpg"]).toContain("'../'");

    expect(await albumsOfUser()).toEqual({
      Trips: ["top.jpg"],
      "Trips › 2024": ["middle.jpg"],
      "Trips › 2024 › Rome": ["deep.jpg"],
      "Trips › Scans": ["scan.jpg"],
    });
    const photos = await withServerDatabase((db) => db.selectFrom("photos").select(["id", "visibility"]).where("owner_id", "=", userId).execute());
    expect(photos.map((photo) => photo.visibility)).toEqual(["unlisted", "unlisted", "unlisted", "unlisted"]);
    const tagged = await withServerDatabase((db) =>
      db.selectFrom("photo_tags").innerJoin("tags", "tags.id", "photo_tags.tag_id").select("photo_tags.photo_id").where("tags.name", "=", "imported").where("photo_tags.photo_id", "in", photos.map((photo) => photo.id)).execute(),
    );
    expect(tagged).toHaveLength(4);

    // The second run must not read the files: one is overwritten with other bytes of the same size
    // and given back its modification time, so reading it would make a new (refused) upload.
    fs.rmSync(path.join(workFolder, "Trips", "2024", "broken.jpg"));
    const middle = path.join(workFolder, "Trips", "2024", "middle.jpg");
    const before = fs.statSync(middle);
    fs.writeFileSync(middle, Buffer.alloc(before.size, 7));
    fs.utimesSync(middle, before.atime, before.mtime);
    const second = await runImport([path.join(workFolder, "Trips"), "--albums", "folders"], fullToken);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(summaryOf(second)).toEqual({ uploaded: 0, duplicates: 4, skipped: 3, failed: 0, albumsCreated: 0 });
    expect(await photoCount()).toBe(4);
    expect(Object.keys(await albumsOfUser())).toHaveLength(4);
  });

  it("refuses a token without the upload scope, and says which scope albums need", async () => {
    const refused = await runImport([path.join(workFolder, "Trips")], readOnlyToken);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the token lacks the "upload" scope');

    const noAlbums = await runImport([JPEGS[0], "--album", "Elsewhere"], uploadOnlyToken);
    expect(noAlbums.code).toBe(1);
    expect(noAlbums.stderr).toMatch(/failed to fill the album Elsewhere: the token lacks the "photos:read" scope/);
  });

  it("resumes a file an interrupted run left half sent, from the tus URL in its state", async () => {
    // What a run killed in the middle leaves: an upload on the site with part of the bytes, and its
    // URL in the state under the file's fingerprint (hash and size).
    const file = path.join(workFolder, "resume", "half.jpg");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // Bytes of its own (noise), so it is new to the site whatever ran before.
    fs.writeFileSync(file, await sharp({ create: { width: 96, height: 64, channels: 3, background: { r: 0, g: 0, b: 0 }, noise: { type: "gaussian", mean: 128, sigma: 40 } } }).jpeg().toBuffer());
    const bytes = new Uint8Array(fs.readFileSync(file));
    const uploadPath = await createUploadPath(owner, bytes.length, "half.jpg");
    expect((await patchUpload(owner, uploadPath, 0, bytes.slice(0, 1000))).status).toBe(204);
    const statePath = path.join(workFolder, "resume-state.json");
    const fingerprint = `${createHash("sha256").update(bytes).digest("hex")}:${bytes.length}`;
    const account = `${new URL(inject("baseUrl")).origin} ${userId}`;
    const uploads = { [fingerprint]: { url: new URL(uploadPath, inject("baseUrl")).toString(), size: bytes.length, createdAt: new Date().toISOString() } };
    fs.writeFileSync(statePath, JSON.stringify({ version: 1, accounts: { [account]: { files: {}, uploads } } }));

    const run = await runImport([file, "--state", statePath], uploadOnlyToken);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(summaryOf(run)).toMatchObject({ uploaded: 1, failed: 0 });
    // The half-sent upload was finished (a finished upload is gone); a fresh one would have left it at 1000.
    expect(await offsetOf(owner, uploadPath)).toBeNull();
    // Written back in the state's own form (one JSON line per file or unfinished upload, after a version line), though it was given in the first version's.
    const [version, ...entries] = fs.readFileSync(statePath, "utf8").trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(version).toEqual({ version: 2 });
    expect(entries.filter((entry) => "upload" in entry)).toEqual([]);
    expect(entries.find((entry) => entry.account === account && entry.file === file)?.photoId).toBe(run.lines[0].photoId);
  });

  it("applies an XMP sidecar (a.jpg.xmp) and a Google Takeout JSON (its name cut at 51 characters, as Takeout writes it) to their photos", async () => {
    const folder = path.join(workFolder, "Sidecars");
    fs.mkdirSync(folder, { recursive: true });
    const noise = (seed: number) => sharp({ create: { width: 80, height: 60, channels: 3, background: { r: seed, g: 0, b: 0 }, noise: { type: "gaussian", mean: 100 + seed, sigma: 30 } } }).jpeg().toBuffer();
    fs.writeFileSync(path.join(folder, "harbour.jpg"), await noise(11));
    fs.writeFileSync(
      path.join(folder, "harbour.jpg.xmp"),
      `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:lr="http://ns.adobe.com/lightroom/1.0/" xmp:Rating="4" xmp:Label="Red">
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Harbour at dawn</rdf:li></rdf:Alt></dc:title>
<dc:description><rdf:Alt><rdf:li xml:lang="x-default">Boats waiting for the tide</rdf:li></rdf:Alt></dc:description>
<lr:hierarchicalSubject><rdf:Bag><rdf:li>Places|Portugal|Porto</rdf:li></rdf:Bag></lr:hierarchicalSubject>
</rdf:Description></rdf:RDF></x:xmpmeta>`,
    );
    fs.writeFileSync(path.join(folder, "PXL_20230101_120000000.jpg"), await noise(23));
    fs.writeFileSync(
      path.join(folder, "PXL_20230101_120000000.jpg.supplemental-metada.json"),
      JSON.stringify({ title: "PXL_20230101_120000000.jpg", description: "New year by the river", photoTakenTime: { timestamp: "1672574400" }, geoData: { latitude: 38.7223, longitude: -9.1393, altitude: 0 }, favorited: true }),
    );

    // A title, caption and keywords written into the file (read when the site processes it), alone and under a sidecar that names a title and a keyword but no caption.
    fs.writeFileSync(path.join(folder, "inside.jpg"), await jpegWithEmbeddedText(31, { xmp: { title: "北海道の冬 — Hokkaidō", keywords: ["Snow"] } }));
    fs.writeFileSync(path.join(folder, "both.jpg"), await jpegWithEmbeddedText(37, { xmp: { title: "Embedded title", description: "Embedded caption", keywords: ["FromFile"] } }));
    fs.writeFileSync(
      path.join(folder, "both.jpg.xmp"),
      `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">` +
        `<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Sidecar title</rdf:li></rdf:Alt></dc:title><dc:subject><rdf:Bag><rdf:li>FromSidecar</rdf:li></rdf:Bag></dc:subject>` +
        `</rdf:Description></rdf:RDF></x:xmpmeta>`,
    );

    const run = await runImport([folder], fullToken);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    // The sidecars are read with their photos, never uploaded or counted as skipped.
    expect(summaryOf(run)).toMatchObject({ uploaded: 4, skipped: 0, failed: 0 });
    const idOf = (name: string) => String(run.lines.find((line) => shown(line) === `Sidecars/${name}`)?.photoId);
    const read = async (name: string) => {
      const photo = ((await (await owner.request(`/api/photos/${idOf(name)}`)).json()) as { photo: Record<string, unknown> }).photo;
      const tags = ((await (await owner.request(`/api/photos/${idOf(name)}/tags`)).json()) as { tags: Array<{ name: string }> }).tags.map((tag) => tag.name);
      return { photo, tags };
    };
    const harbour = await read("harbour.jpg");
    expect(harbour.photo).toMatchObject({ title: "Harbour at dawn", caption: "Boats waiting for the tide", rating: 4, label: "red" });
    expect(harbour.tags).toEqual(["Porto"]);
    const river = await read("PXL_20230101_120000000.jpg");
    // Takeout's title is the file name, so it is not made the photo's title.
    expect(river.photo).toMatchObject({ title: "", caption: "New year by the river", takenAt: "2023-01-01T12:00:00+00:00", location: { latitude: 38.7223, longitude: -9.1393 } });
    expect(river.tags).toEqual(["Favourite"]);

    for (const name of ["inside.jpg", "both.jpg"]) expect((await waitForProcessing(owner, idOf(name))).status).toBe("ready");
    expect(await read("inside.jpg")).toMatchObject({ photo: { title: "北海道の冬 — Hokkaidō", caption: "" }, tags: ["Snow"] });
    // The sidecar's title wins over the file's; the file's caption stays, as the sidecar names none; keywords are a set, both become tags.
    const both = await read("both.jpg");
    expect(both.photo).toMatchObject({ title: "Sidecar title", caption: "Embedded caption" });
    expect(both.tags.sort()).toEqual(["FromFile", "FromSidecar"]);
    // A second import of the folder overwrites nothing the owner edited on the site.
    const renamed = await owner.request(`/api/photos/${idOf("inside.jpg")}`, { method: "PATCH", body: { json: { title: "Renamed on the site" } } });
    expect(renamed.status, await renamed.clone().text()).toBe(200);
    const again = await runImport([folder], fullToken);
    expect(summaryOf(again)).toMatchObject({ uploaded: 0, duplicates: 4, failed: 0 });
    expect((await read("inside.jpg")).photo.title).toBe("Renamed on the site");
  });

  it("reads a Google Takeout in two zips: JSON from the other zip, album titles from metadata.json, no year albums, and a lying zip entry is stopped", async () => {
    const noise = (seed: number) => sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 0, g: seed, b: 0 }, noise: { type: "gaussian", mean: 90 + seed, sigma: 30 } } }).jpeg().toBuffer();
    const photos = "Takeout/Google Photos";
    // A name long enough that Takeout cut its JSON's name (`….jpg.supplemental-m.json`-like).
    const longName = lengthen("Canon_40D.jpg", 44);
    const [yearPhoto, albumPhoto] = [await noise(37), await noise(41)];
    fs.writeFileSync(
      path.join(workFolder, "takeout-001.zip"),
      handMadeZip([
        { name: `${photos}/Photos from 2019/PXL_2019.jpg`, bytes: yearPhoto },
        // The album folder's name is cut and made safe by Google; its metadata.json has the title.
        { name: `${photos}/Trip to Rome_/${longName}`, bytes: albumPhoto },
        { name: `${photos}/Trip to Rome_/PXL_2019.jpg`, bytes: yearPhoto },
      ]),
    );
    const json = (seconds: number, extra: object) => Buffer.from(JSON.stringify({ title: "x.jpg", photoTakenTime: { timestamp: String(seconds) }, ...extra }));
    fs.writeFileSync(
      path.join(workFolder, "takeout-002.zip"),
      handMadeZip([
        { name: `${photos}/Photos from 2019/${supplementalJsonName("PXL_2019.jpg")}`, bytes: json(1_560_000_000, {}) },
        { name: `${photos}/Trip to Rome_/${supplementalJsonName(longName)}`, bytes: json(1_400_000_000, { description: "Forum at noon", geoData: { latitude: 41.8925, longitude: 12.4853 } }) },
        { name: `${photos}/Trip to Rome_/metadata.json`, bytes: Buffer.from(JSON.stringify({ title: "Trip to Rome: Forum & Colosseum" })) },
        // 4 MB that claims 1,000 bytes: under the 100x rule, so only counting as it inflates stops it.
        { name: `${photos}/Photos from 2019/bomb.jpg`, bytes: Buffer.alloc(4 * 1024 * 1024), deflate: true, declaredSize: 1000 },
      ]),
    );

    const run = await runImport([path.join(workFolder, "takeout-001.zip"), path.join(workFolder, "takeout-002.zip"), "--albums", "folders"], fullToken);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(summaryOf(run)).toEqual({ uploaded: 2, duplicates: 1, skipped: 0, failed: 1, albumsCreated: 1 });
    const failed = run.lines.find((line) => line.status === "failed");
    expect(shown(failed!)).toBe(`takeout-002.zip!/${photos}/Photos from 2019/bomb.jpg`);
    expect(String(failed!.reason)).toMatch(/^refused: it inflates past the 1000 bytes its zip header declares/);

    const albums = await albumsOfUser();
    expect(albums["Trip to Rome: Forum & Colosseum"]).toEqual([longName, "PXL_2019.jpg"].sort());
    expect(Object.keys(albums).filter((title) => /Photos from|takeout|Trip to Rome_/.test(title))).toEqual([]);

    const idOf = (name: string) => String(run.lines.find((line) => line.status === "uploaded" && String(line.path).endsWith(`/${name}`))?.photoId);
    const read = async (name: string) => ((await (await owner.request(`/api/photos/${idOf(name)}`)).json()) as { photo: Record<string, unknown> }).photo;
    expect(await read(longName)).toMatchObject({ caption: "Forum at noon", takenAt: "2014-05-13T16:53:20+00:00", location: { latitude: 41.8925, longitude: 12.4853 } });
    expect(await read("PXL_2019.jpg")).toMatchObject({ takenAt: "2019-06-08T13:20:00+00:00" });
  });
});
