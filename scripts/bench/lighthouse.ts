// npm run bench:lighthouse – is every public page fast on a phone? Lighthouse (mobile preset,
// simulated throttling, Debian Chromium) on every public page kind of the built app, seeded with a
// few hundred public photos of real sizes (4000x3000 and 3000x4000) in albums, under a tag and in a
// share link: the median of LIGHTHOUSE_RUNS (3) runs of performance, LCP, TBT and CLS, the other
// three categories, and the JavaScript a first visit loads against the framework's own floor (the
// not-found page of the same app, which is the root layout and nothing else). Builds nothing: run
// `npm run build` first. TBT under simulated throttling scales with the CPU time Chromium observes,
// so the load average is printed beside the figures. LIGHTHOUSE_PAGES=/,/albums measures some only;
// LIGHTHOUSE_REPORTS=<folder> keeps each run's whole Lighthouse JSON there (its network requests, with
// their priorities and timings, say what an LCP is waiting for); LIGHTHOUSE_SCREENSHOTS=<folder> saves
// every measured page at 390 and 1440 px, light and dark, to look at after a change.
import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import * as chromeLauncher from "chrome-launcher";
import { chromium } from "playwright";
import { findFreePort, spawnServer, waitUntilHealthy } from "../../tests/helpers/server-process";
import { BenchClient, expectStatus, makeTemporaryDirectory, median, onCleanup, runBenchmark } from "./bench-app";
import { LIGHTHOUSE_EDITOR, SEARCH_WORD, seedLighthouseGallery } from "./lighthouse-seed";

const PHOTO_COUNT = Number(process.env.LIGHTHOUSE_PHOTOS ?? 320);
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const ONLY_PAGES = process.env.LIGHTHOUSE_PAGES?.split(",").filter(Boolean);
const REPORTS_DIRECTORY = process.env.LIGHTHOUSE_REPORTS;
const SCREENSHOTS_DIRECTORY = process.env.LIGHTHOUSE_SCREENSHOTS;
const CHROMIUM = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const LIGHTHOUSE_CLI = path.resolve(import.meta.dirname, "../../node_modules/lighthouse/cli/index.js");
const ADMIN = { email: "lighthouse-admin@example.test", password: "lighthouse-admin-password-123" };

const TARGETS = { performance: 95, accessibility: 100, "best-practices": 100, seo: 100, lcpMs: 2_500, tbtMs: 150, cls: 0.1, jsAboveFloorBytes: 20 * 1024 } as const;
type Category = "performance" | "accessibility" | "best-practices" | "seo";
const CATEGORIES: Category[] = ["performance", "accessibility", "best-practices", "seo"];

/** A page kind, where it is, and whether it is kept out of search engines on purpose. */
interface PageKind {
  kind: string;
  path: string;
  noindexOnPurpose?: string;
  /** A Cookie header the browser sends (a share link's grant, as its "View photos" form leaves it). */
  cookie?: string;
}

interface Run {
  scores: Record<Category, number>;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  scriptTransferBytes: number;
  isNoindex: boolean;
  lcpElement: string;
  /** Where the simulated LCP went: "TTFB 600 ms, load delay …" (Lighthouse's own breakdown). */
  lcpPhases: string;
  shortfalls: string[];
}

interface LighthouseResult {
  runtimeError?: { message: string };
  categories: Record<string, { score: number | null; auditRefs?: Array<{ id: string; weight: number }> } | undefined>;
  audits: Record<string, { title?: string; score?: number | null; numericValue?: number; details?: unknown } | undefined>;
}

/** Lighthouse's CLI in a plain Node.js process: under tsx its page functions would carry esbuild's `__name` helper into the browser. */
async function runLighthouse(url: string, port: number, keepCookies: boolean, reportName: string): Promise<Run> {
  // Lighthouse clears the browser's storage before a run; a page that needs its cookie keeps it.
  const storage = keepCookies ? ["--disable-storage-reset"] : [];
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [LIGHTHOUSE_CLI, url, `--port=${port}`, "--output=json", "--output-path=stdout", "--quiet", `--only-categories=${CATEGORIES.join(",")}`, ...storage],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  if (REPORTS_DIRECTORY) {
    fs.mkdirSync(REPORTS_DIRECTORY, { recursive: true });
    fs.writeFileSync(path.join(REPORTS_DIRECTORY, `${reportName}.json`), stdout);
  }
  const lhr = JSON.parse(stdout) as LighthouseResult;
  if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
  const score = (category: Category) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
  const audit = (id: string) => lhr.audits[id];
  const requests = (audit("network-requests")?.details as { items?: Array<{ resourceType?: string; transferSize?: number }> } | undefined)?.items ?? [];
  const lcpItems = (audit("largest-contentful-paint-element")?.details as { items?: Array<{ items?: Array<{ node?: { snippet?: string }; phase?: string; timing?: number }> }> } | undefined)?.items;
  return {
    scores: { performance: score("performance"), accessibility: score("accessibility"), "best-practices": score("best-practices"), seo: score("seo") },
    lcpMs: audit("largest-contentful-paint")?.numericValue ?? NaN,
    tbtMs: audit("total-blocking-time")?.numericValue ?? NaN,
    cls: audit("cumulative-layout-shift")?.numericValue ?? NaN,
    scriptTransferBytes: requests.filter((item) => item.resourceType === "Script").reduce((sum, item) => sum + (item.transferSize ?? 0), 0),
    isNoindex: audit("is-crawlable")?.score === 0,
    lcpElement: (lcpItems?.[0]?.items?.[0]?.node?.snippet ?? "?").slice(0, 110),
    lcpPhases: (lcpItems?.[1]?.items ?? []).map((item) => `${item.phase} ${Math.round(item.timing ?? 0)} ms`).join(", "),
    // The weighted audits that did not pass, so a missed target says what to fix.
    shortfalls: CATEGORIES.flatMap((category) =>
      (lhr.categories[category]?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0 && (audit(ref.id)?.score ?? 1) < 0.9)
        .map((ref) => `${category}: ${audit(ref.id)?.title ?? ref.id} (${audit(ref.id)?.score})${firstDetail(audit(ref.id)?.details)}`),
    ),
  };
}

/**
 * Puts the share link's grant in the browser's own cookie jar, as a visitor's "View photos" leaves it,
 * and empties the HTTP cache (a run that keeps its cookies keeps the cache too, and a warm cache would
 * hide the page's JavaScript). Lighthouse's --extra-headers is no substitute for the cookie: a Cookie
 * header set that way did not reach every image request, and the 401s it caused were logged as console
 * errors against best practices.
 */
async function prepareBrowserForShare(port: number, baseUrl: string, shareKey: string, cookie: string): Promise<void> {
  const [name, ...value] = cookie.split("=");
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  const context = browser.contexts()[0];
  await context.addCookies([{ name, value: value.join("="), domain: new URL(baseUrl).hostname, path: `/s/${shareKey}` }]);
  const page = await context.newPage();
  await (await context.newCDPSession(page)).send("Network.clearBrowserCache");
  await page.close();
  await browser.close();
}

/** Each page at a phone's and a laptop's width, in both colour schemes, whole: what a change to a page looks like. */
async function saveScreenshots(baseUrl: string, pages: PageKind[], directory: string): Promise<void> {
  fs.mkdirSync(directory, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  try {
    for (const [width, height] of [[390, 844], [1440, 900]] as const) {
      for (const colorScheme of ["light", "dark"] as const) {
        const context = await browser.newContext({ viewport: { width, height }, colorScheme, deviceScaleFactor: 1 });
        for (const page of pages) {
          if (page.cookie) {
            const [name, ...value] = page.cookie.split("=");
            await context.addCookies([{ name, value: value.join("="), url: baseUrl }]);
          }
          const tab = await context.newPage();
          await tab.goto(new URL(page.path, baseUrl).toString(), { waitUntil: "networkidle" });
          await tab.screenshot({ path: path.join(directory, `${page.kind.replaceAll(" ", "-")}-${width}-${colorScheme}.png`), fullPage: true });
          await tab.close();
        }
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  console.log(`screenshots of ${pages.length} pages in ${directory}`);
}

/** An audit's first item, e.g. which console error or which resource: "costs points" then says what to fix. */
function firstDetail(details: unknown): string {
  const item = (details as { items?: Array<{ description?: string; url?: string; source?: string; sourceLocation?: { url?: string } }> } | undefined)?.items?.[0];
  const text = [item?.source, item?.description, item?.url ?? item?.sourceLocation?.url].filter((part) => typeof part === "string" && part).join(" ");
  return text ? `: ${text.slice(0, 200)}` : "";
}

/** Bytes on the wire of one GET, compressed as a browser would ask (node's fetch would decompress). */
function transferBytes(url: string): Promise<{ status: number; bytes: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "Accept-Encoding": "gzip, deflate, br" } }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const raw = Buffer.concat(chunks);
          resolve({ status: response.statusCode ?? 0, bytes: raw.length, body: response.headers["content-encoding"] ? "" : raw.toString("utf8") });
        });
        response.on("error", reject);
      })
      .on("error", reject);
  });
}

/** The JavaScript the HTML of `pathname` makes a browser load at once: its script tags' files, compressed. */
async function firstLoadScriptBytes(baseUrl: string, pathname: string, cookie?: string): Promise<number> {
  const html = await (await fetch(new URL(pathname, baseUrl), { headers: cookie ? { Cookie: cookie } : {} })).text();
  // nomodule scripts are the polyfills for browsers without modules: a current browser never fetches them.
  const tags = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"[^>]*>/g)].filter((match) => !/\snomodule/i.test(match[0]));
  const sources = new Set(tags.map((match) => match[1].replaceAll("&amp;", "&")));
  let total = 0;
  for (const source of sources) total += (await transferBytes(new URL(source, baseUrl).toString())).bytes;
  return total;
}

/** Albums, a tag and a share link over the seeded photos, through the API an editor uses. */
async function arrangeGallery(editor: BenchClient, photoIds: string[]): Promise<{ albumSlug: string; tagKey: string; shareUrl: string }> {
  const albums: Array<{ id: string; slug: string }> = [];
  // Each album holds a share of the gallery (of 320 photos: 120, 80 and 60), so a smaller LIGHTHOUSE_PHOTOS still fills all three.
  const at = (fraction: number) => Math.round(photoIds.length * fraction);
  for (const [title, start, end] of [["Harbour walks", 0, 0.375], ["Portraits of the old town", 0.3125, 0.5625], ["Winter", 0.625, 0.8125]] as const) {
    const created = await editor.request("/api/albums", { json: { title, visibility: "public" } });
    await expectStatus(created.clone(), 201, `create album ${title}`);
    const { album } = (await created.json()) as { album: { id: string; slug: string } };
    await expectStatus(await editor.request(`/api/albums/${album.id}/photos`, { json: { photoIds: photoIds.slice(at(start), at(end)) } }), 200, `fill album ${title}`);
    albums.push(album);
  }
  await expectStatus(await editor.request("/api/tags/photos", { json: { action: "add", photoIds: photoIds.filter((_id, index) => index % 2 === 0).slice(0, 150), names: ["sea"] } }), 200, "tag photos");
  await expectStatus(await editor.request("/api/tags/photos", { json: { action: "add", photoIds: photoIds.slice(0, 40), names: ["boats"] } }), 200, "tag photos");
  const shared = await editor.request("/api/shares", { json: { albumId: albums[0].id } });
  await expectStatus(shared.clone(), 201, "create share");
  const { share } = (await shared.json()) as { share: { url: string } };
  return { albumSlug: albums[0].slug, tagKey: "sea", shareUrl: share.url };
}

function loadAverage(): string {
  return `load ${os.loadavg().map((value) => value.toFixed(2)).join(" ")} on ${os.cpus().length} cores`;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ok = (passes: boolean) => (passes ? "" : " ✗");

async function main(): Promise<void> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: install it (apt-get install chromium) or set CHROME_PATH.`);
  if (!fs.existsSync(path.resolve(import.meta.dirname, "../../.next/BUILD_ID"))) throw new Error("No build found: run `npm run build` first.");
  const benchStartedAt = Date.now();
  const dataDirectory = makeTemporaryDirectory("contact-sheet-lighthouse-");
  const gallery = await seedLighthouseGallery(dataDirectory, PHOTO_COUNT);
  console.log(`${gallery.photoIds.length} public photos seeded in ${gallery.seedSeconds.toFixed(0)} s`);

  const port = await findFreePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = spawnServer(port, {
    NEXTAUTH_URL: baseUrl,
    NEXTAUTH_SECRET: "bench-secret-0123456789abcdef0123456789",
    DATA_DIR: dataDirectory,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: "warn",
  });
  onCleanup(() => server.stop());
  await waitUntilHealthy(server, 120_000);
  const editor = new BenchClient(baseUrl);
  await editor.signIn(LIGHTHOUSE_EDITOR.email, LIGHTHOUSE_EDITOR.password);
  const { albumSlug, tagKey, shareUrl } = await arrangeGallery(editor, gallery.photoIds);
  const shareKey = new URL(shareUrl).pathname.split("/")[2];
  const middlePhoto = gallery.photoIds[Math.floor(gallery.photoIds.length / 2)];
  // A visitor's first GET of a link shows a form that its script posts at once; the grant cookie it leaves is what every later visit carries.
  const entered = await fetch(`${baseUrl}/s/${shareKey}/api/enter?next=${encodeURIComponent(`/s/${shareKey}`)}`, { method: "POST", headers: { Origin: baseUrl }, redirect: "manual" });
  const shareCookie = entered.headers.getSetCookie()[0]?.split(";")[0];
  if (entered.status !== 303 || !shareCookie) throw new Error(`Entering the share link failed: ${entered.status}`);
  const camera = ((await (await fetch(`${baseUrl}/cameras`)).text()).match(/href="(\/cameras\/[^"]+)"/) ?? [])[1];
  const year = new Date().getUTCFullYear() - 1;

  const pages: PageKind[] = [
    { kind: "home", path: "/" },
    { kind: "photo", path: `/p/${middlePhoto}` },
    { kind: "album list", path: "/albums" },
    { kind: "album", path: `/albums/${albumSlug}` },
    { kind: "tag list", path: "/tags" },
    { kind: "tag", path: `/tags/${tagKey}` },
    { kind: "search", path: `/search?q=${SEARCH_WORD}`, noindexOnPurpose: "results pages are not for search engines" },
    { kind: "cameras", path: "/cameras" },
    { kind: "camera", path: camera ?? "/cameras" },
    { kind: "year", path: `/years/${year}` },
    { kind: "share gallery", path: `/s/${shareKey}`, noindexOnPurpose: "a share link is private to whoever holds it", cookie: shareCookie },
    { kind: "share photo", path: `/s/${shareKey}/p/${gallery.photoIds[1]}`, noindexOnPurpose: "a share link is private to whoever holds it", cookie: shareCookie },
  ].filter((page) => !ONLY_PAGES || ONLY_PAGES.includes(page.kind) || ONLY_PAGES.includes(page.path));

  // One unmeasured visit of each page first: no report counts a route's first compile or a cold cache.
  for (const page of pages) await expectStatus(await fetch(new URL(page.path, baseUrl), { headers: page.cookie ? { Cookie: page.cookie } : {} }), 200, `GET ${page.path}`);
  const floorBytes = await firstLoadScriptBytes(baseUrl, "/lighthouse-floor-page-that-does-not-exist");
  if (SCREENSHOTS_DIRECTORY) await saveScreenshots(baseUrl, pages, SCREENSHOTS_DIRECTORY);

  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS });
  onCleanup(() => chrome.kill());
  console.log(`\nLighthouse 12 mobile, simulated throttling, median of ${RUNS}; ${PHOTO_COUNT} photos; ${loadAverage()} at the start`);
  console.log(`JS floor (the not-found page: root layout only): ${kilobytes(floorBytes)}; target ≤ floor + ${kilobytes(TARGETS.jsAboveFloorBytes)}`);
  console.log(`targets: performance ≥ ${TARGETS.performance}, a11y/BP/SEO ${TARGETS.seo}, LCP ≤ ${seconds(TARGETS.lcpMs)}, TBT ≤ ${TARGETS.tbtMs} ms, CLS ≤ ${TARGETS.cls}  (✗ marks a miss)\n`);
  console.log(`${"page".padEnd(14)} ${"perf".padStart(5)} ${"a11y".padStart(5)} ${"BP".padStart(5)} ${"SEO".padStart(5)} ${"LCP".padStart(9)} ${"TBT".padStart(9)} ${"CLS".padStart(7)} ${"JS (LH)".padStart(10)} ${"JS first".padStart(10)} ${"over floor".padStart(11)}  load`);
  const notes: string[] = [];
  for (const page of pages) {
    const runs: Run[] = [];
    try {
      for (let run = 0; run < RUNS; run += 1) {
        if (page.cookie) await prepareBrowserForShare(chrome.port, baseUrl, shareKey, page.cookie);
        runs.push(await runLighthouse(`${baseUrl}${page.path}`, chrome.port, Boolean(page.cookie), `${page.kind.replaceAll(" ", "-")}-${run + 1}`));
      }
    } catch (error) {
      // One page Lighthouse cannot load must not cost the others' figures: say why and go on.
      const reason = ((error instanceof Error ? error.message : String(error)).match(/Runtime error encountered: ([^\n]*)/)?.[1] ?? String(error)).slice(0, 200);
      console.log(`${page.kind.padEnd(14)} not measured: ${reason}`);
      continue;
    }
    const middle = (pick: (run: Run) => number) => median(runs.map(pick));
    const scores = Object.fromEntries(CATEGORIES.map((category) => [category, middle((run) => run.scores[category])])) as Record<Category, number>;
    const [lcpMs, tbtMs, cls, scriptBytes] = [middle((run) => run.lcpMs), middle((run) => run.tbtMs), middle((run) => run.cls), middle((run) => run.scriptTransferBytes)];
    const firstLoad = await firstLoadScriptBytes(baseUrl, page.path, page.cookie);
    const isNoindex = runs.some((run) => run.isNoindex);
    // SEO short of 100 only for the noindex, on a page that is noindex on purpose, is that purpose.
    const seoMet = scores.seo >= TARGETS.seo || (isNoindex && Boolean(page.noindexOnPurpose) && runs.every((run) => run.shortfalls.filter((item) => item.startsWith("seo")).length <= 1));
    const cells = [
      `${scores.performance}${ok(scores.performance >= TARGETS.performance)}`.padStart(5),
      `${scores.accessibility}${ok(scores.accessibility >= TARGETS.accessibility)}`.padStart(5),
      `${scores["best-practices"]}${ok(scores["best-practices"] >= TARGETS["best-practices"])}`.padStart(5),
      `${scores.seo}${isNoindex && page.noindexOnPurpose ? "*" : ok(seoMet)}`.padStart(5),
      `${seconds(lcpMs)}${ok(lcpMs <= TARGETS.lcpMs)}`.padStart(9),
      `${tbtMs.toFixed(0)} ms${ok(tbtMs <= TARGETS.tbtMs)}`.padStart(9),
      `${cls.toFixed(3)}${ok(cls <= TARGETS.cls)}`.padStart(7),
      kilobytes(scriptBytes).padStart(10),
      kilobytes(firstLoad).padStart(10),
      `${kilobytes(firstLoad - floorBytes)}${ok(firstLoad - floorBytes <= TARGETS.jsAboveFloorBytes)}`.padStart(11),
    ];
    console.log(`${page.kind.padEnd(14)} ${cells.join(" ")}  ${os.loadavg()[0].toFixed(2)}`);
    if (isNoindex && page.noindexOnPurpose) notes.push(`${page.kind}: * noindex on purpose (${page.noindexOnPurpose})`);
    if (isNoindex && !page.noindexOnPurpose) notes.push(`${page.kind}: noindex, NOT expected`);
    notes.push(`${page.kind}: LCP element ${runs[0].lcpElement}`);
    notes.push(`${page.kind}: LCP phases (each run): ${runs.map((run) => run.lcpPhases || "?").join(" | ")}`);
    for (const shortfall of new Set(runs.flatMap((run) => run.shortfalls))) notes.push(`${page.kind}: costs points: ${shortfall}`);
  }
  chrome.kill();
  console.log(`\n${notes.join("\n")}`);
  console.log(`\n${loadAverage()} at the end; bench:lighthouse took ${((Date.now() - benchStartedAt) / 1000).toFixed(0)} s`);
}

runBenchmark(main);
