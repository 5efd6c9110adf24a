import fs from "node:fs";
import path from "node:path";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Database } from "@/src/db/database";
import { parseMediaPath } from "@/src/photos/photo-publication";
import { createStorage } from "@/src/storage/create-storage";
import { type AppInstances, killScriptWithSigkill, startAppInstances } from "./helpers/app-instances";
import { insertPhotoRows } from "./helpers/direct-rows";
import { jpegWithEmbeddedText } from "./helpers/embedded-metadata-jpeg";
import { listStoredKeys, type PhotoDetailBody, uploadCorpusFile, uploadFiles, waitForProcessing } from "./helpers/photos";
import { enterShareLink } from "./helpers/share-entry";
import { TestClient } from "./helpers/test-client";
import { openTestDatabase } from "./helpers/test-database";
import { TEST_ADMIN, TEST_METRICS_TOKEN, TEST_SECRET } from "./setup/global-setup";

// Issue 33, "several instances": two app processes (A and B, RUN_WORKER=false) and a separate
// `npm run worker`, all on one database and one store, as the product says it scales out. On
// PostgreSQL the store is S3 (CI); on SQLite the three processes share one file in WAL mode and the
// local disk, and every case here applies there too.
//
// Started once for the file, at once (a deploy starts them together); after the first case, the
// others run side by side, so the file costs about one boot, one lease and two photos' processing.

const databaseKind = inject("databaseKind");
/** Short, so the killed worker's job is claimed again within seconds (the live worker renews it every second). */
const LEASE_SECONDS = 2;
/** How long another instance may keep a setting (src/settings/site-settings.service.ts, CACHE_TTL_MS). */
const SETTINGS_CACHE_MS = 5_000;
/** What the page requests themselves may take on a busy CI machine, on top of that. */
const REQUEST_SLACK_MS = 3_000;
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** A small real photo for the cases that only need one. */
const SMALL_PHOTO = "exif-samples/jpg/Canon_40D.jpg";
/** How often an instance reads the log of photos changed for the map (src/map/map-clusters.service.ts, FOLLOW_EVERY_MS). */
const MAP_FOLLOW_MS = 5_000;
/** A real 3-megapixel photo: its larger sizes (JPEG, WebP, AVIF) keep the worker busy long enough to kill it in the middle. */
const SLOW_PHOTO = "exif-samples/jpg/hdr/canon_hdr_NO.jpg";

let instances: AppInstances;
let db: Kysely<Database>;
let startedAt: number;
/** The admin on A, and the same browser (its session cookie) on B. */
let adminOnA: TestClient;
let adminOnB: TestClient;
let photo: PhotoDetailBody;

beforeAll(async () => {
  startedAt = Date.now();
  instances = await startAppInstances(databaseKind, {
    appCount: 2,
    env: {
      NEXTAUTH_SECRET: TEST_SECRET,
      ADMIN_EMAIL: TEST_ADMIN.email,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      ADMIN_NAME: TEST_ADMIN.name,
      TRUST_PROXY: "true",
      JOB_LEASE_SECONDS: String(LEASE_SECONDS),
      // One job at a time: the worker holds exactly the job it is killed in.
      WORKER_CONCURRENCY: "1",
      LOG_LEVEL: "error",
      // B's /metrics tells whether the map followed A's changes by patches or by full builds.
      METRICS_TOKEN: TEST_METRICS_TOKEN,
    },
  });
  await instances.waitUntilReady();
  db = openTestDatabase({ dataDirectory: instances.dataDirectory, databaseUrl: instances.databaseUrl || undefined });
  const [a, b] = instances.apps;
  adminOnA = new TestClient(a.url);
  const signIn = await adminOnA.signIn(TEST_ADMIN.email, TEST_ADMIN.password);
  if (!adminOnA.sessionToken) throw new Error(`Admin sign-in failed: ${signIn.status} ${await signIn.text()}`);
  adminOnB = sameBrowserOn(adminOnA, b.url);
}, 90_000);

afterAll(async () => {
  await db?.destroy();
  await instances?.stop();
});

/** The same browser (its cookies) talking to another instance, as behind a load balancer. */
function sameBrowserOn(client: TestClient, url: string): TestClient {
  const other = new TestClient(url, client.address);
  for (const [name, value] of client.cookies) other.cookies.set(name, value);
  return other;
}

function appUrl(index: number): string {
  return instances.apps[index].url;
}

async function photoDetail(client: TestClient, id: string): Promise<PhotoDetailBody> {
  const response = await client.request(`/api/photos/${id}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { photo: PhotoDetailBody }).photo;
}

async function setVisibility(client: TestClient, id: string, visibility: "public" | "private"): Promise<void> {
  const response = await client.request(`/api/photos/${id}`, { method: "PATCH", body: { json: { visibility } } });
  expect(response.status, await response.clone().text()).toBe(200);
}

async function pollUntil<T>(what: string, read: () => Promise<T>, isDone: (value: T) => boolean, timeoutMs: number, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (isDone(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

describe("two app instances and a separate worker on one database and one store", () => {
  it("an upload on A is processed by the worker and is visible on B, in its lists and its media", async () => {
    const uploaded = await uploadCorpusFile(adminOnA, SMALL_PHOTO);
    photo = await waitForProcessing(adminOnB, uploaded.id, 30_000);
    expect(photo.status).toBe("ready");
    expect(photo.variants.length).toBeGreaterThan(0);

    const list = await adminOnB.request("/api/photos");
    expect(list.status).toBe(200);
    expect(((await list.json()) as { photos: Array<{ id: string }> }).photos.map((listed) => listed.id)).toContain(uploaded.id);
    const variant = await adminOnB.request(photo.variants[0].url);
    expect(variant.status).toBe(200);
    expect(variant.headers.get("content-type")).toMatch(/^image\//);

    // Neither app runs a worker: the separate one did the work, once (the row is marked done just after the photo turns ready).
    const processJob = () => db.selectFrom("jobs").select(["kind", "status", "attempts"]).where("photo_id", "=", uploaded.id).where("kind", "=", "photo.process").execute();
    const jobs = await pollUntil("the processing job done", processJob, (rows) => rows.some((row) => row.status === "done"), 10_000);
    expect(jobs).toEqual([{ kind: "photo.process", status: "done", attempts: 1 }]);
  }, 45_000);

  describe.concurrent("then, side by side", () => {
    it("a photo made private on A is refused by B on the next request, also when B held it in its hot media cache", async ({ expect }) => {
      await setVisibility(adminOnA, photo.id, "public");
      const publicUrl = (await photoDetail(adminOnA, photo.id)).variants.find((variant) => variant.format === "jpeg")?.url ?? "";
      const storageKey = parseMediaPath(publicUrl.slice("/media/".length))?.storageKey ?? "";
      expect(storageKey).not.toBe("");
      const visitorOnB = new TestClient(appUrl(1));
      // The route offers it to B's hot cache; then the stored file goes, so only that cache can answer.
      expect((await visitorOnB.request(publicUrl)).status).toBe(200);
      const storage = createStorage(instances.storageConfig);
      const bytes = Buffer.from(await (await visitorOnB.request(publicUrl)).arrayBuffer());
      await storage.delete(storageKey);
      try {
        const fromMemory = await visitorOnB.request(publicUrl);
        expect(fromMemory.status, "B answers the variant from its hot cache").toBe(200);
        expect(Buffer.from(await fromMemory.arrayBuffer()).equals(bytes)).toBe(true);

        await setVisibility(adminOnA, photo.id, "private");
        expect((await visitorOnB.request(publicUrl)).status).toBe(404);
        expect((await new TestClient(appUrl(0)).request(publicUrl)).status).toBe(404);
      } finally {
        await storage.putBytes(storageKey, bytes, { contentType: "image/jpeg" });
      }
    }, 30_000);

    it("a share link revoked on A is refused by B on the next request: its page, its API and its media", async ({ expect }) => {
      const created = await adminOnA.request("/api/shares", { body: { json: { photoIds: [photo.id] } } });
      expect(created.status, await created.clone().text()).toBe(201);
      const { share } = (await created.json()) as { share: { id: string; url: string } };
      const key = new URL(share.url).pathname.split("/").at(-1) ?? "";

      const visitorOnB = new TestClient(appUrl(1));
      expect((await enterShareLink(visitorOnB, key)).status).toBe(303);
      expect((await visitorOnB.request(`/s/${key}`)).status).toBe(200);
      const photos = await visitorOnB.request(`/s/${key}/api/photos`);
      expect(photos.status).toBe(200);
      const mediaUrl = ((await photos.json()) as { photos: Array<{ variants: Array<{ url: string }> }> }).photos[0].variants[0].url;
      expect((await visitorOnB.request(mediaUrl)).status).toBe(200);

      const revoked = await adminOnA.request(`/api/shares/${share.id}`, { method: "PATCH", body: { json: { revoked: true } } });
      expect(revoked.status, await revoked.clone().text()).toBe(200);
      expect((await visitorOnB.request(`/s/${key}`)).status).toBe(401);
      expect((await visitorOnB.request(`/s/${key}/api/photos`)).status).toBe(401);
      expect((await visitorOnB.request(mediaUrl)).status).toBe(401);
    }, 30_000);

    it(`a setting changed on A shows on B within the ${SETTINGS_CACHE_MS / 1000} s another instance may keep it`, async ({ expect }) => {
      const title = `Shared title ${Date.now()}`;
      const pageTitleOnB = async () => /<title>([^<]*)<\/title>/.exec(await (await adminOnB.request("/")).text())?.[1] ?? "";
      expect(await pageTitleOnB()).not.toContain(title);
      const changed = await adminOnA.request("/api/admin/settings", { method: "PATCH", body: { json: { siteTitle: title } } });
      expect(changed.status, await changed.clone().text()).toBe(200);
      const changedAt = Date.now();
      await pollUntil("the new title on B", pageTitleOnB, (pageTitle) => pageTitle.includes(title), SETTINGS_CACHE_MS + REQUEST_SLACK_MS, 200);
      expect(Date.now() - changedAt).toBeLessThanOrEqual(SETTINGS_CACHE_MS + REQUEST_SLACK_MS);
    }, 30_000);

    it(`another instance's upload, edit, place, visibility, trash and deletion show on B's map within ${MAP_FOLLOW_MS / 1000} s, patched without a full build`, async ({ expect }) => {
      // An empty corner of the Southern Ocean; photos a kilometre apart, so each is its own marker close up and all one group from afar.
      const spot = { latitude: -66.5, longitude: -120.5 };
      const far = { latitude: -60.5, longitude: -100.5 };
      const near = `${spot.longitude - 0.5},${spot.latitude - 0.5},${spot.longitude + 0.5},${spot.latitude + 0.5}`;
      const farBox = `${far.longitude - 0.5},${far.latitude - 0.5},${far.longitude + 0.5},${far.latitude + 0.5}`;
      const { id: adminId } = await db.selectFrom("users").select("id").where("email", "=", TEST_ADMIN.email).executeTakeFirstOrThrow();
      const names = ["moved", "renamed", "madePrivate", "trashed", "deleted", "bySql"] as const;
      const ids = Object.fromEntries(names.map((name) => [name, `map-follow-${name}`])) as Record<(typeof names)[number], string>;
      await insertPhotoRows(
        db,
        names.map((name, index) => ({
          id: ids[name],
          owner_id: adminId,
          sort_at: "2024-01-01T00:00:00.000Z",
          visibility: "public" as const,
          show_location: 1,
          location_precision: "exact" as const,
          gps_latitude: spot.latitude + index * 0.01,
          gps_longitude: spot.longitude,
        })),
      );
      const visitorOnB = new TestClient(appUrl(1));
      type Marker = { kind: "cluster" | "photo"; id: string | number; latitude: number; count?: number; placeName: string | null };
      const markersOnB = async (bbox: string, zoom: number) => {
        const response = await visitorOnB.request(`/api/map/clusters?bbox=${encodeURIComponent(bbox)}&zoom=${zoom}`);
        expect(response.status, await response.clone().text()).toBe(200);
        return ((await response.json()) as { markers: Marker[] }).markers;
      };
      /** How many photos B's index counts in the box from afar (a group's count comes from the index alone), and the single photos close up. */
      const mapOnB = async () => {
        const fromAfar = await markersOnB(near, 3);
        const closeUp = await markersOnB(near, 16);
        const farAway = await markersOnB(farBox, 16);
        return {
          counted: fromAfar.reduce((sum, marker) => sum + (marker.kind === "cluster" ? (marker.count ?? 0) : 1), 0),
          near: Object.fromEntries(closeUp.filter((marker) => marker.kind === "photo").map((marker) => [marker.id, { latitude: marker.latitude, placeName: marker.placeName }])),
          far: farAway.filter((marker) => marker.kind === "photo").map((marker) => marker.id),
        };
      };
      const mapWorkOnB = async () => {
        const response = await fetch(`${appUrl(1)}/metrics`, { headers: { Authorization: `Bearer ${TEST_METRICS_TOKEN}` } });
        expect(response.status).toBe(200);
        const text = await response.text();
        const count = (work: string) => {
          const line = `contact_sheet_map_index_seconds_count{work="${work}"}`;
          return Number(text.split("\n").find((candidate) => candidate.startsWith(`${line} `))?.slice(line.length + 1) ?? 0);
        };
        return { builds: count("first") + count("changes") + count("refresh"), follows: count("follow") };
      };
      expect((await mapOnB()).counted).toBe(names.length);
      const before = await mapWorkOnB();

      // On A: an upload placed by hand, a move, a place named, a photo made private, one trashed, one deleted; and a write no instance announces.
      const uploaded = await uploadFiles(adminOnA, [{ bytes: await jpegWithEmbeddedText(131, {}), name: "map-follow.jpg" }]);
      expect(uploaded.status, await uploaded.clone().text()).toBe(201);
      const [{ id: uploadedId }] = ((await uploaded.json()) as { photos: Array<{ id: string }> }).photos;
      await waitForProcessing(adminOnA, uploadedId, 30_000);
      const edit = async (id: string, json: Record<string, unknown>) => {
        const response = await adminOnA.request(`/api/photos/${id}`, { method: "PATCH", body: { json } });
        expect(response.status, await response.clone().text()).toBe(200);
      };
      await edit(uploadedId, { visibility: "public", showLocation: true, locationPrecision: "exact", location: { latitude: spot.latitude + 0.1, longitude: spot.longitude } });
      await edit(ids.moved, { location: far });
      await edit(ids.renamed, { place: { city: "Follow Harbour", region: null, countryCode: null } });
      await edit(ids.madePrivate, { visibility: "private" });
      const trashed = await adminOnA.request("/api/photos", { method: "PATCH", body: { json: { photoIds: [ids.trashed], action: "trash" } } });
      expect(trashed.status, await trashed.clone().text()).toBe(200);
      expect((await adminOnA.request(`/api/photos/${ids.deleted}`, { method: "DELETE" })).status).toBe(204);
      await db.updateTable("photos").set({ gps_latitude: spot.latitude - 0.1 }).where("id", "=", ids.bySql).execute();
      const changedAt = Date.now();

      const expected = {
        counted: 3,
        near: {
          [uploadedId]: { latitude: spot.latitude + 0.1 },
          [ids.renamed]: { latitude: spot.latitude + 0.01, placeName: "Follow Harbour" },
          // No place name asserted: the worker's daily place backfill (its first run 5 s after start)
          // may name these rows "Antarctica" while the test runs, and B follows that write too.
          [ids.bySql]: { latitude: spot.latitude - 0.1 },
        },
        far: [ids.moved],
      };
      const matches = (map: Awaited<ReturnType<typeof mapOnB>>) => {
        try {
          expect(map).toMatchObject(expected);
          return Object.keys(map.near).length === 3;
        } catch {
          return false;
        }
      };
      await pollUntil("A's changes on B's map", mapOnB, matches, MAP_FOLLOW_MS + REQUEST_SLACK_MS, 250);
      expect(Date.now() - changedAt).toBeLessThanOrEqual(MAP_FOLLOW_MS + REQUEST_SLACK_MS);
      const after = await mapWorkOnB();
      expect(after.builds, "full builds of B's map index after A's changes").toBe(before.builds);
      expect(after.follows).toBeGreaterThan(before.follows);
    }, 60_000);

    it("each recurring job's run is queued once per period across the three processes and run once", async ({ expect }) => {
      // Every process looks 5 s after it started (src/jobs/recurring-jobs.ts); the worker runs what they queue.
      const periods = { "trash.purge": HOUR_MS, "share.hash-addresses": DAY_MS, "audit.purge": DAY_MS, "backup.scheduled": DAY_MS, "storage.sweep-orphans": DAY_MS };
      const kinds = Object.keys(periods);
      const recurring = () => db.selectFrom("jobs").select(["id", "kind", "status", "attempts"]).where("photo_id", "is", null).where("kind", "in", kinds).orderBy("id").execute();
      const rows = await pollUntil("every recurring job's run done", recurring, (found) => kinds.every((kind) => found.some((row) => row.kind === kind && row.status === "done")), 30_000, 250);
      const checkedAt = Date.now();
      for (const [kind, everyMs] of Object.entries(periods)) {
        // One run per period that began while the processes ran (two only across a boundary).
        const periodStarts = new Set([startedAt, checkedAt].map((at) => new Date(Math.floor(at / everyMs) * everyMs).toISOString()));
        const ofKind = rows.filter((row) => row.kind === kind);
        expect(ofKind.length, `${kind}: ${JSON.stringify(ofKind)}`).toBeGreaterThanOrEqual(1);
        for (const row of ofKind) {
          expect(periodStarts.has(row.id.slice(kind.length + 1)), `${row.id} is one of ${[...periodStarts].join(", ")}`).toBe(true);
          expect(row).toMatchObject({ status: "done", attempts: 1 });
        }
        expect(ofKind.length).toBeLessThanOrEqual(periodStarts.size);
      }
    }, 40_000);

    it("a worker SIGKILLed in the middle of a job has it run again by another worker after the lease, leaving no half-written files", async ({ expect }) => {
      const [firstWorker] = instances.workers;
      const uploaded = await uploadCorpusFile(adminOnA, SLOW_PHOTO);
      // The larger sizes are the long phase; on S3 the worker also holds a copy of the original meanwhile.
      const finishJob = () => db.selectFrom("jobs").select(["id", "status", "attempts"]).where("photo_id", "=", uploaded.id).where("kind", "=", "photo.finish").executeTakeFirst();
      const running = await pollUntil("the photo's finishing job running", finishJob, (job) => job?.status === "running", 30_000, 20);
      if (instances.storageConfig.kind === "s3") await pollUntil("the worker's copy of the original", async () => temporaryFiles().length, (count) => count > 0, 10_000, 20);
      await killScriptWithSigkill(firstWorker);
      expect(await finishJob()).toMatchObject({ id: running?.id, status: "running", attempts: 1 });

      const killedAt = Date.now();
      instances.startWorker();
      await pollUntil("the job claimed again", finishJob, (job) => job?.attempts === 2, 60_000, 100);
      const done = await pollUntil("the job run again", finishJob, (job) => job?.status === "done", 60_000, 200);
      expect(done).toMatchObject({ attempts: 2 });
      // Not before the lease ran out: the killed worker last renewed it at most a third of a lease before it died.
      expect(Date.now() - killedAt).toBeGreaterThanOrEqual(((LEASE_SECONDS * 2) / 3) * 1000);
      const processed = await photoDetail(adminOnB, uploaded.id);
      expect(processed.status).toBe("ready");
      expect(processed.variants.some((variant) => variant.format === "avif")).toBe(true);

      // Every file stored for the photo is named by its rows, and every row's file is there.
      const variantRows = await db.selectFrom("photo_variants").select("storage_key").where("photo_id", "=", uploaded.id).execute();
      const photoRow = await db.selectFrom("photos").select("original_key").where("id", "=", uploaded.id).executeTakeFirstOrThrow();
      const named = [photoRow.original_key, ...variantRows.map((row) => row.storage_key)].sort();
      const stored = (await listStoredKeys(instances.storageConfig)).filter((key) => key.includes(uploaded.id));
      expect(stored).toEqual(named);
      // And nothing half-written is left where files wait before they are stored.
      expect(temporaryFiles()).toEqual([]);
    }, 90_000);
  });
});

/** Files (not folders: tus keeps its own) in the data folder's temporary area and the local store's. */
function temporaryFiles(): string[] {
  const places = [path.join(instances.dataDirectory, "tmp"), path.join(instances.dataDirectory, "media", ".tmp")];
  return places.flatMap((place) =>
    fs.existsSync(place) ? fs.readdirSync(place, { withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => path.join(place, entry.name)) : [],
  );
}
