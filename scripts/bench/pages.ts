// npm run bench:pages – how light the public pages are: Lighthouse (mobile preset) on `/` and a
// photo page of the built app with 30 real public photos, and `/`'s requests per second against the
// floor, React's bare renderToString of the same number of tiles in this process. Needs
// `npx next build` first, and Chromium (Debian's /usr/bin/chromium, or CHROME_PATH).
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import { promisify } from "node:util";
import { createElement as h, type ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { type BenchApp, type BenchClient, describePhases, expectStatus, onCleanup, type PhotoBody, runBenchmark, signInAsNewEditor, startBenchApp } from "./bench-app";
import { generateLoad } from "./load-generator";

const CORPUS = path.resolve(import.meta.dirname, "../../../shared/corpus/exif-samples/jpg");
const PHOTO_COUNT = 30;
const CHROMIUM = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 8_000);
const PROCESSING_LIMIT_MS = 240_000;

const TARGETS = { performance: 95, accessibility: 100, "best-practices": 100, seo: 100 } as const;
const HOME_JS_TARGET_BYTES = 120 * 1024;

/** Readable corpus JPEGs (not the deliberately broken ones), in a stable order. */
function corpusPhotos(): string[] {
  const found: string[] = [];
  const walk = (directory: string) => {
    for (const entry of fs.readdirSync(directory, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory() && !["tests", "invalid"].includes(entry.name)) walk(full);
      else if (entry.isFile() && /\.jpe?g$/i.test(entry.name) && entry.name !== "corrupted.jpg") found.push(full);
    }
  };
  walk(CORPUS);
  return found;
}

/** Uploads photos through the upload API until PHOTO_COUNT are accepted, makes them public and waits for every variant. */
async function seedPublicPhotos(editor: BenchClient, app: BenchApp): Promise<string[]> {
  const ids: string[] = [];
  for (const file of corpusPhotos()) {
    if (ids.length === PHOTO_COUNT) break;
    const uploaded = await editor.uploadFile("/api/upload", file, "image/jpeg");
    if (uploaded.status !== 201) continue; // an odd corpus file the app refuses; take the next one
    const id = (JSON.parse(uploaded.body) as { photos: Array<{ id: string }> }).photos[0].id;
    await expectStatus(await editor.request(`/api/photos/${id}`, { method: "PATCH", json: { visibility: "public" } }), 200, "make public");
    ids.push(id);
  }
  if (ids.length < PHOTO_COUNT) throw new Error(`Only ${ids.length} corpus photos were accepted`);
  // Every phase done, AVIF included, so that no processing competes with the measurements.
  const startedAt = Date.now();
  const pending = new Set(ids);
  while (pending.size > 0 && Date.now() - startedAt < PROCESSING_LIMIT_MS) {
    for (const id of [...pending]) {
      const { photo } = (await (await editor.request(`/api/photos/${id}`)).json()) as { photo: PhotoBody };
      if (photo.status === "failed" || (describePhases(photo).isFull && describePhases(photo).isAvifDone)) pending.delete(id);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  if (pending.size > 0) console.log(`(${pending.size} photos still processing after ${PROCESSING_LIMIT_MS / 1000} s; measuring anyway)`);
  console.log(`${ids.length} public photos seeded in ${((Date.now() - startedAt) / 1000).toFixed(0)} s of processing (${app.url})`);
  return ids;
}

interface PageReport {
  scores: Record<keyof typeof TARGETS, number>;
  lcpMs: number;
  totalBytes: number;
  scriptBytes: number;
  /** Weighted audits that did not pass (score < 0.9), named by Lighthouse. */
  shortfalls: string[];
}

interface NetworkRequestItem {
  resourceType?: string;
  transferSize?: number;
}

const LIGHTHOUSE_CLI = path.resolve(import.meta.dirname, "../../node_modules/lighthouse/cli/index.js");

interface LighthouseResult {
  runtimeError?: { message: string };
  categories: Record<string, { score: number | null; auditRefs?: Array<{ id: string; weight: number }> } | undefined>;
  audits: Record<string, { title?: string; score?: number | null; numericValue?: number; details?: unknown } | undefined>;
}

/**
 * Lighthouse's CLI in a plain Node.js process: under tsx, its page functions would carry esbuild's
 * `__name` helper into the browser, where it is not defined.
 */
async function runLighthouse(url: string, port: number): Promise<PageReport> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [LIGHTHOUSE_CLI, url, `--port=${port}`, "--output=json", "--output-path=stdout", "--quiet", `--only-categories=${Object.keys(TARGETS).join(",")}`],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const lhr = JSON.parse(stdout) as LighthouseResult;
  if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
  const score = (category: keyof typeof TARGETS) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
  const requests = ((lhr.audits["network-requests"]?.details as { items?: NetworkRequestItem[] } | undefined)?.items ?? []);
  // The weighted audits that did not pass, so a missed target says what to fix.
  const shortfalls = Object.keys(TARGETS).flatMap((category) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 0.9)
      .map((ref) => `${category}: ${lhr.audits[ref.id]?.title ?? ref.id} (score ${lhr.audits[ref.id]?.score})`),
  );
  return {
    shortfalls,
    scores: { performance: score("performance"), accessibility: score("accessibility"), "best-practices": score("best-practices"), seo: score("seo") },
    lcpMs: lhr.audits["largest-contentful-paint"]?.numericValue ?? NaN,
    totalBytes: lhr.audits["total-byte-weight"]?.numericValue ?? NaN,
    scriptBytes: requests.filter((item) => item.resourceType === "Script").reduce((sum, item) => sum + (item.transferSize ?? 0), 0),
  };
}

const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const mark = (ok: boolean) => (ok ? "ok" : "MISSED");

function printPage(name: string, report: PageReport): void {
  console.log(`\n${name}`);
  for (const [category, target] of Object.entries(TARGETS) as Array<[keyof typeof TARGETS, number]>) {
    console.log(`  ${category.padEnd(15)} ${String(report.scores[category]).padStart(3)}   target ≥ ${target}  ${mark(report.scores[category] >= target)}`);
  }
  console.log(`  ${"LCP".padEnd(15)} ${(report.lcpMs / 1000).toFixed(2)} s (simulated slow 4G, mid-range phone)`);
  console.log(`  ${"total bytes".padEnd(15)} ${kilobytes(report.totalBytes)}`);
  const jsTarget = name === "/" ? `   target ≤ ${kilobytes(HOME_JS_TARGET_BYTES)}  ${mark(report.scriptBytes <= HOME_JS_TARGET_BYTES)}` : "";
  console.log(`  ${"JS (transfer)".padEnd(15)} ${kilobytes(report.scriptBytes)}${jsTarget}`);
  for (const shortfall of report.shortfalls) console.log(`  costs points    ${shortfall}`);
}

/** A document with `count` tiles shaped like the gallery's (link, frame, picture with AVIF/WebP/JPEG srcsets). */
function galleryDocument(count: number): ReactElement {
  const widths = [320, 640, 960, 1280, 1920];
  const srcSet = (id: number, format: string) => widths.map((width) => `/media/photos/${id}/${width}.${format} ${width}w`).join(", ");
  const tiles = Array.from({ length: count }, (_unused, id) => {
    const ratio = 1 + (id % 3) * 0.25;
    return h(
      "a",
      { key: id, href: `/p/${id}`, className: "grid-tile", style: { flexGrow: ratio, flexBasis: `${ratio * 240}px` } },
      h(
        "span",
        { className: "grid-frame", style: { paddingBottom: `${100 / ratio}%`, backgroundColor: "#777" } },
        h(
          "picture",
          null,
          h("source", { type: "image/avif", srcSet: srcSet(id, "avif"), sizes: `${Math.round(ratio * 240)}px` }),
          h("source", { type: "image/webp", srcSet: srcSet(id, "webp"), sizes: `${Math.round(ratio * 240)}px` }),
          h("img", { src: `/media/photos/${id}/320.jpeg`, srcSet: srcSet(id, "jpeg"), sizes: `${Math.round(ratio * 240)}px`, alt: `Photo ${id}`, loading: "lazy", decoding: "async" }),
        ),
      ),
    );
  });
  return h(
    "html",
    { lang: "en" },
    h("head", null, h("meta", { charSet: "utf-8" }), h("title", null, "Contact Sheet")),
    h("body", null, h("header", null, h("a", { href: "/" }, "Contact Sheet")), h("main", { id: "main" }, h("section", { "aria-label": "Photos" }, h("div", { className: "photo-grid" }, tiles)))),
  );
}

/** renderToString in a loop for `durationMs` on this thread: the most a Node process can answer with React alone. */
function measureRenderFloor(durationMs: number): { rendersPerSecond: number; bytes: number } {
  const stopAt = performance.now() + durationMs;
  let renders = 0;
  let bytes = 0;
  const startedAt = performance.now();
  while (performance.now() < stopAt) {
    bytes = renderToString(galleryDocument(PHOTO_COUNT)).length;
    renders += 1;
  }
  return { rendersPerSecond: renders / ((performance.now() - startedAt) / 1000), bytes };
}

async function main(): Promise<void> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: install it (apt-get install chromium) or set CHROME_PATH.`);
  const benchStartedAt = Date.now();
  const app = await startBenchApp({ LOG_LEVEL: "warn" });
  const editor = await signInAsNewEditor(app);
  const ids = await seedPublicPhotos(editor, app);

  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS });
  onCleanup(() => chrome.kill());
  // One unmeasured visit of each page first, so neither report counts the server's first compile of a route.
  for (const pathname of ["/", `/p/${ids[0]}`]) await expectStatus(await fetch(new URL(pathname, app.url)), 200, `GET ${pathname}`);
  const home = await runLighthouse(`${app.url}/`, chrome.port);
  const photo = await runLighthouse(`${app.url}/p/${ids[Math.floor(ids.length / 2)]}`, chrome.port);
  chrome.kill();

  console.log(`\nLighthouse ${"(mobile preset, Chromium " + CHROMIUM + ")"}`);
  printPage("/", home);
  printPage("/p/[id]", photo);

  // `/` under load (anonymous visitors), then the floor for the same time.
  await generateLoad(`${app.url}/`, { connections: CONNECTIONS, durationMs: 2_000 });
  const load = await generateLoad(`${app.url}/`, { connections: CONNECTIONS, durationMs: ROUND_MS });
  measureRenderFloor(1_000); // warm-up
  const floor = measureRenderFloor(ROUND_MS);
  console.log(`\nGET / with ${PHOTO_COUNT} photos, ${CONNECTIONS} connections, ${ROUND_MS / 1000} s`);
  console.log(`  the app            ${load.requestsPerSecond.toFixed(0).padStart(6)} requests/s (${kilobytes(load.bytes / Math.max(1, load.requests))} per answer)`);
  console.log(`  renderToString     ${floor.rendersPerSecond.toFixed(0).padStart(6)} renders/s of ${PHOTO_COUNT} tiles (${kilobytes(floor.bytes)}), no I/O`);
  console.log(`  ratio              ${(load.requestsPerSecond / floor.rendersPerSecond).toFixed(2)} of the floor`);
  console.log(`\nbench:pages took ${((Date.now() - benchStartedAt) / 1000).toFixed(0)} s`);
}

runBenchmark(main);
