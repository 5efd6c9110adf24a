// bench:places, part 2 – the map, `place:` and /places at 1,000 and 100,000 geotagged photos (see
// places.ts's header): seeds both sizes per database, starts the built app on each, checks every
// answer against the seed, then measures small and large in turn.
import fs from "node:fs";
import path from "node:path";
import type { PlaceGazetteer } from "@/src/places/place-gazetteer";
import { type Check, comparePhotoIds, expectText } from "./answer-checks";
import { median } from "./bench-app";
import { benchMapIndexBlocking } from "./places-index-block";
import { benchMapIndexMemory } from "./places-index-memory";
import { NEEDLE_COUNT, type PlaceFacts, type PlacesSeed, createPlacesSeed, pickBenchTowns } from "./places-seed";
import { type ScaleApp, signIn, startScaleApp } from "./scale-app";
import { CONNECTIONS, type LoadFigures, type LoadRequest, runLoad } from "./scale-load";
import { formatMs, formatRate, formatRatio, formatSize, pad, type SideFigures } from "./scale-report";
import { processSamplePhoto, type SamplePhoto } from "./scale-sample";
import { type DatabaseKind, removeSeededDatabases, type SeededDatabase, seedFreshDatabase } from "./scale-seed";

const SIZES = (process.env.BENCH_PLACES_SIZES ?? "1000,100000").split(",").map(Number);
const ROUNDS = Number(process.env.BENCH_PLACES_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_PLACES_SECONDS ?? 2);
const ONLY = new RegExp(process.env.BENCH_PLACES_ONLY ?? "");
const WARM_UP_SECONDS = 1;
/** The issue's target: at 100,000 photos a request takes at most 1.5 times as long as at 1,000. */
const TARGET = 1.5;
const COLD_SAMPLES = 3;
const PAGE_SIZE = 30;

interface BenchPath {
  name: string;
  /** What is asked, for the table. */
  what: string;
  build: (seed: PlacesSeed) => { request: LoadRequest; check: Check };
  /** Timed alone, just after the admin changed a photo's title: the first request after a change (which reads that photo again; before 2026-11-27, every photo: 2,295 ms at 100k). */
  cold?: boolean;
}

interface Row {
  name: string;
  what: string;
  sides: [SideFigures, SideFigures] | null;
  failures: string[];
  /** Only the cold row: the median time of one request on each side. */
  coldMs?: [number, number];
}

const get = (pathname: string): LoadRequest => ({ method: "GET", path: pathname, headers: {} });

const onMap = (seed: PlacesSeed) => [...seed.facts.values()].filter((facts) => facts.isVisitorsOnMap);
const newestFirst = (left: PlaceFacts, right: PlaceFacts) => (left.sortAt !== right.sortAt ? (left.sortAt < right.sortAt ? 1 : -1) : left.id < right.id ? 1 : -1);

function parse<T>(body: string): T | null {
  try {
    return JSON.parse(body) as T;
  } catch {
    return null;
  }
}

interface ClustersBody {
  markers?: Array<{ kind: string; count?: number }>;
  total?: number;
}

/** The map's answer: every photo the visitor has on it counted once in `total`, and `inView` of them in the markers. */
function expectClusters(total: number, inView: (count: number) => string | null): Check {
  return (status, body) => {
    if (status !== 200) return `answered ${status}: ${body.slice(0, 200)}`;
    const answer = parse<ClustersBody>(body);
    if (!answer?.markers) return `no markers: ${body.slice(0, 200)}`;
    if (answer.total !== total) return `total ${answer.total}, the seed says ${total}`;
    return inView(answer.markers.reduce((sum, marker) => sum + (marker.kind === "cluster" ? (marker.count ?? 0) : 1), 0));
  };
}

/** A page of GET /api/search: exactly the first PAGE_SIZE of `expected`, in order. */
function expectPhotos(expected: PlaceFacts[]): Check {
  return (status, body) => {
    if (status !== 200) return `answered ${status}: ${body.slice(0, 200)}`;
    const got = parse<{ photos?: Array<{ id: string }> }>(body)?.photos?.map((photo) => photo.id);
    if (!got) return `no photos: ${body.slice(0, 200)}`;
    const want = expected.slice(0, PAGE_SIZE).map((facts) => facts.id);
    return comparePhotoIds(got, want);
  };
}

const WORLD = "bbox=-180,-85,180,85&zoom=1";
/** A town's width around the busiest town (about 22 km), at the zoom a phone shows it. */
const townView = (seed: PlacesSeed) => {
  const { latitude, longitude } = seed.dense;
  const box = [longitude - 0.1, latitude - 0.1, longitude + 0.1, latitude + 0.1].map((value) => value.toFixed(4)).join(",");
  return `bbox=${box}&zoom=11`;
};

function listPaths(): BenchPath[] {
  const world: BenchPath["build"] = (seed) => ({
    request: get(`/api/map/clusters?${WORLD}`),
    check: expectClusters(onMap(seed).length, (count) => (count === onMap(seed).length ? null : `${count} photos in the world's markers, the seed says ${onMap(seed).length}`)),
  });
  return [
    { name: "map: the world (zoom 1)", what: WORLD, build: world },
    {
      name: "map: a town (zoom 11)",
      what: "bbox ±0.1° around the busiest town",
      build: (seed) => {
        const dense = onMap(seed).filter((facts) => facts.town === seed.dense).length;
        return {
          request: get(`/api/map/clusters?${townView(seed)}`),
          check: expectClusters(onMap(seed).length, (count) => (count === dense ? null : `${count} photos in the town's markers, the seed says ${dense}`)),
        };
      },
    },
    { name: "map: the world, just after a photo changed", what: `${WORLD}, alone`, build: world, cold: true },
    {
      name: "place: a small town (20 photos)",
      what: "place:Arezzo",
      build: (seed) => ({
        request: get(`/api/search?q=${encodeURIComponent(`place:${seed.needle.city}`)}&limit=${PAGE_SIZE}`),
        check: expectPhotos(onMap(seed).filter((facts) => facts.town === seed.needle).sort(newestFirst)),
      }),
    },
    {
      name: "place: a country (first page)",
      what: "place:<the busiest town's country code>",
      build: (seed) => ({
        request: get(`/api/search?q=${encodeURIComponent(`place:${seed.dense.countryCode}`)}&limit=${PAGE_SIZE}`),
        check: expectPhotos(onMap(seed).filter((facts) => facts.town.countryCode === seed.dense.countryCode).sort(newestFirst)),
      }),
    },
    { name: "the /places page", what: "/places", build: (seed) => ({ request: get("/places"), check: expectText([seed.needle.city ?? "", seed.dense.city ?? ""]) }) },
  ];
}

async function checkOnce(app: ScaleApp, request: LoadRequest, check: Check): Promise<string | null> {
  const response = await fetch(new URL(request.path, app.url), { headers: request.headers, redirect: "manual" });
  return check(response.status, await response.text());
}

const sideOf = (figures: LoadFigures[]): SideFigures => ({
  requestsPerSecond: median(figures.map((figure) => figure.requestsPerSecond)),
  p99Ms: median(figures.map((figure) => figure.p99Ms)),
});

interface ColdTarget {
  app: ScaleApp;
  /** The admin's session cookie. */
  cookie: string;
  photoId: string;
}

/** Changes a photo's title as its admin would (every instance's memories of photos are dropped), then times one request alone. */
async function timeAfterChange(target: ColdTarget, request: LoadRequest, sample: number): Promise<number> {
  const changed = await fetch(new URL(`/api/photos/${target.photoId}`, target.app.url), {
    method: "PATCH",
    headers: { Cookie: target.cookie, Origin: target.app.url, "Content-Type": "application/json" },
    body: JSON.stringify({ title: `Changed ${sample}` }),
  });
  if (changed.status !== 200) throw new Error(`Changing a photo answered ${changed.status}: ${(await changed.text()).slice(0, 200)}`);
  const app = target.app;
  const started = performance.now();
  const response = await fetch(new URL(request.path, app.url), { headers: request.headers });
  await response.text();
  return performance.now() - started;
}

async function measure(benchPath: BenchPath, apps: [ScaleApp, ScaleApp], seeds: [PlacesSeed, PlacesSeed], labels: [string, string], cold: [ColdTarget, ColdTarget]): Promise<Row> {
  const built = [benchPath.build(seeds[0]), benchPath.build(seeds[1])];
  const failures: string[] = [];
  for (const index of [0, 1]) {
    const problem = await checkOnce(apps[index], built[index].request, built[index].check);
    if (problem) failures.push(`${labels[index]}: ${problem}`);
  }
  const row: Row = { name: benchPath.name, what: benchPath.what, sides: null, failures };
  if (benchPath.cold) {
    const times: [number[], number[]] = [[], []];
    for (let sample = 0; sample < COLD_SAMPLES; sample += 1) {
      for (const index of [0, 1]) times[index].push(await timeAfterChange(cold[index], built[index].request, sample));
    }
    row.coldMs = [median(times[0]), median(times[1])];
    console.log(`  ${benchPath.name.padEnd(48)} ${labels[0]} ${formatMs(row.coldMs[0])}, ${labels[1]} ${formatMs(row.coldMs[1])}`);
    return row;
  }
  for (const index of [0, 1]) await runLoad(apps[index].url, built[index].request, WARM_UP_SECONDS);
  const runs: [LoadFigures[], LoadFigures[]] = [[], []];
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const index of [0, 1]) runs[index].push(await runLoad(apps[index].url, built[index].request, SECONDS));
  }
  for (const index of [0, 1]) for (const failure of new Set(runs[index].flatMap((run) => run.failures))) failures.push(`${labels[index]}: ${failure}`);
  row.sides = [sideOf(runs[0]), sideOf(runs[1])];
  console.log(`  ${benchPath.name.padEnd(48)} ${labels[0]} ${formatRate(row.sides[0].requestsPerSecond)} req/s, ${labels[1]} ${formatRate(row.sides[1].requestsPerSecond)} req/s`);
  return row;
}

/** How many times longer the large side takes. */
function slowdownOf(row: Row): number | null {
  if (row.coldMs) return row.coldMs[1] / row.coldMs[0];
  return row.sides ? row.sides[0].requestsPerSecond / row.sides[1].requestsPerSecond : null;
}

function verdict(row: Row): string {
  if (row.failures.length > 0) return "✗ ERRORS";
  const slowdown = slowdownOf(row);
  return slowdown !== null && slowdown <= TARGET ? "✓" : "✗";
}

function formatTable(title: string, labels: [string, string], rows: Row[]): string {
  const [small, large] = labels;
  const cells = [["request", "asks", `${small} req/s`, `${small} p99 (cold: time)`, `${large} req/s`, `${large} p99 (cold: time)`, `time ${large}/${small}`, "target", "verdict"]];
  for (const row of rows) {
    const slowdown = slowdownOf(row);
    const figures = row.coldMs
      ? ["", formatMs(row.coldMs[0]), "", formatMs(row.coldMs[1])]
      : row.sides
        ? [formatRate(row.sides[0].requestsPerSecond), formatMs(row.sides[0].p99Ms), formatRate(row.sides[1].requestsPerSecond), formatMs(row.sides[1].p99Ms)]
        : ["", "", "", ""];
    cells.push([row.name, row.what, ...figures, slowdown === null ? "" : Number.isFinite(slowdown) ? formatRatio(slowdown) : "∞ (none served)", `≤ ${TARGET}x`, verdict(row)]);
  }
  const lines = pad(cells);
  lines.splice(1, 0, lines[0].replace(/[^|]/g, "-"));
  return [title, ...lines].join("\n");
}

async function seedOne(kind: DatabaseKind, size: number, sample: SamplePhoto, gazetteer: PlaceGazetteer): Promise<{ seeded: SeededDatabase; seed: PlacesSeed }> {
  const seed = createPlacesSeed(size, pickBenchTowns(gazetteer));
  const seeded = await seedFreshDatabase({ label: "places", kind, size, sample, extension: seed.extension });
  const needles = [...seed.facts.values()].filter((facts) => facts.town === seed.needle).length;
  if (needles !== NEEDLE_COUNT) throw new Error(`The seed put ${needles} photos in ${seed.needle.city}, not ${NEEDLE_COUNT}`);
  return { seeded, seed };
}

async function benchDatabase(kind: DatabaseKind, sample: SamplePhoto, gazetteer: PlaceGazetteer): Promise<string> {
  const name = kind === "sqlite" ? "SQLite" : "PostgreSQL";
  const [small, large] = SIZES as [number, number];
  console.log(`\n== ${name} ==`);
  const both: Array<{ seeded: SeededDatabase; seed: PlacesSeed }> = [];
  for (const size of [small, large]) {
    const one = await seedOne(kind, size, sample, gazetteer);
    console.log(`seeded ${size.toLocaleString("en")} geotagged photos in ${one.seeded.seedSeconds.toFixed(1)} s`);
    both.push(one);
  }
  const apps = (await Promise.all(both.map(({ seeded }) => startScaleApp(seeded)))) as [ScaleApp, ScaleApp];
  const labels: [string, string] = [formatSize(small), formatSize(large)];
  const seeds: [PlacesSeed, PlacesSeed] = [both[0].seed, both[1].seed];
  const cold = (await Promise.all(
    [0, 1].map(async (index) => ({ app: apps[index], cookie: await signIn(apps[index], both[index].seeded.users.admin), photoId: (both[index].seeded.photos.find((photo) => photo.status === "ready") ?? both[index].seeded.photos[0]).id })),
  )) as [ColdTarget, ColdTarget];
  try {
    console.log(`measuring: ${CONNECTIONS} connections, ${WARM_UP_SECONDS} s warm-up, ${ROUNDS} rounds of ${SECONDS} s per side, alternating; cold rows: median of ${COLD_SAMPLES} single requests`);
    const rows: Row[] = [];
    for (const benchPath of listPaths().filter((candidate) => ONLY.test(candidate.name))) rows.push(await measure(benchPath, apps, seeds, labels, cold));
    const met = rows.filter((row) => verdict(row) === "✓").length;
    const blocking = await benchMapIndexBlocking(both[1].seeded, `${labels[1]} photos on ${name}`);
    const memory = process.env.BENCH_PLACES_VIEWERS === "0" ? [] : [await benchMapIndexMemory(both[1].seeded, `${labels[1]} photos on ${name}`)];
    return [
      "",
      formatTable(`${name}: ${labels[1]} against ${labels[0]} geotagged photos, as a visitor (medians of ${ROUNDS} rounds of ${SECONDS} s, ${CONNECTIONS} connections)`, labels, rows),
      ...rows.flatMap((row) => row.failures.map((failure) => `!!! ERROR ${row.name}: ${failure}`)),
      `${name}: ${met} of ${rows.length} rows within ${TARGET}x.`,
      blocking,
      ...memory,
    ].join("\n");
  } finally {
    await Promise.all(apps.map((app) => app.stop()));
    await removeSeededDatabases(both.map(({ seeded }) => seeded));
  }
}

/** Part 2 of bench:places; BENCH_PLACES_SIZES=0 skips it. */
export async function benchPlacesAtScale(gazetteer: PlaceGazetteer): Promise<void> {
  if (SIZES.length !== 2 || SIZES.some((size) => !(size >= NEEDLE_COUNT))) {
    console.log("\nBENCH_PLACES_SIZES is not two sizes of at least 20: the map, place: and /places are not measured.");
    return;
  }
  if (!fs.existsSync(path.resolve(import.meta.dirname, "../../.next/BUILD_ID"))) throw new Error("No build found: run `npm run build` first.");
  const sample = await processSamplePhoto();
  const kinds = (process.env.DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"]).filter((kind) => (process.env.BENCH_PLACES_DATABASES ?? "sqlite,postgres").split(",").includes(kind)) as DatabaseKind[];
  if (!process.env.DATABASE_URL) console.log("DATABASE_URL is not set: SQLite only.");
  const reports: string[] = [];
  for (const kind of kinds) reports.push(await benchDatabase(kind, sample, gazetteer));
  console.log(reports.join("\n"));
}
