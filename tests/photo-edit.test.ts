// The photo editor's corrections through PATCH /api/photos/[id] (what the editor's form sends),
// on the built app: the date taken (set, cleared; a photo without one is "Date unknown", not of
// its upload year), the location (set, cleared; the metadata policy still decides who sees it)
// and the rotation (variants made again through the job queue, turned on top of the file's EXIF
// orientation, at new URLs; the original kept as uploaded). Only the owner and admins; others get
// 404 or 403, a visitor 401, impossible values 422 (the API's answer to every invalid field) with
// nothing changed.
import { createHash } from "node:crypto";
import sharp from "sharp";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { type PhotoDetailBody, uploadFiles, waitForProcessing } from "./helpers/photos";
import { createTestUser, signedInAs, TestClient } from "./helpers/test-client";
import { openTestDatabase } from "./helpers/test-database";

/**
 * A small JPEG stored 480×320 with EXIF orientation 6 (shown turned a quarter right: upright
 * 320×480), without a date: its stored top-left quarter is red, the rest blue. Upright, the red
 * quarter is top right; turned a further quarter right by the owner, bottom right.
 */
async function sidewaysJpeg(seed: number): Promise<Uint8Array<ArrayBuffer>> {
  const red = await sharp({ create: { width: 240, height: 160, channels: 3, background: "#ff0000" } }).png().toBuffer();
  const bytes = await sharp({ create: { width: 480, height: 320, channels: 3, background: { r: 0, g: 0, b: 255 - seed } } })
    .composite([{ input: red, left: 0, top: 0 }])
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .toBuffer();
  return new Uint8Array(bytes);
}

async function upload(client: TestClient, bytes: Uint8Array<ArrayBuffer>, name: string): Promise<PhotoDetailBody & { rotation: number }> {
  const response = await uploadFiles(client, [{ bytes, name }]);
  expect(response.status, await response.clone().text()).toBe(201);
  const [{ id }] = ((await response.json()) as { photos: Array<{ id: string }> }).photos;
  const photo = await waitForProcessing(client, id);
  expect(photo.status, photo.failureReason ?? "").toBe("ready");
  return photo as PhotoDetailBody & { rotation: number };
}

type EditedPhoto = PhotoDetailBody & { rotation: number; placeName: string | null; showLocation: boolean };

async function patch(client: TestClient, id: string, json: unknown): Promise<Response> {
  return client.request(`/api/photos/${id}`, { method: "PATCH", body: { json } });
}

async function patched(client: TestClient, id: string, json: unknown): Promise<EditedPhoto> {
  const response = await patch(client, id, json);
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { photo: EditedPhoto }).photo;
}

async function photoOf(client: TestClient, id: string): Promise<EditedPhoto> {
  const response = await client.request(`/api/photos/${id}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { photo: EditedPhoto }).photo;
}

async function pageText(client: TestClient, path: string): Promise<{ status: number; text: string }> {
  const response = await client.request(path);
  return { status: response.status, text: await response.text() };
}

/** The photo as its render job leaves it, once its size has changed (or after 60 s). */
async function waitForRender(client: TestClient, id: string, before: EditedPhoto): Promise<EditedPhoto> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const photo = await photoOf(client, id);
    const turned = photo.width === before.height && photo.height === before.width && photo.variants[0]?.url !== before.variants[0]?.url;
    if (turned || Date.now() > deadline) return photo;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The RGB of one pixel of an image, by its fraction of the width and height. */
async function pixelAt(bytes: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  const offset = (Math.floor(y * (info.height - 1)) * info.width + Math.floor(x * (info.width - 1))) * info.channels;
  return [data[offset], data[offset + 1], data[offset + 2]];
}

function isRed([r, g, b]: [number, number, number]): boolean {
  return r > 200 && g < 60 && b < 60;
}

describe("the photo editor's date, location and rotation", () => {
  let owner: TestClient;
  let otherEditor: TestClient;
  let admin: TestClient;
  const visitor = new TestClient();
  let photo: PhotoDetailBody & { rotation: number };
  let uploadedBytes: Uint8Array<ArrayBuffer>;

  beforeAll(async () => {
    ({ client: owner, admin } = await signedInAs("editor"));
    const other = await createTestUser(admin, "editor", "Other editor");
    otherEditor = new TestClient();
    await otherEditor.signIn(other.email, other.password);
    uploadedBytes = await sidewaysJpeg(Date.now() % 50);
    photo = await upload(owner, uploadedBytes, "sideways.jpg");
  }, 120_000);

  it("a photo without a date taken is 'Date unknown' on its page and in Browse → Years, not its upload year", async () => {
    expect(photo.takenAt).toBeNull();
    expect({ width: photo.width, height: photo.height }).toEqual({ width: 320, height: 480 });
    const page = await pageText(owner, `/p/${photo.id}`);
    expect(page.text).toContain("Date unknown");
    expect(page.text).toContain('href="/years/unknown"');
    expect((await pageText(owner, "/years")).text).toContain('href="/years/unknown"');
    const unknown = await pageText(owner, "/years/unknown");
    expect(unknown.status).toBe(200);
    expect(unknown.text).toContain(`/p/${photo.id}`);
    const uploadYear = await pageText(owner, `/years/${new Date().getUTCFullYear()}`);
    expect(uploadYear.text).not.toContain(`/p/${photo.id}`);
  });

  it("the owner sets the date taken (local time and offset, as EXIF stores it): the photo moves to that year; clearing it moves it back", async () => {
    const dated = await patched(owner, photo.id, { takenAt: "2009-07-14T18:30+02:00" });
    expect(dated.takenAt).toBe("2009-07-14T18:30:00+02:00");
    expect((await pageText(owner, "/years/2009")).text).toContain(`/p/${photo.id}`);
    expect((await pageText(owner, "/years/unknown")).text).not.toContain(`/p/${photo.id}`);
    const page = await pageText(owner, `/p/${photo.id}`);
    expect(page.text).toContain("14 July 2009, 18:30");
    expect(page.text).not.toContain("Date unknown");

    const local = await patched(owner, photo.id, { takenAt: "2011-01-02T03:04:05" });
    expect(local.takenAt).toBe("2011-01-02T03:04:05");
    expect((await pageText(owner, "/years/2011")).text).toContain(`/p/${photo.id}`);

    const cleared = await patched(owner, photo.id, { takenAt: null });
    expect(cleared.takenAt).toBeNull();
    expect((await pageText(owner, "/years/unknown")).text).toContain(`/p/${photo.id}`);
    expect((await pageText(owner, "/years/2011")).text).not.toContain(`/p/${photo.id}`);
  });

  it("the owner sets and clears the location; the metadata policy still decides who else sees it", async () => {
    const placed = await patched(owner, photo.id, { location: { latitude: 38.7223, longitude: -9.1393 } });
    expect(placed.location).toEqual({ latitude: 38.7223, longitude: -9.1393, altitude: null });
    expect(placed.placeName).toContain("Portugal");

    await patched(owner, photo.id, { visibility: "public", showLocation: false });
    expect((await photoOf(otherEditor, photo.id)).location).toBeNull();
    await patched(owner, photo.id, { showLocation: true });
    expect((await photoOf(otherEditor, photo.id)).location).toEqual({ latitude: 38.7223, longitude: -9.1393, altitude: null });

    const cleared = await patched(owner, photo.id, { location: null });
    expect(cleared.location).toBeNull();
    expect(cleared.placeName).toBeNull();
    await patched(owner, photo.id, { visibility: "private", showLocation: false });
  });

  it("refuses another editor (404 while private, 403 once they can see it), a visitor (401) and impossible values (422), changing nothing", async () => {
    const before = await photoOf(owner, photo.id);
    const edits = [{ takenAt: "2001-01-01T00:00" }, { location: { latitude: 1, longitude: 1 } }, { rotation: 180 }];
    for (const edit of edits) {
      expect((await patch(otherEditor, photo.id, edit)).status, JSON.stringify(edit)).toBe(404);
      expect((await patch(visitor, photo.id, edit)).status, JSON.stringify(edit)).toBe(401);
    }
    await patched(owner, photo.id, { visibility: "members" });
    for (const edit of edits) expect((await patch(otherEditor, photo.id, edit)).status, JSON.stringify(edit)).toBe(403);
    await patched(owner, photo.id, { visibility: "private" });

    for (const edit of [
      { location: { latitude: 90.0001, longitude: 0 } },
      { location: { latitude: -91, longitude: 0 } },
      { location: { latitude: 0, longitude: 180.5 } },
      { location: { latitude: 0, longitude: -181 } },
      { location: { latitude: 10 } },
      { location: { latitude: "10", longitude: "20" } },
      { location: { latitude: null, longitude: 20 } },
      { takenAt: "2019-02-30T10:00" },
      { takenAt: "1700-01-01T00:00" },
      { takenAt: "2019-05-03T25:00" },
      { takenAt: "2019-05-03T10:00+15:00" },
      { takenAt: "yesterday" },
      { takenAt: 1_700_000_000 },
      { rotation: 45 },
      { rotation: 360 },
      { rotation: "90" },
    ]) {
      // The API's answer to a body that parses but says something impossible: 422 INVALID_INPUT, as for every field.
      const response = await patch(owner, photo.id, edit);
      expect(response.status, JSON.stringify(edit)).toBe(422);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("INVALID_INPUT");
    }
    const after = await photoOf(owner, photo.id);
    expect({ takenAt: after.takenAt, location: after.location, rotation: after.rotation }).toEqual({
      takenAt: before.takenAt,
      location: before.location,
      rotation: before.rotation,
    });
  });

  it("turning makes every variant again on top of the EXIF orientation, at new URLs, and keeps the original as uploaded", async () => {
    const before = await photoOf(owner, photo.id);
    const oldVariant = before.variants.find((variant) => variant.format === "jpeg")!;
    expect(await pixelAt(Buffer.from(await (await owner.request(oldVariant.url)).arrayBuffer()), 0.95, 0.05).then(isRed)).toBe(true);

    const answered = await patched(owner, photo.id, { rotation: 90 });
    expect(answered.rotation).toBe(90);
    const turned = await waitForRender(owner, photo.id, before);
    expect({ width: turned.width, height: turned.height }).toEqual({ width: 480, height: 320 });
    expect(turned.thumbhash).not.toBe(before.thumbhash);
    const oldUrls = new Set(before.variants.map((variant) => variant.url));
    expect(turned.variants.length).toBeGreaterThan(0);
    for (const variant of turned.variants) {
      expect(oldUrls.has(variant.url), variant.url).toBe(false);
      expect(variant.width).toBeGreaterThan(variant.height);
    }
    const jpeg = turned.variants.find((variant) => variant.format === "jpeg")!;
    const bytes = Buffer.from(await (await owner.request(jpeg.url)).arrayBuffer());
    const size = await sharp(bytes).metadata();
    expect({ width: size.width, height: size.height }).toEqual({ width: jpeg.width, height: jpeg.height });
    // Upright the red quarter was top right; a quarter further right, it is bottom right.
    expect(isRed(await pixelAt(bytes, 0.95, 0.95))).toBe(true);
    expect(isRed(await pixelAt(bytes, 0.05, 0.05))).toBe(false);
    expect(isRed(await pixelAt(bytes, 0.95, 0.05))).toBe(false);
    // The old URLs are gone; the original is the uploaded file, byte for byte.
    expect((await owner.request(oldVariant.url)).status).toBe(404);
    const original = Buffer.from(await (await owner.request(`/api/photos/${photo.id}/original`)).arrayBuffer());
    expect(createHash("sha256").update(original).digest("hex")).toBe(createHash("sha256").update(uploadedBytes).digest("hex"));

    // Back again: as uploaded (EXIF orientation only).
    await patched(owner, photo.id, { rotation: 0 });
    const back = await waitForRender(owner, photo.id, turned);
    expect({ width: back.width, height: back.height, rotation: back.rotation }).toEqual({ width: 320, height: 480, rotation: 0 });
  });

  it("a date set by hand outlives processing again: a failed photo retried keeps it, and stays out of 'Date unknown'", async () => {
    const retried = await upload(owner, await sidewaysJpeg((Date.now() + 7) % 50), "retried.jpg");
    await patched(owner, retried.id, { takenAt: "2012-03-04T05:06+01:00" });
    // As if its processing had failed since (the file has no EXIF date: reading it again would clear the owner's).
    const db = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
    try {
      await db.updateTable("photos").set({ status: "failed", failure_reason: "A test says so" }).where("id", "=", retried.id).execute();
    } finally {
      await db.destroy();
    }
    const retry = await owner.request(`/api/photos/${retried.id}/retry`, { method: "POST" });
    expect(retry.status, await retry.clone().text()).toBe(202);
    const again = await waitForProcessing(owner, retried.id);
    expect(again.status).toBe("ready");
    expect(again.takenAt).toBe("2012-03-04T05:06:00+01:00");
    expect((await pageText(owner, "/years/2012")).text).toContain(`/p/${retried.id}`);
  });

  it("an admin may correct anyone's photo", async () => {
    const edited = await patched(admin, photo.id, { takenAt: "2015-05-05T05:05" });
    expect(edited.takenAt).toBe("2015-05-05T05:05:00");
  });
});
