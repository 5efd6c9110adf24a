// npm run bench:scale – does the app keep its speed as the library grows? Seeds 1,000 and 100,000
// photos (with their variants) through the app's own repositories into SQLite, and into PostgreSQL
// when DATABASE_URL is set, starts the built app on each, and measures every page and API a
// visitor, a member and an admin use on both sizes, interleaved, with the 100k/1k ratio and the
// longest event-loop block of one request (measured one request at a time). Needs `npx next build` first.
//
// BENCH_SCALE_SIZES=1000,100000  BENCH_SCALE_ROUNDS=3  BENCH_SCALE_SECONDS=3  (the defaults)
// BENCH_SCALE_ONLY='^/ \(visitor|media'  measures only the rows whose "path (viewer)" matches (the
// plain node:http row needs the visitor's /).
import fs from "node:fs";
import path from "node:path";
import { median, runBenchmark } from "./bench-app";
import { type ScaleApp, signIn, startScaleApp } from "./scale-app";
import { type LoadFigures, type LoadRequest, CONNECTIONS, type LoopFigures, readLoop, runLoad, startPlainServer } from "./scale-load";
import { type BenchPath, findLoadMoreActionId, hotPhoto, listBenchPaths, middlePhoto, type Sessions } from "./scale-paths";
import { type Baseline, formatTable, formatVerdict, type Row, type SideFigures } from "./scale-report";
import { processSamplePhoto, SAMPLE_PHOTO, type SamplePhoto } from "./scale-sample";
import { type DatabaseKind, dropPostgresDatabase, type SeededDatabase, seedFreshDatabase, writeVariantFiles } from "./scale-seed";

const [SMALL, LARGE] = (process.env.BENCH_SCALE_SIZES ?? "1000,100000").split(",").map(Number) as [number, number];
const ROUNDS = Number(process.env.BENCH_SCALE_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SCALE_SECONDS ?? 3);
const WARM_UP_SECONDS = 1;
const BLOCKING_SECONDS = 2;

const label = (size: number) => (size >= 1000 ? `${size / 1000}k` : String(size));

async function seedOne(kind: DatabaseKind, size: number, sample: SamplePhoto): Promise<SeededDatabase> {
  const seeded = await seedFreshDatabase({ label: "scale", kind, size, sample });
  // Real files only for the photos the benchmark requests.
  writeVariantFiles(seeded, [hotPhoto(seeded), middlePhoto(seeded)], sample);
  return seeded;
}

/** One request, once, as a check before the load: a wrong answer is reported, not measured. */
async function checkOnce(baseUrl: string, request: LoadRequest, check: (status: number, body: string) => string | null): Promise<string | null> {
  const response = await fetch(new URL(request.path, baseUrl), { method: request.method, headers: request.headers, body: request.body, redirect: "manual" });
  return check(response.status, await response.text());
}

const side = (figures: LoadFigures[]): SideFigures => ({
  requestsPerSecond: median(figures.map((figure) => figure.requestsPerSecond)),
  p99Ms: median(figures.map((figure) => figure.p99Ms)),
});

/** Warm-up on both, then ROUNDS alternating runs (small, large, small, large, …); medians of the rounds. */
async function measurePath(benchPath: BenchPath, apps: [ScaleApp, ScaleApp], seeds: [SeededDatabase, SeededDatabase], sessions: [Sessions, Sessions]): Promise<Row> {
  const built = [0, 1].map((index) => benchPath.build(seeds[index], apps[index].url, sessions[index]));
  const failures: string[] = [];
  for (const index of [0, 1]) {
    const problem = await checkOnce(apps[index].url, built[index].request, built[index].check);
    if (problem) failures.push(`${label(seeds[index].size)}: ${problem}`);
  }
  for (const index of [0, 1]) await runLoad(apps[index].url, built[index].request, WARM_UP_SECONDS);
  const runs: [LoadFigures[], LoadFigures[]] = [[], []];
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const index of [0, 1]) runs[index].push(await runLoad(apps[index].url, built[index].request, SECONDS));
  }
  // How long one request blocks the event loop: measured with one request at a time, because with
  // ten in flight the loop runs several requests' work between two ticks and the delay is their sum.
  const loop: LoopFigures[] = [];
  for (const index of [0, 1]) {
    await readLoop(apps[index].pid, apps[index].loopFile);
    const oneAtATime = await runLoad(apps[index].url, built[index].request, BLOCKING_SECONDS, 1);
    loop.push(await readLoop(apps[index].pid, apps[index].loopFile));
    for (const failure of oneAtATime.failures) failures.push(`${label(seeds[index].size)}, one at a time: ${failure}`);
  }
  for (const index of [0, 1]) {
    const seen = new Set(runs[index].flatMap((run) => run.failures));
    for (const failure of seen) failures.push(`${label(seeds[index].size)}: ${failure}`);
  }
  const loopMaxMs: [number, number] = [loop[0].maxMs, loop[1].maxMs];
  const gcMaxMs: [number, number] = [loop[0].gcMaxMs, loop[1].gcMaxMs];
  const row: Row = { name: benchPath.name, viewer: benchPath.viewer, small: side(runs[0]), large: side(runs[1]), loopMaxMs, gcMaxMs, failures };
  console.log(
    `  ${`${row.name} (${row.viewer})`.padEnd(48)} ${label(SMALL)} ${row.small.requestsPerSecond.toFixed(0)} req/s, ${label(LARGE)} ${row.large.requestsPerSecond.toFixed(0)} req/s, loop max ${loopMaxMs[0].toFixed(0)} / ${loopMaxMs[1].toFixed(0)} ms (GC ${gcMaxMs[0].toFixed(0)} / ${gcMaxMs[1].toFixed(0)} ms)`,
  );
  for (const failure of failures) console.log(`  !!! ERROR ${row.name} (${row.viewer}): ${failure}`);
  return row;
}

/** Anonymous / from the 100k app, byte for byte, served from memory by plain node:http. */
async function measurePlainNode(app: ScaleApp): Promise<SideFigures> {
  const body = Buffer.from(await (await fetch(`${app.url}/`)).arrayBuffer());
  const plain = await startPlainServer(body);
  try {
    const request: LoadRequest = { method: "GET", path: "/", headers: {} };
    await runLoad(plain.url, request, WARM_UP_SECONDS);
    const runs: LoadFigures[] = [];
    for (let round = 0; round < ROUNDS; round += 1) runs.push(await runLoad(plain.url, request, SECONDS));
    console.log(`  plain node:http, the same ${(body.length / 1024).toFixed(0)} KB as /: ${median(runs.map((run) => run.requestsPerSecond)).toFixed(0)} req/s`);
    return side(runs);
  } finally {
    await plain.stop();
  }
}

async function benchDatabase(kind: DatabaseKind, sample: SamplePhoto, paths: BenchPath[]): Promise<string> {
  const name = kind === "sqlite" ? "SQLite" : "PostgreSQL";
  console.log(`\n== ${name} ==`);
  const seeds: SeededDatabase[] = [];
  for (const size of [SMALL, LARGE]) {
    const seeded = await seedOne(kind, size, sample);
    const variants = seeded.photos.reduce((sum, photo) => sum + photo.variantKeys.size, 0);
    console.log(`seeded ${size.toLocaleString("en")} photos (${variants.toLocaleString("en")} variant rows) in ${seeded.seedSeconds.toFixed(1)} s`);
    seeds.push(seeded);
  }
  const apps = (await Promise.all(seeds.map((seeded) => startScaleApp(seeded)))) as [ScaleApp, ScaleApp];
  try {
    const sessions = (await Promise.all(
      seeds.map(async (seeded, index) => ({ member: await signIn(apps[index], seeded.users.member), admin: await signIn(apps[index], seeded.users.admin) })),
    )) as [Sessions, Sessions];
    console.log(`measuring: ${CONNECTIONS} connections, ${WARM_UP_SECONDS} s warm-up, ${ROUNDS} rounds of ${SECONDS} s per size, ${label(SMALL)} and ${label(LARGE)} alternating`);
    const rows: Row[] = [];
    for (const benchPath of paths) rows.push(await measurePath(benchPath, apps, seeds as [SeededDatabase, SeededDatabase], sessions));
    const anonymousHome = rows.find((row) => row.name === "/" && row.viewer === "visitor");
    if (!anonymousHome) throw new Error("No anonymous / row");
    const baseline: Baseline = { plain: await measurePlainNode(apps[1]), app: anonymousHome.large };
    const seedTimes = seeds.map((seeded) => `${label(seeded.size)} ${seeded.seedSeconds.toFixed(1)} s`).join(", ");
    return [
      "",
      formatTable(`${name} (seeded in ${seedTimes}; medians of ${ROUNDS} rounds)`, [SMALL, LARGE], rows, baseline),
      ...rows.flatMap((row) => row.failures.map((failure) => `!!! ERROR ${row.name} (${row.viewer}) ${failure}`)),
      formatVerdict(name, [SMALL, LARGE], rows, baseline),
    ].join("\n");
  } finally {
    await Promise.all(apps.map((app) => app.stop()));
    if (kind === "postgres") {
      for (const seeded of seeds) if (seeded.databaseUrl) await dropPostgresDatabase(process.env.DATABASE_URL as string, seeded.databaseUrl);
    }
    for (const seeded of seeds) fs.rmSync(seeded.dataDirectory, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.resolve(import.meta.dirname, "../../.next/BUILD_ID"))) throw new Error("No build found: run `npx next build` first.");
  const startedAt = performance.now();
  const sample = await processSamplePhoto();
  console.log(`sample photo: ${path.basename(SAMPLE_PHOTO)}, ${sample.width}×${sample.height}, ${sample.variants.length} variants a photo`);
  const only = new RegExp(process.env.BENCH_SCALE_ONLY ?? "");
  const paths = listBenchPaths(findLoadMoreActionId()).filter((benchPath) => only.test(`${benchPath.name} (${benchPath.viewer})`));
  const kinds: DatabaseKind[] = process.env.DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];
  if (!process.env.DATABASE_URL) console.log("DATABASE_URL is not set: SQLite only.");
  const reports: string[] = [];
  for (const kind of kinds) reports.push(await benchDatabase(kind, sample, paths));
  console.log(reports.join("\n"));
  console.log(`\nwhole run: ${((performance.now() - startedAt) / 60_000).toFixed(1)} min`);
}

runBenchmark(main);
