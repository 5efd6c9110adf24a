// npm run bench:albums – do albums keep their speed at size, and does the admin's library list?
// Seeds 1,000 and 100,000 photos (bench:scale's seeding) into SQLite, and into PostgreSQL when
// DATABASE_URL is set; in the 100,000 library an album of 10,000 photos and one of 100 (rows written
// straight through the albums repository); starts the built app on both and measures, interleaved,
// with ratios against a baseline measured in the same run (never an absolute pass/fail):
//   1. the first page of GET /api/albums/{id}/photos, and GET /api/albums/{id} (count and cover): the
//      10,000-photo album against the 100-photo one;
//   2. moving one photo in the 10,000-photo album (PATCH …/photos): the rows it writes, counted in the
//      table, and its time against a single-row update through the same stack (PATCH /api/photos/{id});
//   3. GET /api/photos as an admin, first page and page 200, at 100,000 photos against 1,000, with
//      the database's own plan for the query (EXPLAIN QUERY PLAN; EXPLAIN ANALYZE on PostgreSQL).
// Needs `npx next build` first.   BENCH_ALBUMS_ROUNDS=3  BENCH_ALBUMS_SECONDS=3  BENCH_ALBUMS_MOVES=100
import fs from "node:fs";
import path from "node:path";
import { generateNKeysBetween } from "fractional-indexing";
import { sql } from "kysely";
import { insertAlbum, insertAlbumPhotos, listAlbumPhotoPage } from "@/src/albums/albums.repository";
import type { PhotoListAccess } from "@/src/photos/listable-photos";
import { listPhotos } from "@/src/photos/photos.repository";
import { explainQueries, openSeededDatabase } from "./bench-explain";
import { median, runBenchmark } from "./bench-app";
import { type ScaleApp, signIn, startScaleApp } from "./scale-app";
import { type LoadFigures, type LoadRequest, runLoad } from "./scale-load";
import { encodeCursor } from "./scale-paths";
import { processSamplePhoto, type SamplePhoto } from "./scale-sample";
import { type DatabaseKind, type SeededDatabase, seedFreshDatabase } from "./scale-seed";

const ROUNDS = Number(process.env.BENCH_ALBUMS_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_ALBUMS_SECONDS ?? 3);
const MOVES = Number(process.env.BENCH_ALBUMS_MOVES ?? 100);
const [SMALL, LARGE] = [1_000, 100_000];
const [SMALL_ALBUM, LARGE_ALBUM] = [100, 10_000];
/** Page 200 of GET /api/photos at ?limit=5 is the last page of the 1,000 library and 1% into 100,000. */
const DEEP_PAGE = 200;
const DEEP_LIMIT = 5;


/** Two public albums of the admin's: LARGE_ALBUM and SMALL_ALBUM of the newest photos, in manual order. */
async function seedAlbums(seeded: SeededDatabase): Promise<{ large: string; small: string }> {
  const db = openSeededDatabase(seeded);
  try {
    const now = new Date().toISOString();
    const ids = { large: "", small: "" };
    for (const [name, size] of [["large", LARGE_ALBUM], ["small", SMALL_ALBUM]] as const) {
      const id = `bench-album-${name}`;
      await insertAlbum(db, { id, owner_id: seeded.users.admin.id, slug: id, title: `Bench ${size}`, visibility: "public", parent_id: null, cover_photo_id: null, created_at: now, updated_at: now });
      const photos = seeded.photos.slice(0, size);
      const keys = generateNKeysBetween(null, null, size);
      for (let start = 0; start < size; start += 1000) {
        await insertAlbumPhotos(
          db,
          photos.slice(start, start + 1000).map((photo, offset) => ({
            album_id: id, photo_id: photo.id, order_key: keys[start + offset], photo_sort_at: photo.sortAt, photo_created_at: photo.sortAt, added_at: now,
          })),
        );
      }
      ids[name] = id;
    }
    // What autovacuum does soon after a bulk insert, and bench:scale's seeding does for photos: without
    // statistics PostgreSQL guesses 26 rows for an album and sorts all 10,000 instead of walking
    // (album_id, order_key) under the LIMIT.
    if (seeded.kind === "postgres") await sql`ANALYZE album_photos`.execute(db);
    return ids;
  } finally {
    await db.destroy();
  }
}

const get = (pathname: string, cookie: string): LoadRequest => ({ method: "GET", path: pathname, headers: { Cookie: cookie } });

/** Warm-up, then ROUNDS alternating runs of both requests; medians. Latency ratio = baseline req/s ÷ measured req/s. */
async function compare(name: string, baseline: { app: ScaleApp; request: LoadRequest }, measured: { app: ScaleApp; request: LoadRequest }, target: number) {
  for (const side of [baseline, measured]) {
    const answer = await fetch(new URL(side.request.path, side.app.url), { headers: side.request.headers });
    if (answer.status !== 200) throw new Error(`${name}: ${side.request.path} answered ${answer.status} ${await answer.text()}`);
    await runLoad(side.app.url, side.request, 1);
  }
  const runs: [LoadFigures[], LoadFigures[]] = [[], []];
  for (let round = 0; round < ROUNDS; round += 1) {
    runs[0].push(await runLoad(baseline.app.url, baseline.request, SECONDS));
    runs[1].push(await runLoad(measured.app.url, measured.request, SECONDS));
  }
  const failures = runs.flat().flatMap((run) => run.failures);
  const rps = runs.map((side) => median(side.map((run) => run.requestsPerSecond))) as [number, number];
  const p99 = runs.map((side) => median(side.map((run) => run.p99Ms))) as [number, number];
  const ratio = rps[0] / rps[1];
  const row = `| ${name.padEnd(52)} | ${rps[0].toFixed(0).padStart(6)} | ${rps[1].toFixed(0).padStart(6)} | ${p99[0].toFixed(0).padStart(4)} / ${p99[1].toFixed(0).padStart(4)} | ${ratio.toFixed(2)}x | ${ratio <= target ? "met" : "NOT met"} (≤ ${target}x) |`;
  console.log(row);
  for (const failure of failures) console.log(`  !!! ${name}: ${failure}`);
  return row;
}

/** Median time of `count` requests one at a time, in ms. */
async function timeOneAtATime(app: ScaleApp, count: number, request: (index: number) => { path: string; method: string; body: string; cookie: string }): Promise<number> {
  const times: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const { path: pathname, method, body, cookie } = request(index);
    const startedAt = performance.now();
    const answer = await fetch(new URL(pathname, app.url), { method, body, headers: { Cookie: cookie, Origin: app.url, "Content-Type": "application/json" } });
    await answer.arrayBuffer();
    times.push(performance.now() - startedAt);
    if (answer.status >= 300) throw new Error(`${method} ${pathname} answered ${answer.status}`);
  }
  return median(times);
}

async function orderKeys(seeded: SeededDatabase, albumId: string): Promise<Map<string, string>> {
  const db = openSeededDatabase(seeded);
  try {
    const rows = await db.selectFrom("album_photos").select(["photo_id", "order_key"]).where("album_id", "=", albumId).execute();
    return new Map(rows.map((row) => [row.photo_id, row.order_key]));
  } finally {
    await db.destroy();
  }
}

/** The queries GET /api/photos sends for an admin (listPhotos with every visibility), each with the database's plan and its time. */
function explainAdminList(seeded: SeededDatabase, after?: { sortAt: string; id: string }, limit = 31): Promise<string[]> {
  return explainQueries(seeded, (db) =>
    listPhotos(db, { access: { visibilities: ["public", "unlisted", "members", "private"], viewerId: seeded.users.admin.id, ownPhotos: "any-state" }, after, limit }),
  );
}

/** The query of an album page's first 61 photos, for this reader. */
function explainAlbumPage(seeded: SeededDatabase, albumId: string, access: PhotoListAccess): Promise<string[]> {
  return explainQueries(seeded, (db) => listAlbumPhotoPage(db, { albumId, sort: "manual", access, limit: 61 }));
}


async function benchDatabase(kind: DatabaseKind, sample: SamplePhoto): Promise<string[]> {
  const name = kind === "sqlite" ? "SQLite" : "PostgreSQL";
  console.log(`\n== ${name} ==`);
  const seeds: SeededDatabase[] = [];
  for (const size of [SMALL, LARGE]) {
    const seeded = await seedFreshDatabase({ label: "albums", kind, size, sample });
    console.log(`seeded ${size.toLocaleString("en")} photos in ${seeded.seedSeconds.toFixed(1)} s`);
    seeds.push(seeded);
  }
  const [small, large] = seeds as [SeededDatabase, SeededDatabase];
  const albums = await seedAlbums(large);
  const apps = (await Promise.all(seeds.map((seeded) => startScaleApp(seeded)))) as [ScaleApp, ScaleApp];
  const report: string[] = [`${name}: medians of ${ROUNDS} rounds of ${SECONDS} s, 10 connections; latency ratio = baseline req/s ÷ measured req/s`, ""];
  try {
    const [smallAdmin, largeAdmin, largeMember] = await Promise.all([signIn(apps[0], small.users.admin), signIn(apps[1], large.users.admin), signIn(apps[1], large.users.member)]);
    report.push("| measured (baseline → measured) | base req/s | req/s | p99 ms | ratio | target |", "| --- | ---: | ---: | ---: | ---: | --- |");
    // 1. An album's first page does not grow with the album.
    report.push(await compare("album first page, admin: 100 → 10,000 photos", { app: apps[1], request: get(`/api/albums/${albums.small}/photos`, largeAdmin) }, { app: apps[1], request: get(`/api/albums/${albums.large}/photos`, largeAdmin) }, 1.2));
    report.push(await compare("album first page, member: 100 → 10,000 photos", { app: apps[1], request: get(`/api/albums/${albums.small}/photos`, largeMember) }, { app: apps[1], request: get(`/api/albums/${albums.large}/photos`, largeMember) }, 1.2));
    // The album itself (its count and cover for this reader), which an album page shows above its photos.
    report.push(await compare("album summary (count, cover), member: 100 → 10,000", { app: apps[1], request: get(`/api/albums/${albums.small}`, largeMember) }, { app: apps[1], request: get(`/api/albums/${albums.large}`, largeMember) }, 1.2));
    // 3. The admin's library list does not grow with the library.
    report.push(await compare("GET /api/photos admin, first page: 1k → 100k", { app: apps[0], request: get("/api/photos", smallAdmin) }, { app: apps[1], request: get("/api/photos", largeAdmin) }, 1.3));
    const deep = (seeded: SeededDatabase) => `/api/photos?limit=${DEEP_LIMIT}&cursor=${encodeCursor(seeded.photos[(DEEP_PAGE - 1) * DEEP_LIMIT - 1])}`;
    report.push(await compare(`GET /api/photos admin, page ${DEEP_PAGE} (limit ${DEEP_LIMIT}): 1k → 100k`, { app: apps[0], request: get(deep(small), smallAdmin) }, { app: apps[1], request: get(deep(large), largeAdmin) }, 1.3));

    // 2. Moving one photo in the 10,000-photo album: rows written, and time against a one-row update.
    const photos = large.photos.slice(0, LARGE_ALBUM);
    const before = await orderKeys(large, albums.large);
    const moved = photos[5000].id;
    const moveOnce = await fetch(new URL(`/api/albums/${albums.large}/photos`, apps[1].url), {
      method: "PATCH",
      headers: { Cookie: largeAdmin, Origin: apps[1].url, "Content-Type": "application/json" },
      body: JSON.stringify({ photoId: moved, after: photos[10].id }),
    });
    if (moveOnce.status !== 204) throw new Error(`The move answered ${moveOnce.status}`);
    const after = await orderKeys(large, albums.large);
    const changed = [...after].filter(([id, key]) => before.get(id) !== key).length;
    const moveMs = await timeOneAtATime(apps[1], MOVES, (index) => ({
      path: `/api/albums/${albums.large}/photos`,
      method: "PATCH",
      body: JSON.stringify(index % 2 === 0 ? { photoId: photos[(index * 97) % LARGE_ALBUM].id, after: photos[(index * 31 + 7) % LARGE_ALBUM].id } : { photoId: photos[(index * 89) % LARGE_ALBUM].id, position: (index * 53) % LARGE_ALBUM }),
      cookie: largeAdmin,
    }));
    const updateMs = await timeOneAtATime(apps[1], MOVES, (index) => ({ path: `/api/photos/${photos[index % 50].id}`, method: "PATCH", body: JSON.stringify({ title: `Bench ${index}` }), cookie: largeAdmin }));
    report.push(
      "",
      `Moving one photo in the 10,000-photo album: ${changed} album_photos row${changed === 1 ? "" : "s"} written (+ its 1 audit row);`,
      `  PATCH /api/albums/{id}/photos median ${moveMs.toFixed(1)} ms against PATCH /api/photos/{id} (one-row update) ${updateMs.toFixed(1)} ms: ${(moveMs / updateMs).toFixed(2)}x (${MOVES} of each, one at a time)`,
      "",
      `The admin's GET /api/photos query at ${LARGE.toLocaleString("en")} photos, first page and page ${DEEP_PAGE}:`,
      ...(await explainAdminList(large)),
      ...(await explainAdminList(large, { sortAt: large.photos[(DEEP_PAGE - 1) * DEEP_LIMIT - 1].sortAt, id: large.photos[(DEEP_PAGE - 1) * DEEP_LIMIT - 1].id }, DEEP_LIMIT + 1)),
      `and at ${SMALL.toLocaleString("en")}:`,
      ...(await explainAdminList(small)),
      "",
      "An album page's first photos (10,000-photo album at 100,000 photos), as an admin and as a member:",
      ...(await explainAlbumPage(large, albums.large, { visibilities: ["public", "unlisted", "members", "private"], viewerId: large.users.admin.id, ownPhotos: "any-state" })),
      ...(await explainAlbumPage(large, albums.large, { visibilities: ["public", "members"], viewerId: large.users.member.id, ownPhotos: "any-state" })),
    );
    console.log(report.join("\n"));
    return report;
  } finally {
    await Promise.all(apps.map((app) => app.stop()));
    for (const seeded of seeds) fs.rmSync(seeded.dataDirectory, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.resolve(import.meta.dirname, "../../.next/BUILD_ID"))) throw new Error("No build found: run `npx next build` first.");
  const startedAt = performance.now();
  const sample = await processSamplePhoto();
  const kinds: DatabaseKind[] = process.env.DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];
  if (!process.env.DATABASE_URL) console.log("DATABASE_URL is not set: SQLite only.");
  const reports: string[] = [];
  for (const kind of kinds) reports.push("", ...(await benchDatabase(kind, sample)));
  console.log(reports.join("\n"));
  console.log(`\nwhole run: ${((performance.now() - startedAt) / 60_000).toFixed(1)} min`);
}

runBenchmark(main);
