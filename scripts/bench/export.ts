// npm run bench:export – `contact-sheet export` against copying the same originals with `cp -r`.
// Starts the built app (SQLite, local disk, RUN_WORKER=false: no processing competes), uploads N
// distinct corpus-derived JPEGs as a new editor through tus (the import's own upload), each padded
// after its image data to BENCH_EXPORT_FILE_MB (default 3, a phone photo's size; 0: the corpus
// files as they are, 4-160 KB, where a request per photo outweighs its bytes), then times,
// on the same disk and with the page cache warm for both:
//   - `cp -r` of the site's originals folder (DATA_DIR/media/originals) to a new folder;
//   - the export of the same photos (in-process runExport, the command's default number of
//     originals at once or BENCH_EXPORT_CONCURRENCY: listing, fetching
//     each original over HTTP with its SHA-256 checked, both sidecars, the manifest);
//   - a rerun into the same folder (every original checked by SHA-256, nothing fetched).
// Prints the export's rate as a ratio of cp's (target >= 0.7x). The command's own start (tsx) is
// printed apart: it is paid once per run, whatever the library's size.
// Needs `npx next build` first.   BENCH_EXPORT_FILES=500  BENCH_EXPORT_FILE_MB=3  BENCH_EXPORT_CONCURRENCY=3
// Where the time goes (2026-11-27, 60 files of 3 MB, load average 10-15 on 2 cores): cp 0.13-0.30 s;
// export 2.62 s at 3 at once, 2.33 s at 8; the rerun, which reads and hashes every original and
// rewrites nothing, 0.23-0.44 s. So hashing and sidecars are a small part: the time is in fetching
// each original over HTTP through the Next.js route (GET /api/photos/{id}/original).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import { DEFAULT_EXPORT_CONCURRENCY, runExport } from "@/src/cli/export/run-export";
import { lineReporter } from "@/src/cli/import/import-report";
import { ImportState } from "@/src/cli/import/import-state";
import { hashSource } from "@/src/cli/import/hash-source";
import { runPool } from "@/src/cli/import/run-pool";
import { SiteApi } from "@/src/cli/import/site-api";
import { uploadSource } from "@/src/cli/import/tus-upload";
import { walkSources } from "@/src/cli/import/walk-sources";
import { corpusDerivedJpegs } from "./corpus-jpegs";
import { expectStatus, formatMegabytes, makeTemporaryDirectory, runBenchmark, signInAsNewEditor, startBenchApp } from "./bench-app";

const FILES = Number(process.env.BENCH_EXPORT_FILES ?? 500);
const FILE_MB = Number(process.env.BENCH_EXPORT_FILE_MB ?? 3);
/** Originals fetched at once: the command's default unless told. */
const CONCURRENCY = Number(process.env.BENCH_EXPORT_CONCURRENCY ?? DEFAULT_EXPORT_CONCURRENCY);

async function main(): Promise<void> {
  const app = await startBenchApp({ RUN_WORKER: "false" });
  const editor = await signInAsNewEditor(app);
  const created = await editor.request("/api/tokens", { json: { name: "bench export", scopes: ["upload", "photos:read"], expiresInDays: null } });
  await expectStatus(created, 201, "token");
  const { secret } = (await created.json()) as { secret: string };
  const work = makeTemporaryDirectory("contact-sheet-bench-export-");
  const api = new SiteApi(app.url, secret);

  const sources = path.join(work, "sources");
  corpusDerivedJpegs(sources, FILES, "export");
  if (FILE_MB > 0) {
    // Bytes after the end-of-image marker: decoders ignore them; they give each file a phone photo's size.
    for (const name of fs.readdirSync(sources)) {
      const file = path.join(sources, name);
      const missing = FILE_MB * 1024 * 1024 - fs.statSync(file).size;
      if (missing > 0) fs.appendFileSync(file, Buffer.alloc(missing, name.length));
    }
  }
  const walked = await walkSources([sources], { maxFileBytes: Number.MAX_SAFE_INTEGER });
  const state = ImportState.load(path.join(work, "state.json"), api.origin, "bench");
  await runPool(walked.sources, 3, async (source) => {
    await uploadSource(api, state, source, await hashSource(source), () => {});
  });
  const originals = path.join(app.dataDirectory, "media", "originals");
  const bytes = Number(execFileSync("du", ["-sb", originals]).toString().split("\t")[0]);
  console.log(`${FILES} corpus-derived JPEGs on the site, ${formatMegabytes(bytes)} of originals`);

  // Warm the page cache for both sides with one throw-away copy.
  execFileSync("cp", ["-r", originals, path.join(work, "warm")]);
  let startedAt = performance.now();
  execFileSync("cp", ["-r", originals, path.join(work, "copied")]);
  const copySeconds = (performance.now() - startedAt) / 1000;

  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const target = path.join(work, "exported");
  startedAt = performance.now();
  const first = await runExport({ directory: target, api, all: false, concurrency: CONCURRENCY, reporter: lineReporter(silent, { everyFile: false }) });
  const exportSeconds = (performance.now() - startedAt) / 1000;
  if (first.exported !== FILES || first.failed !== 0) throw new Error(`the export wrote ${first.exported} of ${FILES} (${first.failed} failed)`);
  console.log(`cp -r of the originals: ${copySeconds.toFixed(2)} s; contact-sheet export (${CONCURRENCY} at once): ${exportSeconds.toFixed(2)} s -> rate ${(copySeconds / exportSeconds).toFixed(2)}x of cp's (target >= 0.7x)`);

  startedAt = performance.now();
  const rerun = await runExport({ directory: target, api, all: false, concurrency: CONCURRENCY, reporter: lineReporter(silent, { everyFile: false }) });
  console.log(`rerun into the same folder: ${((performance.now() - startedAt) / 1000).toFixed(2)} s (${rerun.unchanged} unchanged, ${rerun.exported} fetched)`);
}

runBenchmark(main);
