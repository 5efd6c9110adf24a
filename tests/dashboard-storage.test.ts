import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import type { Database } from "@/src/db/database";
import { motionPhotoJpeg } from "@/src/images/motion/motion-photo-test-files";
import { createStorage } from "@/src/storage/create-storage";
import { uploadCorpusFile, uploadFiles, type UploadedPhoto, waitForEveryVariant } from "./helpers/photos";
import { createTestUser, signedInAdmin, TestClient, type TestUser } from "./helpers/test-client";
import { openTestDatabase } from "./helpers/test-database";

// The dashboard's "Storage used" and "Recent uploads" (PRODUCT.md, issue 27): the figures are the
// bytes really in storage (originals, variants and the files kept beside photos, per user and in
// total), read from the sizes
// recorded when each file was stored; an editor sees their own only. Recent uploads show a
// thumbnail, who, when and the state, failures included.

let db: Kysely<Database>;
let admin: TestClient;
const editors: Array<{ client: TestClient; user: TestUser; photoIds: string[] }> = [];

async function signedIn(user: TestUser): Promise<TestClient> {
  const client = new TestClient();
  await client.signIn(user.email, user.password);
  expect(client.sessionToken).toBeTruthy();
  return client;
}

/** What storage holds for these photos, asked of the store itself (disk or bucket), not the database's records. */
async function storedBytes(photoIds: string[]): Promise<{ originals: number; variants: number; companions: number }> {
  const storage = createStorage(inject("storageConfig"));
  const photos = await db.selectFrom("photos").select(["id", "original_key", "raw_companion_key", "motion_clip_key", "motion_playable_key", "playable_key"]).where("id", "in", photoIds).execute();
  const variants = await db.selectFrom("photo_variants").select("storage_key").where("photo_id", "in", photoIds).execute();
  const sizeOf = async (key: string) => (await storage.stat(key))?.size ?? Number.NaN;
  let originals = 0;
  let companions = 0;
  for (const photo of photos) {
    originals += await sizeOf(photo.original_key);
    for (const key of [photo.raw_companion_key, photo.motion_clip_key, photo.motion_playable_key, photo.playable_key]) if (key) companions += await sizeOf(key);
  }
  let variantBytes = 0;
  for (const variant of variants) variantBytes += await sizeOf(variant.storage_key);
  return { originals, variants: variantBytes, companions };
}


async function dashboard(client: TestClient): Promise<string> {
  const response = await client.request("/admin");
  expect(response.status).toBe(200);
  return response.text();
}

function bytesOf(html: string, testId: string): number {
  const match = new RegExp(`data-testid="${testId}" data-bytes="(\\d+)"`).exec(html);
  expect(match, testId).not.toBeNull();
  return Number(match![1]);
}

/** An admin's per-user row: [originals, variants, other files, total] in bytes, or null when the user has no row. */
function userRow(html: string, userId: string): number[] | null {
  const row = new RegExp(`<tr data-owner-id="${userId}">(.*?)</tr>`).exec(html);
  return row ? [...row[1].matchAll(/data-bytes="(\d+)"/g)].map((match) => Number(match[1])) : null;
}

beforeAll(async () => {
  db = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
  admin = await signedInAdmin();
  const uploads = [["exif-samples/jpg/Canon_40D.jpg", "exif-samples/jpg/Pentax_K10D.jpg"], ["exif-samples/jpg/Olympus_C8080WZ.jpg"]];
  for (const [index, files] of uploads.entries()) {
    const user = await createTestUser(admin, "editor", `Storage editor ${index + 1}`);
    const client = await signedIn(user);
    const photoIds: string[] = [];
    for (const file of files) photoIds.push((await uploadCorpusFile(client, file)).id);
    for (const id of photoIds) await waitForEveryVariant(client, id);
    editors.push({ client, user, photoIds });
  }
}, 180_000);

afterAll(async () => {
  await db?.destroy();
});

describe("the dashboard's storage used", () => {
  it("shows an editor the bytes their own originals and variants take in storage, and nobody else's", async () => {
    const [first, second] = editors;
    const stored = await storedBytes(first.photoIds);
    expect(stored.originals).toBeGreaterThan(0);
    expect(stored.variants).toBeGreaterThan(0);
    const html = await dashboard(first.client);
    expect(bytesOf(html, "storage-total")).toBe(stored.originals + stored.variants);
    expect(bytesOf(html, "storage-originals")).toBe(stored.originals);
    expect(bytesOf(html, "storage-variants")).toBe(stored.variants);
    expect(bytesOf(html, "storage-companions")).toBe(0);
    expect(html).not.toContain('data-testid="storage-per-user"');
    expect(html).not.toContain(second.user.id);
    expect(html).not.toContain("Storage editor 2");
    expect(html).not.toContain("Olympus_C8080WZ");
  });

  it("drops a photo's original and variants once the trash is emptied, not before (its files are still stored until then)", async () => {
    const [, second] = editors;
    const extra = await uploadCorpusFile(second.client, "exif-samples/jpg/Nikon_D70.jpg");
    await waitForEveryVariant(second.client, extra.id);
    const withExtra = await storedBytes([...second.photoIds, extra.id]);
    const figures = (html: string) => ({ originals: bytesOf(html, "storage-originals"), variants: bytesOf(html, "storage-variants"), companions: bytesOf(html, "storage-companions") });
    expect(figures(await dashboard(second.client))).toEqual(withExtra);
    expect((await second.client.request(`/api/photos/${extra.id}`, { method: "DELETE" })).status).toBe(204);
    expect(figures(await dashboard(second.client))).toEqual(withExtra);
    expect((await second.client.request("/api/trash", { method: "DELETE" })).status).toBeLessThan(300);
    expect(figures(await dashboard(second.client))).toEqual(await storedBytes(second.photoIds));
  });

  it("counts the files kept beside a photo (a motion photo's clip) until the trash is emptied", async () => {
    const user = await createTestUser(admin, "editor", "Storage editor 3");
    const client = await signedIn(user);
    const { bytes } = await motionPhotoJpeg({ form: "attributes" });
    const response = await uploadFiles(client, [{ bytes: new Uint8Array(bytes), name: "motion.jpg" }]);
    expect(response.status, await response.clone().text()).toBe(201);
    const [photo] = ((await response.json()) as { photos: UploadedPhoto[] }).photos;
    await waitForEveryVariant(client, photo.id);
    const stored = await storedBytes([photo.id]);
    expect(stored.companions).toBeGreaterThan(0);
    const html = await dashboard(client);
    expect([bytesOf(html, "storage-companions"), bytesOf(html, "storage-total")]).toEqual([stored.companions, stored.originals + stored.variants + stored.companions]);
    expect(userRow(await dashboard(admin), user.id)).toEqual([stored.originals, stored.variants, stored.companions, stored.originals + stored.variants + stored.companions]);
    expect((await client.request(`/api/photos/${photo.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await client.request("/api/trash", { method: "DELETE" })).status).toBeLessThan(300);
    expect(bytesOf(await dashboard(client), "storage-companions")).toBe(0);
  });

  it("shows an admin every user's figures and the site's total, which is the sum of the rows", async () => {
    const html = await dashboard(admin);
    expect(editors.map((editor) => userRow(html, editor.user.id))).toEqual(
      await Promise.all(
        editors.map(async (editor) => {
          const stored = await storedBytes(editor.photoIds);
          return [stored.originals, stored.variants, stored.companions, stored.originals + stored.variants + stored.companions];
        }),
      ),
    );
    const rows = [...html.matchAll(/<tr data-owner-id="[^"]+">(.*?)<\/tr>/g)].map((row) => [...row[1].matchAll(/data-bytes="(\d+)"/g)].map((match) => Number(match[1])));
    expect(bytesOf(html, "storage-originals")).toBe(rows.reduce((sum, row) => sum + row[0], 0));
    expect(bytesOf(html, "storage-variants")).toBe(rows.reduce((sum, row) => sum + row[1], 0));
    expect(bytesOf(html, "storage-companions")).toBe(rows.reduce((sum, row) => sum + row[2], 0));
    // The site's total is every photo's recorded size, the trash included (its files are still stored).
    const originals = await db.selectFrom("photos").select((eb) => eb.fn.sum<number | string>("original_size").as("bytes")).executeTakeFirstOrThrow();
    const variants = await db.selectFrom("photo_variants").select((eb) => eb.fn.sum<number | string>("byte_size").as("bytes")).executeTakeFirstOrThrow();
    const companions = await db
      .selectFrom("photos")
      .select((eb) => eb.fn.sum<number | string>(eb.fn.coalesce("raw_companion_size", eb.lit(0))).as("raw"))
      .select((eb) => eb.fn.sum<number | string>(eb.fn.coalesce("motion_clip_size", eb.lit(0))).as("motion"))
      .select((eb) => eb.fn.sum<number | string>(eb.fn.coalesce("motion_playable_size", eb.lit(0))).as("motionPlayable"))
      .select((eb) => eb.fn.sum<number | string>(eb.fn.coalesce("playable_size", eb.lit(0))).as("playable"))
      .executeTakeFirstOrThrow();
    const companionBytes = Number(companions.raw ?? 0) + Number(companions.motion ?? 0) + Number(companions.motionPlayable ?? 0) + Number(companions.playable ?? 0);
    expect(bytesOf(html, "storage-total")).toBe(Number(originals.bytes) + Number(variants.bytes) + companionBytes);
    expect(html).toContain("Storage editor 1");
    expect(html).toContain("Storage editor 2");
  });
});

describe("the dashboard's recent uploads", () => {
  it("lists an admin the latest uploads of everyone with who and the state, a failure with its reason; an editor only their own", async () => {
    const [first, second] = editors;
    // One of the second editor's photos failed processing (as a decoder error leaves it).
    await db.updateTable("photos").set({ status: "failed", failure_reason: "The image could not be decoded." }).where("id", "=", second.photoIds[0]).execute();
    const html = await dashboard(admin);
    const section = html.slice(html.indexOf('data-testid="dashboard-uploads"'), html.indexOf('data-testid="storage-used"'));
    const items = [...section.matchAll(/<li data-photo-id="([^"]+)" data-status="(\w+)">(.*?)<\/li>/g)].map((match) => ({ id: match[1], status: match[2], html: match[3] }));
    expect(items.map((item) => item.id).slice(0, 3)).toEqual([second.photoIds[0], ...first.photoIds.toReversed()]);
    const failed = items[0];
    expect(failed.status).toBe("failed");
    expect(failed.html).toContain("Olympus_C8080WZ.jpg");
    expect(failed.html).toContain("Storage editor 2");
    expect(failed.html).toContain("The image could not be decoded.");
    expect(failed.html).toContain(">Failed</span>");
    expect(items[1].html).toContain(">Ready</span>");
    expect(items[1].html).toMatch(/<img src="\/media\/[^"]+"/);
    expect(items[1].html).toMatch(/<time dateTime="[^"]+">(just now|\d+ minutes? ago)<\/time>/);

    const own = await dashboard(first.client);
    const ownIds = [...own.matchAll(/<li data-photo-id="([^"]+)"/g)].map((match) => match[1]);
    expect(ownIds).toEqual(first.photoIds.toReversed());
    expect(own).not.toContain("Storage editor 2");
  });
});
