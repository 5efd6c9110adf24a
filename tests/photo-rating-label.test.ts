// The owner's rating (0-5 stars) and colour label on the built app: set through PATCH
// /api/photos/[id] (422 on impossible values, nothing changed), filtered in the library, searched
// with rating: and label:, and never shown to or searchable by anyone but the owner and admins,
// whatever the photo's visibility (the metadata policy: there is no setting to show them).
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { type PhotoDetailBody, uploadFiles, waitForProcessing } from "./helpers/photos";
import { createTestUser, signedInAs, TestClient } from "./helpers/test-client";

type RatedPhoto = PhotoDetailBody & { rating: number | null; label: string | null };

async function smallJpeg(): Promise<Uint8Array<ArrayBuffer>> {
  const shade = Math.floor(Math.random() * 200);
  return new Uint8Array(await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: shade, g: 120, b: 200 - (shade % 100) } } }).jpeg().toBuffer());
}

async function patch(client: TestClient, id: string, json: unknown): Promise<Response> {
  return client.request(`/api/photos/${id}`, { method: "PATCH", body: { json } });
}

async function photoOf(client: TestClient, id: string): Promise<RatedPhoto> {
  const response = await client.request(`/api/photos/${id}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { photo: RatedPhoto }).photo;
}

async function idsOf(client: TestClient, path: string): Promise<string[]> {
  const response = await client.request(path);
  expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
  return ((await response.json()) as { photos: Array<{ id: string }> }).photos.map((photo) => photo.id);
}

describe("ratings and colour labels", () => {
  let owner: TestClient;
  let admin: TestClient;
  let otherEditor: TestClient;
  let member: TestClient;
  const visitor = new TestClient();
  let photo: RatedPhoto;

  beforeAll(async () => {
    ({ client: owner, admin } = await signedInAs("editor"));
    const other = await createTestUser(admin, "editor", "Other editor");
    otherEditor = new TestClient();
    await otherEditor.signIn(other.email, other.password);
    const viewer = await createTestUser(admin, "viewer", "A member");
    member = new TestClient();
    await member.signIn(viewer.email, viewer.password);
    const response = await uploadFiles(owner, [{ bytes: await smallJpeg(), name: "rated.jpg" }]);
    expect(response.status, await response.clone().text()).toBe(201);
    const [{ id }] = ((await response.json()) as { photos: Array<{ id: string }> }).photos;
    photo = (await waitForProcessing(owner, id)) as RatedPhoto;
  }, 120_000);

  it("a new photo has no rating and no label; the owner sets and clears them", async () => {
    expect({ rating: photo.rating, label: photo.label }).toEqual({ rating: 0, label: null });
    const set = await patch(owner, photo.id, { rating: 4, label: "red" });
    expect(set.status, await set.clone().text()).toBe(200);
    expect(((await set.json()) as { photo: RatedPhoto }).photo).toMatchObject({ rating: 4, label: "red" });
    const cleared = (await (await patch(owner, photo.id, { rating: 0, label: null })).json()) as { photo: RatedPhoto };
    expect(cleared.photo).toMatchObject({ rating: 0, label: null });
    await patch(owner, photo.id, { rating: 4, label: "red" });
  });

  it("refuses impossible values with 422, changing nothing", async () => {
    for (const edit of [{ rating: 6 }, { rating: -1 }, { rating: 2.5 }, { rating: "4" }, { rating: null }, { label: "orange" }, { label: "" }, { label: "RED" }]) {
      const response = await patch(owner, photo.id, edit);
      expect(response.status, JSON.stringify(edit)).toBe(422);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("INVALID_INPUT");
    }
    expect(await photoOf(owner, photo.id)).toMatchObject({ rating: 4, label: "red" });
  });

  it("nobody but the owner and admins sees them, even on a public photo", async () => {
    await patch(owner, photo.id, { visibility: "public" });
    for (const client of [member, otherEditor]) expect(await photoOf(client, photo.id)).toMatchObject({ rating: null, label: null });
    expect(await photoOf(admin, photo.id)).toMatchObject({ rating: 4, label: "red" });
    const page = await visitor.request(`/p/${photo.id}`);
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain("Colour label");
  });

  it("rating: and label: find the photo for its owner and an admin, never for a visitor or another user", async () => {
    for (const q of ["rating:4", "rating:>=4", "label:red", "rating:>=4 label:red"]) {
      const path = `/api/search?q=${encodeURIComponent(q)}&limit=100`;
      expect(await idsOf(owner, path), q).toContain(photo.id);
      expect(await idsOf(admin, path), q).toContain(photo.id);
      expect(await idsOf(visitor, path), q).not.toContain(photo.id);
      expect(await idsOf(otherEditor, path), q).not.toContain(photo.id);
      expect(await idsOf(member, path), q).not.toContain(photo.id);
    }
    // Excluding a label tells a visitor nothing either: the photo stays, as it would unlabelled.
    expect(await idsOf(visitor, `/api/search?q=${encodeURIComponent("-label:red")}&limit=100`)).toContain(photo.id);
    expect(await idsOf(owner, `/api/search?q=${encodeURIComponent("rating:5")}&limit=100`)).not.toContain(photo.id);
  });

  it("the library filters by at least so many stars and by label; a bad value is a 422", async () => {
    const library = (query: string) => idsOf(owner, `/api/photos/library?${query}`);
    expect(await library("minRating=4")).toContain(photo.id);
    expect(await library("minRating=5")).not.toContain(photo.id);
    expect(await library("label=red")).toContain(photo.id);
    expect(await library("label=blue")).not.toContain(photo.id);
    expect(await library("label=none")).not.toContain(photo.id);
    expect((await owner.request("/api/photos/library?minRating=6")).status).toBe(422);
    expect((await owner.request("/api/photos/library?label=orange")).status).toBe(422);
  });
});
