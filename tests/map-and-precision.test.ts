// The map and location precision (issue 31), on the built app and both databases: a photo's
// location reaches people other than its owner only when the owner shows it, and then only as
// precisely as the owner chose (exact; city: 0.1°; region: 1°; country: no coordinates), rounded on
// the server, in the photo API, /places, place: search and the map's clusters alike; a hidden location is in
// nothing, not even rounded, not in a count. The clusters API takes a box across the date line and
// answers a bad box or zoom with a 400 that says why. After a photo changes, the next answer
// already leaves out a photo made private, hidden or deleted (the index is patched, not rebuilt),
// and an upload, its processing, an album and tags patch it too (/metrics tells builds from patches).
import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Database, LocationPrecision } from "@/src/db/database";
import { encodeShareGrant } from "@/src/shares/share-grant-cookie";
import { newShareKey } from "@/src/shares/share-key";
import { insertSharePhotos } from "@/src/shares/share-photos.repository";
import { SHARE_GRANT_COOKIE } from "@/src/shares/share.types";
import { TEST_METRICS_TOKEN, TEST_SECRET } from "./setup/global-setup";
import { insertPhotoRows } from "./helpers/direct-rows";
import { jpegWithEmbeddedText } from "./helpers/embedded-metadata-jpeg";
import { uploadFiles, waitForProcessing } from "./helpers/photos";
import { openTestDatabase } from "./helpers/test-database";
import { signedInAs, signedInAdmin, TestClient } from "./helpers/test-client";

interface Marker {
  kind: "cluster" | "photo";
  id: string | number;
  latitude: number;
  longitude: number;
  count?: number;
  expansionZoom?: number;
  placeName: string | null;
}

interface PhotoBody {
  location: { latitude: number; longitude: number; altitude: number | null } | null;
  place: { city: string | null; region: string | null; country: string | null } | null;
  placeName: string | null;
}

// Names no other test uses, so /places and the map can be read for these photos alone.
const RUN = randomUUID().slice(0, 8);
const CITY = (name: string) => `${name} ${RUN}`;

interface Seed {
  id: string;
  visibility: "public" | "private";
  shown: boolean;
  precision: LocationPrecision | null;
  latitude: number;
  longitude: number;
  city: string;
  region: string;
}

// Far apart (each alone at zoom 16), in the open sea where no other test puts a photo.
const SEEDS = {
  exact: { latitude: -40.12345, longitude: -130.12345, precision: "exact", shown: true, visibility: "public", city: CITY("Exactville"), region: CITY("Exact Region") },
  city: { latitude: -42.13456, longitude: -128.16789, precision: "city", shown: true, visibility: "public", city: CITY("Cityton"), region: CITY("City Region") },
  region: { latitude: -44.6789, longitude: -126.3456, precision: "region", shown: true, visibility: "public", city: CITY("Regionburg"), region: CITY("Region Region") },
  country: { latitude: -46.2222, longitude: -124.2222, precision: "country", shown: true, visibility: "public", city: CITY("Countryham"), region: CITY("Country Region") },
  hidden: { latitude: -48.3333, longitude: -122.3333, precision: "exact", shown: false, visibility: "public", city: CITY("Hiddenfield"), region: CITY("Hidden Region") },
  private: { latitude: -38.4444, longitude: -132.4444, precision: "exact", shown: true, visibility: "private", city: CITY("Privatemouth"), region: CITY("Private Region") },
  dateEast: { latitude: -16.5, longitude: 179.9, precision: "exact", shown: true, visibility: "public", city: CITY("Eastdate"), region: CITY("Date Region") },
  dateWest: { latitude: -16.5, longitude: -179.9, precision: "exact", shown: true, visibility: "public", city: CITY("Westdate"), region: CITY("Date Region") },
} satisfies Record<string, Omit<Seed, "id">>;

type SeedName = keyof typeof SEEDS;
const ids = Object.fromEntries(Object.keys(SEEDS).map((name) => [name, randomUUID()])) as Record<SeedName, string>;

process.env.NEXTAUTH_SECRET ??= TEST_SECRET;

let ownerId: string;
let owner: TestClient;
let member: TestClient;
let admin: TestClient;
const visitor = new TestClient();
let db: Kysely<Database>;

beforeAll(async () => {
  const signedIn = await signedInAs("editor");
  owner = signedIn.client;
  ownerId = signedIn.user.id;
  ({ client: member } = await signedInAs("viewer"));
  admin = await signedInAdmin();
  db = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
  const sortAt = "1991-05-01T10:00:00.000Z";
  await insertPhotoRows(
    db,
    (Object.keys(SEEDS) as SeedName[]).map((name) => {
      const seed: Omit<Seed, "id"> = SEEDS[name];
      return {
        id: ids[name],
        owner_id: signedIn.user.id,
        sort_at: sortAt,
        visibility: seed.visibility,
        show_location: seed.shown ? 1 : 0,
        location_precision: seed.precision,
        gps_latitude: seed.latitude,
        gps_longitude: seed.longitude,
        gps_altitude: 120,
        place_city: seed.city,
        place_region: seed.region,
        place_country_code: "NZ",
        place_source: "manual",
      };
    }),
  );
}, 60_000);

afterAll(async () => {
  await db?.destroy();
});

/** Exact coordinates as stored: PostgreSQL keeps them as `real`, a few millionths of a degree off what was written. */
function expectExactly(point: { latitude: number; longitude: number } | null | undefined, latitude: number, longitude: number): void {
  expect(point?.latitude).toBeCloseTo(latitude, 4);
  expect(point?.longitude).toBeCloseTo(longitude, 4);
}

async function photoAs(client: TestClient, name: SeedName): Promise<PhotoBody> {
  const response = await client.request(`/api/photos/${ids[name]}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { photo: PhotoBody }).photo;
}

async function markersAs(client: TestClient, bbox: string, zoom: number): Promise<Marker[]> {
  const response = await client.request(`/api/map/clusters?bbox=${encodeURIComponent(bbox)}&zoom=${zoom}`);
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { markers: Marker[] }).markers;
}

/** Our photos' single markers in the test's corner of the ocean, by seed name. */
async function singlePhotosAs(client: TestClient): Promise<Partial<Record<SeedName, Marker>>> {
  const markers = await markersAs(client, "-135,-50,-120,-35", 16);
  const byId = new Map(markers.filter((marker) => marker.kind === "photo").map((marker) => [marker.id, marker]));
  return Object.fromEntries((Object.keys(ids) as SeedName[]).filter((name) => byId.has(ids[name])).map((name) => [name, byId.get(ids[name])]));
}

describe("the photo API at each precision", () => {
  it("gives others exact coordinates, 0.1°, 1°, or only the country, and nothing when hidden", async () => {
    // The photos API is for signed-in people: a member of the site, not the owner.
    const exact = await photoAs(member, "exact");
    expectExactly(exact.location, -40.12345, -130.12345);
    expect(exact.location?.altitude).toBe(120);
    expect(exact.place?.city).toBe(SEEDS.exact.city);

    const city = await photoAs(member, "city");
    expect(city.location).toEqual({ latitude: -42.1, longitude: -128.2, altitude: null });
    expect(city.place).toMatchObject({ city: SEEDS.city.city, region: SEEDS.city.region });

    const region = await photoAs(member, "region");
    expect(region.location).toEqual({ latitude: -45, longitude: -126, altitude: null });
    expect(region.place).toMatchObject({ city: null, region: SEEDS.region.region });
    expect(region.placeName).not.toContain("Regionburg");

    const country = await photoAs(member, "country");
    expect(country.location).toBeNull();
    expect(country.place).toMatchObject({ city: null, region: null, country: "New Zealand" });
    expect(country.placeName).toBe("New Zealand");

    const hidden = await photoAs(member, "hidden");
    expect(hidden).toMatchObject({ location: null, place: null, placeName: null });
  });

  it("gives the owner every location exactly, and the precision the photo chose", async () => {
    for (const name of ["city", "region", "country", "hidden"] as const) {
      const photo = await photoAs(owner, name);
      expectExactly(photo.location, SEEDS[name].latitude, SEEDS[name].longitude);
      expect(photo.location?.altitude).toBe(120);
    }
    expect(((await (await owner.request(`/api/photos/${ids.city}`)).json()) as { photo: { locationPrecision: string } }).photo.locationPrecision).toBe("city");
  });

  it("lets the owner change the precision, and refuses one that does not exist", async () => {
    const refused = await owner.request(`/api/photos/${ids.exact}`, { method: "PATCH", body: { json: { locationPrecision: "street" } } });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain("exact, city, region, country");
    const changed = await owner.request(`/api/photos/${ids.exact}`, { method: "PATCH", body: { json: { locationPrecision: "region" } } });
    expect(changed.status).toBe(200);
    try {
      expect((await photoAs(member, "exact")).location).toEqual({ latitude: -40, longitude: -130, altitude: null });
    } finally {
      const back = await owner.request(`/api/photos/${ids.exact}`, { method: "PATCH", body: { json: { locationPrecision: "exact" } } });
      expect(back.status).toBe(200);
    }
  });
});

describe("a share link that shows location", () => {
  it("shows each photo's location as precisely as its owner lets others see it", async () => {
    const now = new Date().toISOString();
    const id = randomUUID();
    const key = newShareKey();
    await db
      .insertInto("shares")
      .values({ id, key, owner_id: ownerId, title: "Where", download: "none", allow_zip: 0, show_exif: 1, show_location: 1, expires_at: null, max_views: null, created_at: now, updated_at: now })
      .execute();
    await insertSharePhotos(db, id, [ids.exact, ids.city, ids.country]);
    const { value } = encodeShareGrant(id, 1, new Date());
    const response = await fetch(new URL(`/s/${key}/api/photos`, inject("baseUrl")), { headers: { Cookie: `${SHARE_GRANT_COOKIE}=${value}` } });
    expect(response.status).toBe(200);
    const { photos } = (await response.json()) as { photos: Array<{ id: string; location: { latitude: number; longitude: number } | null }> };
    const locationOf = (name: SeedName) => photos.find((photo) => photo.id === ids[name])?.location;
    expectExactly(locationOf("exact"), -40.12345, -130.12345);
    expect(locationOf("city")).toEqual({ latitude: -42.1, longitude: -128.2 });
    expect(locationOf("country")).toBeNull();
  });
});

describe("/places at each precision", () => {
  it("names a town only from city precision, a region from region precision, and nothing hidden", async () => {
    const html = await (await visitor.request("/places")).text();
    expect(html).toContain(SEEDS.exact.city);
    expect(html).toContain(SEEDS.city.city);
    expect(html).not.toContain(SEEDS.region.city);
    expect(html).toContain(SEEDS.region.region);
    expect(html).not.toContain(SEEDS.country.city);
    expect(html).not.toContain(SEEDS.country.region);
    expect(html).not.toContain(SEEDS.hidden.city);
    expect(html).not.toContain(SEEDS.hidden.region);
    expect(html).not.toContain(SEEDS.private.city);
    // The owner learns every place of their own photos.
    const own = await (await owner.request("/places")).text();
    for (const name of ["region", "country", "hidden", "private"] as const) expect(own).toContain(SEEDS[name].city);
  });
});

describe("place: search at each precision", () => {
  async function foundAs(client: TestClient, q: string): Promise<string[]> {
    const response = await client.request(`/api/search?q=${encodeURIComponent(q)}`);
    expect(response.status, await response.clone().text()).toBe(200);
    return ((await response.json()) as { photos: Array<{ id: string }> }).photos.map((photo) => photo.id);
  }

  it("finds a photo by its town only from city precision, by its region from region precision, and never hidden", async () => {
    const quoted = (name: string) => `place:"${name}"`;
    expect(await foundAs(visitor, quoted(SEEDS.city.city))).toEqual([ids.city]);
    expect(await foundAs(visitor, quoted(SEEDS.region.city))).toEqual([]);
    expect(await foundAs(visitor, quoted(SEEDS.region.region))).toEqual([ids.region]);
    expect(await foundAs(visitor, quoted(SEEDS.country.city))).toEqual([]);
    expect(await foundAs(visitor, quoted(SEEDS.country.region))).toEqual([]);
    expect(await foundAs(visitor, quoted(SEEDS.hidden.region))).toEqual([]);
    // Excluding the town keeps the photo, so the negation says nothing either.
    expect(await foundAs(visitor, `${quoted(SEEDS.region.region)} -${quoted(SEEDS.region.city)}`)).toEqual([ids.region]);
    // The owner finds every one of their own by its town.
    expect(await foundAs(owner, quoted(SEEDS.region.city))).toEqual([ids.region]);
    expect(await foundAs(owner, quoted(SEEDS.country.city))).toEqual([ids.country]);
  });

  it("offers a town in facets and suggestions only where its precision names it", async () => {
    const facets = (await (await visitor.request(`/api/search/facets?q=${encodeURIComponent(`place:"${SEEDS.region.region}"`)}`)).json()) as { places: Array<{ label: string }> };
    expect(JSON.stringify(facets.places)).not.toContain(SEEDS.region.city);
    const suggested = async (client: TestClient, prefix: string) =>
      JSON.stringify(await (await client.request(`/api/search/suggest?q=${encodeURIComponent(`place:${prefix}`)}`)).json());
    expect(await suggested(visitor, "Regionburg")).not.toContain(SEEDS.region.city);
    expect(await suggested(visitor, "Countryham")).not.toContain(SEEDS.country.city);
    expect(await suggested(visitor, "Cityton")).toContain(SEEDS.city.city);
    expect(await suggested(owner, "Regionburg")).toContain(SEEDS.region.city);
  });
});

describe("GET /api/map/clusters", () => {
  it("shows others only the shown photos they may list, each at its precision; country precision is no point", async () => {
    for (const client of [visitor, member]) {
      const seen = await singlePhotosAs(client);
      expect(Object.keys(seen).sort()).toEqual(["city", "exact", "region"]);
      expectExactly(seen.exact, -40.12345, -130.12345);
      expect(seen.city).toMatchObject({ latitude: -42.1, longitude: -128.2 });
      expect(seen.region).toMatchObject({ latitude: -45, longitude: -126 });
      expect(seen.region?.placeName).not.toContain("Regionburg");
    }
  });

  it("shows the owner and admins every geotagged photo exactly", async () => {
    for (const client of [owner, admin]) {
      const seen = await singlePhotosAs(client);
      expect(Object.keys(seen).sort()).toEqual(["city", "country", "exact", "hidden", "private", "region"]);
      expectExactly(seen.hidden, -48.3333, -122.3333);
    }
  });

  it("counts no hidden photo in a group, not even rounded", async () => {
    // At zoom 0 the corner is one group: the visitor's holds the three shown photos, the owner's all six.
    const countIn = async (client: TestClient) =>
      (await markersAs(client, "-135,-50,-120,-35", 0)).reduce((sum, marker) => sum + (marker.kind === "cluster" ? (marker.count ?? 0) : 1), 0);
    expect(await countIn(visitor)).toBe(3);
    expect(await countIn(owner)).toBe(6);
    const [group] = (await markersAs(visitor, "-135,-50,-120,-35", 0)).filter((marker) => marker.kind === "cluster");
    expect(group.expansionZoom).toBeGreaterThan(0);
  });

  it("takes a box across the date line", async () => {
    const across = await markersAs(visitor, "179,-17,-179,-16", 16);
    expect(across.map((marker) => marker.id).sort()).toEqual([ids.dateEast, ids.dateWest].sort());
    // The same numbers the other way round are the 358° between them, without either photo.
    const between = await markersAs(visitor, "-179,-17,179,-16", 16);
    expect(between.map((marker) => marker.id)).not.toContain(ids.dateEast);
    expect(between.map((marker) => marker.id)).not.toContain(ids.dateWest);
  });

  it.each([
    ["NaN", "bbox=NaN,0,1,1&zoom=3", "west is not a number"],
    ["inverted", "bbox=0,10,1,5&zoom=3", "south is north of its north"],
    ["latitude out of range", "bbox=0,-95,1,5&zoom=3", "south must be between -90 and 90"],
    ["longitude out of range", "bbox=-200,0,1,5&zoom=3", "west must be between -180 and 180"],
    ["zoom too far", "bbox=0,0,1,1&zoom=25", "zoom must be from 0 to 20"],
    ["negative zoom", "bbox=0,0,1,1&zoom=-1", "whole number"],
    ["no bbox", "zoom=3", "west,south,east,north"],
    ["a 10 kB bbox", `bbox=${"9".repeat(10_000)}&zoom=3`, "too long"],
  ])("answers %s with a 400 that says why", async (_label, query, message) => {
    const response = await visitor.request(`/api/map/clusters?${query}`);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(message);
  });
});

describe("the map just after a photo changes", () => {
  // Close together in the southern Indian Ocean, where no other test puts a photo: one group at zoom 3.
  const BOX = "80,-56,90,-48";
  const near = (index: number) => ({ latitude: -52 - index * 0.01, longitude: 85 + index * 0.01 });
  const photo = Object.fromEntries(["madePrivate", "hidden", "deleted", "retitled"].map((name) => [name, randomUUID()])) as Record<"madePrivate" | "hidden" | "deleted" | "retitled", string>;

  const countIn = async (client: TestClient) => (await markersAs(client, BOX, 3)).reduce((sum, marker) => sum + (marker.kind === "cluster" ? (marker.count ?? 0) : 1), 0);
  const singlesIn = async (client: TestClient) => new Set((await markersAs(client, BOX, 16)).filter((marker) => marker.kind === "photo").map((marker) => marker.id));
  const edit = async (name: keyof typeof photo, json: Record<string, unknown>) => {
    const response = await owner.request(`/api/photos/${photo[name]}`, { method: "PATCH", body: { json } });
    expect(response.status, await response.clone().text()).toBe(200);
  };

  it("leaves out a photo made private, hidden or deleted from the very next answer, and shows one made public again", async () => {
    await insertPhotoRows(
      db,
      Object.values(photo).map((id, index) => ({
        id,
        owner_id: ownerId,
        sort_at: "1991-06-01T10:00:00.000Z",
        visibility: "public",
        show_location: 1,
        location_precision: "exact",
        gps_latitude: near(index).latitude,
        gps_longitude: near(index).longitude,
        place_country_code: "AU",
        place_source: "manual",
      })),
    );
    // A viewer signed in only now: their index is built after the rows above, and kept from here on.
    const { client: watcher } = await signedInAs("viewer");
    expect(await countIn(watcher)).toBe(4);
    expect(await singlesIn(watcher)).toEqual(new Set(Object.values(photo)));

    await edit("madePrivate", { visibility: "private" });
    expect(await countIn(watcher)).toBe(3);
    await edit("hidden", { showLocation: false });
    expect(await countIn(watcher)).toBe(2);
    const deleted = await owner.request(`/api/photos/${photo.deleted}`, { method: "DELETE" });
    expect(deleted.status).toBe(204);
    expect(await countIn(watcher)).toBe(1);
    expect(await singlesIn(watcher)).toEqual(new Set([photo.retitled]));

    // A change the map does not show keeps the photo where it was; one made public again comes back.
    await edit("retitled", { title: "Renamed" });
    expect(await singlesIn(watcher)).toEqual(new Set([photo.retitled]));
    await edit("madePrivate", { visibility: "public" });
    expect(await singlesIn(watcher)).toEqual(new Set([photo.retitled, photo.madePrivate]));
    expect(await countIn(watcher)).toBe(2);
  });
});

describe("the map after an upload, its processing, an album and tags", () => {
  // Off the coast of Antarctica, where no other test puts a photo.
  const SPOT = { latitude: -66.5, longitude: 40.5 };
  const metricsLine = (work: string) => `contact_sheet_map_index_seconds_count{work="${work}"}`;
  const scrapeMapWork = async () => {
    const response = await fetch(`${inject("baseUrl")}/metrics`, { headers: { Authorization: `Bearer ${TEST_METRICS_TOKEN}` } });
    expect(response.status).toBe(200);
    const text = await response.text();
    const sample = (line: string) => Number(text.split("\n").find((candidate) => candidate.startsWith(`${line} `))?.slice(line.length + 1) ?? 0);
    return { changes: sample(metricsLine("changes")), patch: sample(metricsLine("patch")) };
  };

  it("patches the index for the photos they name instead of reading every photo again", async () => {
    const { client: watcher } = await signedInAs("viewer");
    const box = `${SPOT.longitude - 1},${SPOT.latitude - 1},${SPOT.longitude + 1},${SPOT.latitude + 1}`;
    expect(await markersAs(watcher, box, 16)).toEqual([]);
    const before = await scrapeMapWork();

    // Uploaded (the row), processed (its phases; the file's keywords become tags), placed by hand
    // (the worker's place lookup), put in an album: each change names its photo, or none at all.
    const bytes = await jpegWithEmbeddedText(31, { xmp: { keywords: [`map patch ${RUN}`] } });
    const uploaded = await uploadFiles(owner, [{ bytes, name: "map-patch.jpg" }]);
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const [{ id }] = ((await uploaded.json()) as { photos: Array<{ id: string }> }).photos;
    expect((await waitForProcessing(owner, id)).status).toBe("ready");
    const edited = await owner.request(`/api/photos/${id}`, { method: "PATCH", body: { json: { visibility: "public", showLocation: true, locationPrecision: "exact", location: SPOT } } });
    expect(edited.status, await edited.clone().text()).toBe(200);
    const album = await owner.request("/api/albums", { body: { json: { title: `Map patch ${RUN}`, visibility: "public" } } });
    expect(album.status, await album.clone().text()).toBe(201);
    const { album: created } = (await album.json()) as { album: { id: string } };
    const added = await owner.request(`/api/albums/${created.id}/photos`, { body: { json: { photoIds: [id] } } });
    expect(added.status, await added.clone().text()).toBe(200);

    expect((await markersAs(watcher, box, 16)).map((marker) => marker.id)).toEqual([id]);
    const after = await scrapeMapWork();
    expect(after.patch).toBeGreaterThan(before.patch);
    expect(after.changes, "a full build after a change that named no photos").toBe(before.changes);
  });
});

describe("GET /api/map/countries/{version}", () => {
  it("answers the coarse outlines and, for zooming in, the finer ones, each cached for good; another version is a 404", async () => {
    const [coarse, fine] = await Promise.all(["110m-2.0.2", "50m-2.0.2"].map((version) => visitor.request(`/api/map/countries/${version}`)));
    const texts: string[] = [];
    for (const response of [coarse, fine]) {
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/geo+json");
      expect(response.headers.get("cache-control")).toContain("immutable");
      const text = await response.text();
      const shapes = JSON.parse(text) as { type: string; features: Array<{ properties: { name: string } }> };
      expect(shapes.type).toBe("FeatureCollection");
      expect(shapes.features.map((country) => country.properties.name)).toContain("Norway");
      // Kept to 4 decimals (about 11 m): no coordinate carries more.
      expect(text).not.toMatch(/\d\.\d{5,}/);
      texts.push(text);
    }
    // The 1:50m coastlines have many times the points of the 1:110m ones.
    const points = (text: string) => text.split("],[").length;
    expect(points(texts[1])).toBeGreaterThan(5 * points(texts[0]));
    expect((await visitor.request("/api/map/countries/10m-2.0.2")).status).toBe(404);
  });
});
