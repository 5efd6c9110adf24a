// npm run bench:share-zip – does a share's "Download all" stream as fast as storage can be read,
// without the server's memory growing with the share? Starts the built app (SQLite, local disk),
// uploads one corpus JPEG through the API and lets the worker process it, clones its original into
// 200 photos of a share (rows written straight into the database, files copied under their own
// keys), then, interleaved over several rounds, with ratios against a baseline measured in the
// same run (never an absolute pass/fail):
//   1. the ZIP's rate (GET /s/{key}/download.zip read over HTTP, MB/s of the answer) against reading
//      the same 200 originals from storage in this one process, one after another (target ≥ 0.8x);
//   2. the server's RSS growth while streaming, sampled every 20 ms (target < 100 MB);
//   3. the time to the first byte of the first ZIP (each source's head read to plan the exact
//      length) and of later ones (plans remembered).
// Needs `npx next build` first.   BENCH_SHARE_ZIP_PHOTOS=200  BENCH_SHARE_ZIP_ROUNDS=3
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import type { Database } from "@/src/db/database";
import { newShareKey } from "@/src/shares/share-key";
import { expectStatus, formatMegabytes, median, readProcessMemory, runBenchmark, signInAsNewEditor, startBenchApp } from "./bench-app";
import { SAMPLE_PHOTO } from "./scale-sample";

const PHOTOS = Number(process.env.BENCH_SHARE_ZIP_PHOTOS ?? 200);
const ROUNDS = Number(process.env.BENCH_SHARE_ZIP_ROUNDS ?? 3);

/** Opens the link as a visitor does (the page's "View photos" form, POST /s/{key}/api/enter, admits the browser) and answers its grant cookie. */
async function admitVisitor(baseUrl: string, key: string): Promise<string> {
  const response = await fetch(new URL(`/s/${key}/api/enter?next=${encodeURIComponent(`/s/${key}`)}`, baseUrl), { method: "POST", redirect: "manual" });
  const grant = response.headers.getSetCookie().find((cookie) => cookie.startsWith("cs_share_grant="));
  if (response.status !== 303 || !grant) throw new Error(`/s/${key}/api/enter answered ${response.status} without a grant cookie`);
  return grant.split(";")[0];
}

/** Reads an HTTP answer to the end, counting bytes and sampling the server's RSS meanwhile. */
function download(url: string, cookie: string, pid: number): Promise<{ bytes: number; contentLength: number; seconds: number; firstByteMs: number; peakRss: number }> {
  return new Promise((resolve, reject) => {
    let peakRss = readProcessMemory(pid)?.current ?? 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, readProcessMemory(pid)?.current ?? 0)), 20);
    const startedAt = performance.now();
    http
      .get(url, { headers: { Cookie: cookie } }, (response) => {
        if (response.statusCode !== 200) reject(new Error(`${url} answered ${response.statusCode}`));
        let bytes = 0;
        let firstByteMs = -1;
        response.on("data", (chunk: Buffer) => {
          if (firstByteMs < 0) firstByteMs = performance.now() - startedAt;
          bytes += chunk.length;
        });
        response.on("end", () => {
          clearInterval(sampler);
          resolve({ bytes, contentLength: Number(response.headers["content-length"]), seconds: (performance.now() - startedAt) / 1000, firstByteMs, peakRss });
        });
        response.on("error", reject);
      })
      .on("error", reject);
  });
}

async function main(): Promise<void> {
  const app = await startBenchApp();
  const editor = await signInAsNewEditor(app);
  const uploaded = await editor.uploadFile("/api/upload", SAMPLE_PHOTO, "image/jpeg");
  if (uploaded.status !== 201) throw new Error(`upload: ${uploaded.status} ${uploaded.body}`);
  const photoId = (JSON.parse(uploaded.body) as { photos: Array<{ id: string }> }).photos[0].id;
  for (let attempt = 0; ; attempt += 1) {
    const detail = await editor.request(`/api/photos/${photoId}`);
    await expectStatus(detail, 200, "photo detail");
    if (((await detail.json()) as { photo: { status: string } }).photo.status === "ready") break;
    if (attempt > 600) throw new Error("the sample photo was not processed in time");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  // The share: the processed photo and PHOTOS - 1 clones of it, each with its own copy of the original.
  const sqlite = new SQLite(path.join(app.dataDirectory, "contact-sheet.sqlite"));
  sqlite.pragma("busy_timeout = 5000");
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  const mediaDirectory = path.join(app.dataDirectory, "media");
  const sample = await db.selectFrom("photos").selectAll().where("id", "=", photoId).executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  const ids = [photoId];
  for (let index = 1; index < PHOTOS; index += 1) {
    const id = crypto.randomUUID();
    const originalKey = `originals/${id.slice(0, 2)}/${id}`;
    fs.mkdirSync(path.dirname(path.join(mediaDirectory, originalKey)), { recursive: true });
    fs.copyFileSync(path.join(mediaDirectory, sample.original_key), path.join(mediaDirectory, originalKey));
    await db.insertInto("photos").values({ ...sample, id, original_key: originalKey, sha256: `${sample.sha256.slice(0, 56)}${index.toString(16).padStart(8, "0")}`, publication_key: crypto.randomUUID(), title: "", created_at: now, updated_at: now }).execute();
    ids.push(id);
  }
  const shareId = crypto.randomUUID();
  const key = newShareKey();
  await db
    .insertInto("shares")
    .values({ id: shareId, key, owner_id: sample.owner_id, title: "Bench share", download: "copy", allow_zip: 1, show_exif: 1, show_location: 0, expires_at: null, max_views: null, created_at: now, updated_at: now })
    .execute();
  await db.insertInto("share_photos").values(ids.map((id, position) => ({ share_id: shareId, photo_id: id, position }))).execute();
  const rows = await db.selectFrom("photos").select("original_key").where("id", "in", ids).execute();
  await db.destroy();
  const cookie = await admitVisitor(app.url, key);
  const zipUrl = new URL(`/s/${key}/download.zip`, app.url).toString();

  // What LocalDiskStorage.read does (src/storage is "server-only", which only a Next.js build imports).
  const readAll = async () => {
    const startedAt = performance.now();
    let bytes = 0;
    for (const row of rows) for await (const chunk of fs.createReadStream(path.join(mediaDirectory, row.original_key))) bytes += (chunk as Buffer).length;
    return { bytes, seconds: (performance.now() - startedAt) / 1000 };
  };

  console.log(`bench:share-zip: a ${PHOTOS}-photo share of ${path.basename(SAMPLE_PHOTO)} (${formatMegabytes(sample.original_size)} each), SQLite, local disk, the built app (node server.mjs)`);
  await readAll(); // the page cache holds the files for both sides alike
  const baselineRss = readProcessMemory(app.pid)?.current ?? 0;
  const reads: number[] = [];
  const zips: number[] = [];
  const firstBytes: number[] = [];
  let firstZipFirstByte = 0;
  let peakGrowth = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const read = await readAll();
    reads.push(read.bytes / read.seconds / 1e6);
    const zip = await download(zipUrl, cookie, app.pid);
    if (zip.bytes !== zip.contentLength) throw new Error(`the ZIP sent ${zip.bytes} bytes, its Content-Length said ${zip.contentLength}`);
    zips.push(zip.bytes / zip.seconds / 1e6);
    if (round === 0) firstZipFirstByte = zip.firstByteMs;
    else firstBytes.push(zip.firstByteMs);
    peakGrowth = Math.max(peakGrowth, zip.peakRss - baselineRss);
    console.log(`  round ${round + 1}: storage read ${reads.at(-1)?.toFixed(0)} MB/s, ZIP ${zips.at(-1)?.toFixed(0)} MB/s (${formatMegabytes(zip.bytes)}, first byte after ${zip.firstByteMs.toFixed(0)} ms), server RSS +${formatMegabytes(Math.max(0, zip.peakRss - baselineRss))}`);
  }
  const ratio = median(zips) / median(reads);
  console.log("");
  console.log("| measure | baseline | ZIP | ratio / figure | target |");
  console.log("|---|---|---|---|---|");
  console.log(`| rate, MB/s (median of ${ROUNDS}) | ${median(reads).toFixed(0)} (storage read, one process) | ${median(zips).toFixed(0)} | ${ratio.toFixed(2)}x | ≥ 0.8x: ${ratio >= 0.8 ? "met" : "NOT met"} |`);
  console.log(`| server RSS growth while streaming | ${formatMegabytes(baselineRss)} before | | +${formatMegabytes(Math.max(0, peakGrowth))} | < 100 MB: ${peakGrowth < 100e6 ? "met" : "NOT met"} |`);
  console.log(`| first byte, first ZIP (heads read) / later (plans remembered) | | | ${firstZipFirstByte.toFixed(0)} ms / ${median(firstBytes.length ? firstBytes : [firstZipFirstByte]).toFixed(0)} ms | |`);
}

runBenchmark(main);
