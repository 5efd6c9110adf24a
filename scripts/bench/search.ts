// npm run bench:search – does search keep its speed as the library grows? Seeds 1,000 and 100,000
// photos (bench:scale's seeding, extended by search-seed.ts with words, tags, albums, cameras,
// lenses, ISO, apertures and orientations) into SQLite, and into PostgreSQL when DATABASE_URL is
// set, through the app's migrations (the search index is filled by its triggers); starts the built
// app on each and measures, as an anonymous visitor, interleaved small/large, medians of rounds:
// GET /api/search (a rare word, word + camera:, filters only, a negation, a common word),
// GET /api/search/facets (a rare word, empty q), GET /api/search/suggest (a 2-letter prefix) and the
// /search page, each as the 100k/1k time ratio against the target (≤ 1.5x); then, at 100k, page 200
// of a common word's results (reached by following nextCursor, not timed) against page 1. Both sizes
// ask for pages of the same length: 30 photos, or the shorter answer's length when a visitor's answer
// at 1k holds fewer (the "page" column; comparablePageSize in search-paths.ts says why).
// Every answer is checked against what the seed placed before it is measured. Never fails on time.
// Needs `npx next build` first.
//
// BENCH_SEARCH_SIZES=1000,100000  BENCH_SEARCH_ROUNDS=3  BENCH_SEARCH_SECONDS=2  BENCH_SEARCH_DEEP_PAGE=200 (the defaults)
// BENCH_SEARCH_ONLY='facets'  measures only the rows whose name matches ("deep page" for the page 200 row).
// BENCH_SEARCH_INDEX=backfill  seeds the rows just before the search index's migration, whose backfill
//   then builds it (the default: fast); =triggers seeds into the latest schema, so the index's
//   triggers fill it row by row (what a bulk import costs: minutes at 100,000 photos on PostgreSQL).
// BENCH_SEARCH_DATABASES=sqlite,postgres  (the default; PostgreSQL only when DATABASE_URL is set)
// BENCH_SEARCH_EXPLAIN=1  also prints, for the large database, the main queries behind each API row
//   (the search repository called directly with the visitor's access: the service is "server-only",
//   which only a Next.js build can import) with the database's plan and its time alone.
import fs from "node:fs";
import path from "node:path";
import { decodeKeysetCursor } from "@/src/db/keyset-cursor";
import { PUBLIC_LIST_ACCESS } from "@/src/photos/listable-photos";
import { slugify } from "@/src/photos/camera-slug";
import type { ResolvedSearch } from "@/src/search/search-query-builder";
import { parseSearchQuery } from "@/src/search/search-query-parser";
import { countFoundPerCamera, countFoundPerLens, countFoundPerTag, countFoundPerYear, listMatchingDocuments, searchPhotos } from "@/src/search/search.repository";
import { median, runBenchmark } from "./bench-app";
import { explainQueries } from "./bench-explain";
import { type ScaleApp, startScaleApp } from "./scale-app";
import { CONNECTIONS, type LoadFigures, type LoadRequest, runLoad } from "./scale-load";
import { formatMs, formatRate, formatRatio, formatSize, pad, type SideFigures } from "./scale-report";
import { processSamplePhoto, SAMPLE_PHOTO, type SamplePhoto } from "./scale-sample";
import { type DatabaseKind, removeSeededDatabases, type SeededDatabase, seedFreshDatabase } from "./scale-seed";
import type { Check } from "./answer-checks";
import { comparablePageSize, DEEP_QUERY, deepExpected, deepPageRequest, expectPhotos, findCursorOfPage, listSearchBenchPaths, PAGE_SIZE } from "./search-paths";
import { createSearchSeed, type IndexFilling, RARE_COUNT, type SearchSeed } from "./search-seed";

const [SMALL, LARGE] = (process.env.BENCH_SEARCH_SIZES ?? "1000,100000").split(",").map(Number) as [number, number];
const ROUNDS = Number(process.env.BENCH_SEARCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SEARCH_SECONDS ?? 2);
const DEEP_PAGE = Number(process.env.BENCH_SEARCH_DEEP_PAGE ?? 200);
const ONLY = new RegExp(process.env.BENCH_SEARCH_ONLY ?? "");
const FILLING = (process.env.BENCH_SEARCH_INDEX ?? "backfill") as IndexFilling;
const EXPLAIN = process.env.BENCH_SEARCH_EXPLAIN === "1";
const WARM_UP_SECONDS = 1;
/** The issue's target: a request at 100,000 photos takes at most 1.5 times as long as at 1,000 (and page 200 as page 1). */
const TARGET = 1.5;

interface Seeded {
  seeded: SeededDatabase;
  seed: SearchSeed;
}

interface Target {
  app: ScaleApp;
  request: LoadRequest;
  check: Check;
}

interface Row {
  name: string;
  q: string;
  /** The two sides: small then large, or page 1 then the deep page. */
  sides: [SideFigures, SideFigures] | null;
  failures: string[];
  /** Why the row was not measured (the route is not in this build). */
  notMeasured?: string;
  /** The photos a page asked for at both sizes, for rows that answer photos (comparablePageSize). */
  pageSize?: number;
}

async function seedOne(kind: DatabaseKind, size: number, sample: SamplePhoto): Promise<Seeded> {
  const seed = createSearchSeed(size, sample, FILLING);
  const seeded = await seedFreshDatabase({ label: "search", kind, size, sample, extension: seed.extension });
  const rare = [...seed.facts.values()].filter((facts) => facts.isRare).length;
  if (rare !== RARE_COUNT) throw new Error(`The seed placed the rare word on ${rare} photos, not ${RARE_COUNT}`);
  return { seeded, seed };
}

async function checkOnce(target: Target): Promise<{ status: number; problem: string | null }> {
  const response = await fetch(new URL(target.request.path, target.app.url), { headers: target.request.headers, redirect: "manual" });
  const status = response.status;
  return { status, problem: target.check(status, await response.text()) };
}

const sideOf = (figures: LoadFigures[]): SideFigures => ({
  requestsPerSecond: median(figures.map((figure) => figure.requestsPerSecond)),
  p99Ms: median(figures.map((figure) => figure.p99Ms)),
});

/** Checks both, warms both up, then ROUNDS alternating runs (first, second, first, second, …); medians of the rounds. */
async function measurePair(name: string, q: string, targets: [Target, Target], labels: [string, string]): Promise<Row> {
  const failures: string[] = [];
  const checks = await Promise.all(targets.map(checkOnce));
  if (checks.every((check) => check.status === 404)) {
    console.log(`  ${name.padEnd(40)} not measured: 404 on both (not in this build)`);
    return { name, q, sides: null, failures: [], notMeasured: "404: not in this build" };
  }
  checks.forEach((check, index) => check.problem && failures.push(`${labels[index]}: ${check.problem}`));
  for (const target of targets) await runLoad(target.app.url, target.request, WARM_UP_SECONDS);
  const runs: [LoadFigures[], LoadFigures[]] = [[], []];
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const index of [0, 1]) runs[index].push(await runLoad(targets[index].app.url, targets[index].request, SECONDS));
  }
  for (const index of [0, 1]) for (const failure of new Set(runs[index].flatMap((run) => run.failures))) failures.push(`${labels[index]}: ${failure}`);
  const sides: [SideFigures, SideFigures] = [sideOf(runs[0]), sideOf(runs[1])];
  console.log(`  ${name.padEnd(40)} ${labels[0]} ${sides[0].requestsPerSecond.toFixed(0)} req/s, ${labels[1]} ${sides[1].requestsPerSecond.toFixed(0)} req/s`);
  for (const failure of failures) console.log(`  !!! ERROR ${name}: ${failure}`);
  return { name, q, sides, failures };
}

/** How many times longer the second side takes: the first side's req/s ÷ the second's. */
const slowdown = (sides: [SideFigures, SideFigures]) => sides[0].requestsPerSecond / sides[1].requestsPerSecond;

function verdict(row: Row): string {
  if (row.notMeasured) return `– ${row.notMeasured}`;
  if (row.failures.length > 0) return "✗ ERRORS";
  return row.sides && slowdown(row.sides) <= TARGET ? "✓" : "✗";
}

function formatTable(title: string, labels: [string, string], rows: Row[]): string {
  const [first, second] = labels;
  const cells = [["request", "q", "page", `${first} req/s`, `${first} p99`, `${second} req/s`, `${second} p99`, `time ${second}/${first}`, "target", "verdict"]];
  for (const row of rows) {
    const figures = row.sides
      ? [formatRate(row.sides[0].requestsPerSecond), formatMs(row.sides[0].p99Ms), formatRate(row.sides[1].requestsPerSecond), formatMs(row.sides[1].p99Ms), Number.isFinite(slowdown(row.sides)) ? formatRatio(slowdown(row.sides)) : "∞ (none served)"]
      : ["", "", "", "", ""];
    cells.push([row.name, row.q === "" ? "(empty)" : row.q, row.pageSize === undefined ? "" : String(row.pageSize), ...figures, `≤ ${TARGET}x`, verdict(row)]);
  }
  const lines = pad(cells);
  lines.splice(1, 0, lines[0].replace(/[^|]/g, "-"));
  return [title, ...lines].join("\n");
}

/** Page 1 against page DEEP_PAGE of DEEP_QUERY, both on the large app. */
async function measureDeepPage(app: ScaleApp, seed: SearchSeed, explained: Array<{ name: string; request: LoadRequest }>): Promise<Row> {
  const name = `deep page: ${DEEP_PAGE} vs 1`;
  const expected = deepExpected(seed);
  let cursor: string;
  try {
    cursor = await findCursorOfPage(app.url, DEEP_QUERY, DEEP_PAGE);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.log(`  ${name.padEnd(40)} not measured: ${message}`);
    return { name, q: DEEP_QUERY, sides: null, failures: [message] };
  }
  explained.push({ name: `page ${DEEP_PAGE} of "${DEEP_QUERY}"`, request: deepPageRequest(DEEP_QUERY, cursor) });
  const row = await measurePair(
    name,
    DEEP_QUERY,
    [
      { app, request: deepPageRequest(DEEP_QUERY, null), check: expectPhotos(expected) },
      { app, request: deepPageRequest(DEEP_QUERY, cursor), check: expectPhotos(expected, (DEEP_PAGE - 1) * PAGE_SIZE) },
    ],
    ["page 1", `page ${DEEP_PAGE}`],
  );
  return { ...row, pageSize: PAGE_SIZE };
}

/** The query's terms with camera:/lens: resolved against the seed's slugs (the service's rule: a run of whole words). */
function resolveForExplain(q: string, slugs: string[]): ResolvedSearch {
  const parsed = parseSearchQuery(q);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const resolved: ResolvedSearch = { terms: parsed.query.terms, slugs: new Map(), ownerNotes: { kind: "nobody" }, places: new Map(), placeScope: { kind: "shown-or-own", viewerId: null, siteDefault: "exact" } };
  for (const term of parsed.query.terms) {
    if (term.kind === "camera" || term.kind === "lens") resolved.slugs.set(term, slugs.filter((slug) => `-${slug}-`.includes(`-${slugify(term.value)}-`)));
  }
  return resolved;
}

/** The repository's queries behind each API request, on the seeded database, with their plans (BENCH_SEARCH_EXPLAIN=1). */
async function explainRequests(seeded: SeededDatabase, slugs: string[], requests: Array<{ name: string; request: LoadRequest }>): Promise<string[]> {
  const lines: string[] = [];
  for (const { name, request } of requests) {
    const url = new URL(request.path, "http://bench.invalid");
    const resolved = resolveForExplain(url.searchParams.get("q") ?? "", slugs);
    const query = { resolved, access: PUBLIC_LIST_ACCESS };
    const cursor = url.searchParams.get("cursor");
    const after = cursor ? (([sortAt, id]) => ({ sortAt, id }))(decodeKeysetCursor(cursor, 2)) : undefined;
    const work =
      url.pathname === "/api/search"
        ? (db: Parameters<typeof searchPhotos>[0]) => searchPhotos(db, { ...query, after, limit: PAGE_SIZE + 1 })
        : url.pathname === "/api/search/facets"
          ? (db: Parameters<typeof searchPhotos>[0]) => Promise.all([countFoundPerCamera(db, query), countFoundPerLens(db, query), countFoundPerYear(db, query), countFoundPerTag(db, query)])
          : url.pathname === "/api/search/suggest"
            ? (db: Parameters<typeof searchPhotos>[0]) => listMatchingDocuments(db, url.searchParams.get("q") ?? "", PUBLIC_LIST_ACCESS, 50)
            : null;
    if (!work) continue;
    lines.push(`  ${name} (${request.path}):`, ...(await explainQueries(seeded, work)));
  }
  return lines;
}

async function benchDatabase(kind: DatabaseKind, sample: SamplePhoto): Promise<string> {
  const name = kind === "sqlite" ? "SQLite" : "PostgreSQL";
  console.log(`\n== ${name} ==`);
  const both: Seeded[] = [];
  for (const size of [SMALL, LARGE]) {
    const one = await seedOne(kind, size, sample);
    const index = FILLING === "backfill" ? `the search index by its migration's backfill in ${one.seeded.laterMigrationSeconds.toFixed(1)} s` : "the search index by its triggers";
    console.log(`seeded ${size.toLocaleString("en")} photos (with variants, tags, albums; ${index}) in ${one.seeded.seedSeconds.toFixed(1)} s`);
    both.push(one);
  }
  const apps = (await Promise.all(both.map(({ seeded }) => startScaleApp(seeded)))) as [ScaleApp, ScaleApp];
  const labels: [string, string] = [formatSize(SMALL), formatSize(LARGE)];
  try {
    console.log(`measuring: ${CONNECTIONS} connections, ${WARM_UP_SECONDS} s warm-up, ${ROUNDS} rounds of ${SECONDS} s per side, alternating`);
    const rows: Row[] = [];
    const largeRequests: Array<{ name: string; request: LoadRequest }> = [];
    for (const benchPath of listSearchBenchPaths().filter((candidate) => ONLY.test(candidate.name))) {
      const pageSize = comparablePageSize(benchPath, both.map(({ seed }) => seed));
      const targets = [0, 1].map((index) => ({ app: apps[index], ...benchPath.build(both[index].seed, pageSize) })) as [Target, Target];
      rows.push({ ...(await measurePair(benchPath.name, benchPath.q, targets, labels)), pageSize: benchPath.expected ? pageSize : undefined });
      largeRequests.push({ name: benchPath.name, request: targets[1].request });
    }
    const deep = ONLY.test("deep page") ? [await measureDeepPage(apps[1], both[1].seed, largeRequests)] : [];
    const plans = EXPLAIN ? ["", `${name}: the queries at ${labels[1]}, with the database's plans:`, ...(await explainRequests(both[1].seeded, both[1].seed.cameraSlugs, largeRequests))] : [];
    const seedTimes = `${both.map(({ seeded }) => `${formatSize(seeded.size)} ${seeded.seedSeconds.toFixed(1)} s`).join(", ")}, index by ${FILLING}`;
    const all = [...rows, ...deep];
    const met = all.filter((row) => verdict(row) === "✓").length;
    const notMeasured = all.filter((row) => row.notMeasured).length;
    return [
      "",
      formatTable(`${name}: ${labels[1]} against ${labels[0]} photos (seeded in ${seedTimes}; medians of ${ROUNDS} rounds of ${SECONDS} s, ${CONNECTIONS} connections)`, labels, rows),
      ...(deep.length > 0 ? ["", formatTable(`${name}: page ${DEEP_PAGE} against page 1 of "${DEEP_QUERY}" at ${labels[1]} (${PAGE_SIZE} a page, keyset cursors)`, ["page 1", `page ${DEEP_PAGE}`], deep)] : []),
      ...all.flatMap((row) => row.failures.map((failure) => `!!! ERROR ${row.name}: ${failure}`)),
      ...plans,
      `${name}: ${met} of ${all.length - notMeasured} measured rows within ${TARGET}x${notMeasured > 0 ? ` (${notMeasured} not measured: not in this build)` : ""}.`,
    ].join("\n");
  } finally {
    await Promise.all(apps.map((app) => app.stop()));
    await removeSeededDatabases(both.map(({ seeded }) => seeded));
  }
}

async function main(): Promise<void> {
  if (FILLING !== "backfill" && FILLING !== "triggers") throw new Error("BENCH_SEARCH_INDEX is backfill or triggers");
  if (!fs.existsSync(path.resolve(import.meta.dirname, "../../.next/BUILD_ID"))) throw new Error("No build found: run `npx next build` first.");
  const startedAt = performance.now();
  const sample = await processSamplePhoto();
  console.log(`sample photo: ${path.basename(SAMPLE_PHOTO)}, ${sample.width}×${sample.height}`);
  const kinds = (process.env.DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"]).filter((kind) => (process.env.BENCH_SEARCH_DATABASES ?? "sqlite,postgres").split(",").includes(kind)) as DatabaseKind[];
  if (!process.env.DATABASE_URL) console.log("DATABASE_URL is not set: SQLite only.");
  const reports: string[] = [];
  for (const kind of kinds) reports.push(await benchDatabase(kind, sample));
  console.log(reports.join("\n"));
  console.log(`\nwhole run: ${((performance.now() - startedAt) / 60_000).toFixed(1)} min`);
}

runBenchmark(main);
