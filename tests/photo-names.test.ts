import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import type { Database } from "@/src/db/database";
import { corpusFile, uploadFiles, waitForProcessing } from "./helpers/photos";
import { signedInAdmin, signedInAs, TestClient, type TestUser } from "./helpers/test-client";
import { openTestDatabase } from "./helpers/test-database";

// Issue 27: untitled photos taken the same day all had one accessible name ("Photo taken on
// 22 October 2008"), so a screen reader user could not tell which one they were choosing as a
// cover, reordering or picking. The owner's pages now add the file name; a share link's visitor
// hears the photo's number in the link instead, and never learns the file name (private metadata).

const json = (value: unknown) => ({ body: { json: value } });
const run = Date.now().toString(36);
const FILES = ["exif-samples/jpg/gps/DSCN0010.jpg", "exif-samples/jpg/gps/DSCN0012.jpg", "exif-samples/jpg/gps/DSCN0021.jpg"];
/** Names nobody else's test uses, so finding one in an answer can only mean it leaked from here. */
const FILE_NAMES = FILES.map((_, index) => `heron-${run}-${index + 1}.jpg`);
const SAME_DAY = "2008-10-22T16:05:00.000Z";

let db: Kysely<Database>;
let owner: { client: TestClient; user: TestUser };
const photoIds: string[] = [];
let albumId: string;

function attribute(html: string, name: string): string[] {
  return [...html.matchAll(new RegExp(`${name}="([^"]*)"`, "g"))].map((match) => match[1].replace(/&amp;/g, "&"));
}

beforeAll(async () => {
  db = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
  owner = await signedInAs("editor");
  for (const [index, file] of FILES.entries()) {
    const response = await uploadFiles(owner.client, [{ bytes: corpusFile(file), name: FILE_NAMES[index] }]);
    expect(response.status, await response.clone().text()).toBe(201);
    photoIds.push(((await response.json()) as { photos: Array<{ id: string }> }).photos[0].id);
  }
  for (const id of photoIds) expect((await waitForProcessing(owner.client, id)).status).toBe("ready");
  // Untitled, no alt text, all taken the same day: the case that used to sound alike.
  await db.updateTable("photos").set({ title: "", alt_text: "", taken_at: SAME_DAY }).where("id", "in", photoIds).execute();
  const created = await owner.client.request("/api/albums", json({ title: `Herons ${run}`, visibility: "private" }));
  expect(created.status, await created.clone().text()).toBe(201);
  albumId = ((await created.json()) as { album: { id: string } }).album.id;
  const added = await owner.client.request(`/api/albums/${albumId}/photos`, json({ photoIds }));
  expect(added.status, await added.clone().text()).toBe(200);
}, 180_000);

afterAll(async () => {
  await db?.destroy();
});

describe("untitled photos' accessible names", () => {
  it("the album editor tells them apart by file name for their owner (cover, select, move)", async () => {
    const response = await owner.client.request(`/admin/albums/${albumId}`);
    expect(response.status).toBe(200);
    const labels = attribute(await response.text(), "aria-label");
    const covers = labels.filter((label) => label.startsWith("Use ") && label.endsWith(" as the cover"));
    expect(covers).toEqual(FILE_NAMES.map((fileName) => `Use Photo taken on 22 October 2008 (${fileName}) as the cover`));
    const moves = labels.filter((label) => label.startsWith("Move "));
    expect(moves).toEqual(FILE_NAMES.map((fileName, index) => `Move Photo taken on 22 October 2008 (${fileName}), position ${index + 1} of 3`));
  });

  it("the album editor's photo picker gets the owner's file names (GET /api/photos?owner=me); no other list carries them", async () => {
    const own = await owner.client.request("/api/photos?owner=me&limit=100");
    expect(own.status).toBe(200);
    const ownPhotos = ((await own.json()) as { photos: Array<{ id: string; originalName?: string }> }).photos;
    expect(photoIds.map((id) => ownPhotos.find((photo) => photo.id === id)?.originalName)).toEqual(FILE_NAMES);
    // The same photos made public, listed to another signed-in user: no file name.
    await db.updateTable("photos").set({ visibility: "public" }).where("id", "in", photoIds).execute();
    try {
      const member = await signedInAs("viewer");
      const listed = await member.client.request("/api/photos?limit=100");
      expect(listed.status).toBe(200);
      const text = await listed.text();
      expect(text).toContain(photoIds[0]);
      for (const fileName of FILE_NAMES) expect(text).not.toContain(fileName);
      expect(text).not.toContain("originalName");
    } finally {
      await db.updateTable("photos").set({ visibility: "private" }).where("id", "in", photoIds).execute();
    }
  });

  it("an admin editing the album hears the file names too; another editor's photo in an album is never named by its file", async () => {
    // The admin: the same names (the metadata policy lets admins see everything).
    const admin = await signedInAdmin();
    const asAdmin = await admin.request(`/admin/albums/${albumId}`);
    expect(asAdmin.status).toBe(200);
    const adminHtml = await asAdmin.text();
    for (const fileName of FILE_NAMES) expect(adminHtml).toContain(`(${fileName}) as the cover`);
    // A second editor's album into which an admin put the first editor's photo, made public: the
    // second editor sees the photo but may not learn its file name.
    await db.updateTable("photos").set({ visibility: "public" }).where("id", "=", photoIds[0]).execute();
    const other = await signedInAs("editor");
    const otherAlbum = await other.client.request("/api/albums", json({ title: `Borrowed ${run}`, visibility: "private" }));
    const otherAlbumId = ((await otherAlbum.json()) as { album: { id: string } }).album.id;
    const added = await admin.request(`/api/albums/${otherAlbumId}/photos`, json({ photoIds: [photoIds[0]] }));
    expect(added.status, await added.clone().text()).toBe(200);
    const page = await other.client.request(`/admin/albums/${otherAlbumId}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('aria-label="Use Photo taken on 22 October 2008 as the cover"');
    expect(html).not.toContain(`heron-${run}`);
    await db.updateTable("photos").set({ visibility: "private" }).where("id", "=", photoIds[0]).execute();
  });

  it("a share link's visitor hears 'Photo 1', 'Photo 2', … and never the file name, in the page, the API and the photo page; the owner's selections name the file", async () => {
    const created = await owner.client.request("/api/shares", json({ albumId, allowPicks: true }));
    expect(created.status, await created.clone().text()).toBe(201);
    const share = ((await created.json()) as { share: { id: string; url: string } }).share;
    const key = new URL(share.url, "http://x").pathname.split("/")[2];
    const visitor = new TestClient();
    expect((await visitor.request(`/s/${key}`)).status).toBe(401);
    expect((await visitor.request(`/s/${key}/api/enter?next=${encodeURIComponent(`/s/${key}`)}`, { method: "POST" })).status).toBe(303);

    const expected = [1, 2, 3].map((number) => `Photo ${number}, taken on 22 October 2008`);
    const gallery = await visitor.request(`/s/${key}`);
    expect(gallery.status).toBe(200);
    const html = await gallery.text();
    expect(attribute(html, "alt").filter((alt) => alt.startsWith("Photo "))).toEqual(expected);
    const api = await visitor.request(`/s/${key}/api/photos`);
    expect(api.status).toBe(200);
    const body = await api.text();
    expect((JSON.parse(body) as { photos: Array<{ name: string }> }).photos.map((photo) => photo.name)).toEqual(expected);
    const photoPage = await visitor.request(`/s/${key}/p/${photoIds[1]}`);
    expect(photoPage.status).toBe(200);
    const photoHtml = await photoPage.text();
    expect(photoHtml).toContain(`alt="${expected[1]}"`);
    for (const text of [html, body, photoHtml]) {
      expect(text).not.toContain(`heron-${run}`);
      expect(text).not.toContain("DSCN");
    }

    // A visitor picks the second photo: the owner's selections name it by its file.
    const named = await visitor.request(`/s/${key}/api/visitor`, json({ name: "Ana" }));
    expect(named.status, await named.clone().text()).toBe(201);
    const picked = await visitor.request(`/s/${key}/api/feedback/${photoIds[1]}`, { method: "PUT", ...json({ picked: true }) });
    expect(picked.status, await picked.clone().text()).toBe(200);
    const selections = (await (await owner.client.request(`/api/shares/${share.id}/selections`)).json()) as { visitors: Array<{ picks: Array<{ name: string }> }> };
    expect(selections.visitors.flatMap((each) => each.picks.map((pick) => pick.name))).toEqual([`Photo taken on 22 October 2008 (${FILE_NAMES[1]})`]);

    // The first photo goes to the trash and so leaves the link: the others are now Photos 1 and 2, not 2 and 3.
    const trashed = await owner.client.request("/api/photos", { method: "PATCH", ...json({ photoIds: [photoIds[0]], action: "trash" }) });
    expect(trashed.status, await trashed.clone().text()).toBe(200);
    try {
      const renumbered = (await (await visitor.request(`/s/${key}/api/photos`)).json()) as { photos: Array<{ name: string }> };
      expect(renumbered.photos.map((photo) => photo.name)).toEqual(expected.slice(0, 2));
      expect(await (await visitor.request(`/s/${key}/p/${photoIds[2]}`)).text()).toContain(`alt="${expected[1]}"`);
    } finally {
      await db.updateTable("photos").set({ trashed_at: null }).where("id", "=", photoIds[0]).execute();
    }
  });
});
