// Places (issue 31), on the built app: processing names where a photo was taken from its GPS
// coordinates, offline (city, region, country, time zone), and reads its date taken as an instant
// in that zone; the owner corrects the place by hand and the correction sticks when the photo is
// processed again; impossible places are refused (422) with nothing stored; the place is shown to
// others only under the location rule of the metadata policy.
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Database } from "@/src/db/database";
import { corpusFile, type PhotoDetailBody, uploadFiles, waitForProcessing } from "./helpers/photos";
import { openTestDatabase } from "./helpers/test-database";
import { signedInAs, TestClient } from "./helpers/test-client";

interface PlaceBody {
  city: string | null;
  region: string | null;
  countryCode: string | null;
  country: string | null;
  timeZone: string | null;
  source: "automatic" | "manual";
}
type PlacedPhoto = PhotoDetailBody & {
  place: PlaceBody | null;
  placeName: string | null;
  takenAtInstant: string | null;
  location: { latitude: number; longitude: number; altitude: number | null } | null;
};

const AREZZO: PlaceBody = { city: "Arezzo", region: "Tuscany", countryCode: "IT", country: "Italy", timeZone: "Europe/Rome", source: "automatic" };

let owner: TestClient;
let otherEditor: TestClient;
let db: Kysely<Database>;

beforeAll(async () => {
  ({ client: owner } = await signedInAs("editor"));
  ({ client: otherEditor } = await signedInAs("editor"));
  db = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
}, 60_000);

afterAll(async () => {
  await db?.destroy();
});

async function uploadCorpus(relativePath: string, name: string): Promise<PlacedPhoto> {
  const response = await uploadFiles(owner, [{ bytes: corpusFile(relativePath), name }]);
  expect(response.status, await response.clone().text()).toBe(201);
  const [{ id }] = ((await response.json()) as { photos: Array<{ id: string }> }).photos;
  const photo = await waitForProcessing(owner, id);
  expect(photo.status).toBe("ready");
  return photoOf(owner, id);
}

async function photoOf(client: TestClient, id: string): Promise<PlacedPhoto> {
  const response = await client.request(`/api/photos/${id}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { photo: PlacedPhoto }).photo;
}

async function patch(id: string, json: unknown): Promise<Response> {
  return owner.request(`/api/photos/${id}`, { method: "PATCH", body: { json } });
}

async function patched(id: string, json: unknown): Promise<PlacedPhoto> {
  const response = await patch(id, json);
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { photo: PlacedPhoto }).photo;
}

/** The photo once `done` holds (the worker's place lookup or processing), or after 30 s. */
async function waitUntil(id: string, done: (photo: PlacedPhoto) => boolean): Promise<PlacedPhoto> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const photo = await photoOf(owner, id);
    if (done(photo) || Date.now() > deadline) return photo;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Processes the photo again from its original, as a retry after a failure does. */
async function processAgain(id: string): Promise<PlacedPhoto> {
  await db.updateTable("photos").set({ status: "failed", failure_reason: "test: process again" }).where("id", "=", id).execute();
  const retried = await owner.request(`/api/photos/${id}/retry`, { method: "POST" });
  expect(retried.status, await retried.clone().text()).toBe(202);
  await waitForProcessing(owner, id);
  return photoOf(owner, id);
}

describe("places worked out from a photo's coordinates", () => {
  it("names the corpus's Arezzo photo and reads its date taken in Rome's time", async () => {
    const photo = await uploadCorpus("exif-samples/jpg/gps/DSCN0010.jpg", "arezzo.jpg");
    expect(photo.place).toEqual(AREZZO);
    expect(photo.placeName).toBe("Arezzo, Tuscany, Italy");
    // The camera wrote 16:28:39 and no offset: kept as written, read as summer time in Rome.
    expect(photo.takenAt).toBe("2008-10-22T16:28:39");
    expect(photo.takenAtInstant).toBe("2008-10-22T14:28:39.000Z");
  });

  it("leaves a photo without coordinates unnamed", async () => {
    const photo = await uploadCorpus("immich-test-assets/metadata/gps-position/empty_gps.jpg", "no-fix.jpg");
    expect(photo.location).toBeNull();
    expect(photo).toMatchObject({ place: null, placeName: null, takenAtInstant: null });
  });
});

describe("a place corrected by hand", () => {
  let id: string;
  beforeAll(async () => {
    ({ id } = await uploadCorpus("exif-samples/jpg/gps/DSCN0012.jpg", "corrected.jpg"));
  }, 120_000);

  it("keeps typed names, and survives processing again", async () => {
    const named = await patched(id, { place: { city: "Arezzo, Piazza Grande", region: "Toscana" } });
    expect(named.place).toEqual({ ...AREZZO, city: "Arezzo, Piazza Grande", region: "Toscana", source: "manual" });
    expect(named.placeName).toBe("Arezzo, Piazza Grande, Toscana, Italy");

    const again = await processAgain(id);
    expect(again.place).toEqual(named.place);
  });

  it("moved by hand: the worker names the new coordinates, and processing again keeps them", async () => {
    const moved = await patched(id, { location: { latitude: 38.7223, longitude: -9.1393 } });
    expect(moved.location).toEqual({ latitude: 38.7223, longitude: -9.1393, altitude: null });
    // Until the worker has named them, the country from the coordinates alone.
    const named = await waitUntil(id, (photo) => photo.place?.city !== null && photo.place?.city !== undefined);
    expect(named.place).toEqual({ city: "Lisbon", region: "Lisbon", countryCode: "PT", country: "Portugal", timeZone: "Europe/Lisbon", source: "manual" });
    expect(named.placeName).toBe("Lisbon, Portugal");

    const again = await processAgain(id);
    expect(again.location).toEqual({ latitude: 38.7223, longitude: -9.1393, altitude: null });
    expect(again.place).toEqual(named.place);
  });

  it("names and coordinates together: the typed names stay, the time zone comes from the coordinates", async () => {
    await patched(id, { location: { latitude: 35.6812, longitude: 139.7671 }, place: { city: "Marunouchi", region: null, countryCode: "JP" } });
    const photo = await waitUntil(id, (current) => current.place?.timeZone !== null);
    expect(photo.place).toEqual({ city: "Marunouchi", region: null, countryCode: "JP", country: "Japan", timeZone: "Asia/Tokyo", source: "manual" });
  });

  it("place: null names the coordinates again", async () => {
    await patched(id, { place: null });
    const photo = await waitUntil(id, (current) => current.place?.city === "Tokyo");
    expect(photo.place).toMatchObject({ city: "Tokyo", countryCode: "JP", source: "manual" });
  });

  it("refuses impossible places (422) and stores nothing", async () => {
    const before = await photoOf(owner, id);
    for (const edit of [
      { place: { city: "Bell\u0007town" } },
      { place: { region: "Line\nbreak" } },
      { place: { city: "x".repeat(10_240) } },
      { place: { countryCode: "EU" } },
      { place: { countryCode: "it" } },
      { place: { countryCode: "ITA" } },
      { place: { planet: "Mars" } },
      { place: "Rome" },
      { location: { latitude: 91, longitude: 0 } },
      { location: { latitude: 0, longitude: -180.0001 } },
      { location: { latitude: "NaN", longitude: 0 } },
      { location: { latitude: null, longitude: 0 } },
    ]) {
      expect((await patch(id, edit)).status, JSON.stringify(edit).slice(0, 80)).toBe(422);
    }
    const after = await photoOf(owner, id);
    expect({ location: after.location, place: after.place }).toEqual({ location: before.location, place: before.place });
  });

  it("is only the owner's to change", async () => {
    expect((await otherEditor.request(`/api/photos/${id}`, { method: "PATCH", body: { json: { place: { city: "Elsewhere" } } } })).status).toBe(404);
  });
});

describe("who sees a place", () => {
  it("others see it only while the owner shows the location", async () => {
    const { id } = await uploadCorpus("exif-samples/jpg/gps/DSCN0021.jpg", "shown.jpg");
    await patched(id, { visibility: "public", showLocation: false });
    expect(await photoOf(otherEditor, id)).toMatchObject({ location: null, place: null, placeName: null, takenAtInstant: null });
    await patched(id, { showLocation: true });
    expect(await photoOf(otherEditor, id)).toMatchObject({ place: AREZZO, placeName: "Arezzo, Tuscany, Italy", takenAtInstant: "2008-10-22T14:38:20.000Z" });
    await patched(id, { visibility: "private", showLocation: false });
  });
});

// The place columns exist on both databases with their check.
describe("the stored place", () => {
  it("accepts only automatic or manual as its source", async () => {
    const [photo] = await db.selectFrom("photos").select("id").limit(1).execute();
    await expect(sql`update photos set place_source = 'guessed' where id = ${photo.id}`.execute(db)).rejects.toThrow();
  });
});

describe("/places", () => {
  /** A country's count on /places as this client reads it; 0 when the country is not listed. */
  async function countryCount(client: TestClient, country: string): Promise<number> {
    const html = await (await client.request("/places")).text();
    const match = new RegExp(`<span>${country}</span><span class="places-count muted">([\\d,]+) photos?</span>`).exec(html);
    return match ? Number(match[1].replace(/,/g, "")) : 0;
  }

  it("lists a place for others only while its owner shows the location, in names and counts, on the photo page too", async () => {
    const { id } = await uploadCorpus("exif-samples/jpg/gps/DSCN0025.jpg", "places-page.jpg");
    const town = `Borgo ${process.pid}${Date.now() % 100_000}`;
    await patched(id, { visibility: "public", showLocation: false, place: { city: town, region: "Casentino", countryCode: "MT" } });
    const visitor = new TestClient();
    const malta = { visitor: await countryCount(visitor, "Malta"), otherEditor: await countryCount(otherEditor, "Malta") };

    // Hidden: the owner sees it; a visitor and another editor see neither the names nor the count.
    expect(await (await owner.request("/places")).text()).toContain(town);
    for (const client of [visitor, otherEditor]) {
      const html = await (await client.request("/places")).text();
      expect(html).not.toContain(town);
      expect(html).not.toContain("Casentino");
      expect(await (await client.request(`/p/${id}`)).text()).not.toContain(town);
    }

    await patched(id, { showLocation: true });
    for (const [name, client] of [["visitor", visitor], ["otherEditor", otherEditor]] as const) {
      expect(await (await client.request("/places")).text()).toContain(town);
      expect(await countryCount(client, "Malta")).toBe(malta[name] + 1);
      expect(await (await client.request(`/p/${id}`)).text()).toContain(`${town}, Casentino, Malta`);
    }

    // Private again: gone for the visitor, names and count.
    await patched(id, { visibility: "private" });
    expect(await (await visitor.request("/places")).text()).not.toContain(town);
    expect(await countryCount(visitor, "Malta")).toBe(malta.visitor);
  });
});
