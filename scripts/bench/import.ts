// npm run bench:import – what `contact-sheet import` adds to an upload, and what a rerun costs.
// Starts the built app (SQLite, local disk, RUN_WORKER=false so photo processing does not compete
// with the uploads being timed), signs in a new editor with an upload token, and measures, with
// ratios against baselines taken in the same run (never an absolute pass/fail):
//   1. importing N distinct corpus-derived JPEGs (corpus camera JPEGs, each given its own trailer
//      after the image data) with the command, against uploading N other such files through the same
//      tus endpoint with the upload page's parallelism (3 at once, 8 MiB chunks) and nothing else
//      (target ≤ 1.15x: what the command adds is its start, hashing and the batch check);
//   2. the command's hashing rate over those files against `sha256sum` over the same files
//      (target ≥ 0.8x);
//   3. a rerun over the same unchanged tree (stat only: "0 new"), against the first run (target
//      ≤ 0.02x at 10,000 files; BENCH_IMPORT_RERUN_FILES generated small files, 0 to skip);
//   4. the command's peak resident memory on a rerun with BENCH_IMPORT_STATE_FILES entries in its
//      state file (target ≤ 200 MB at 100,000).
// Needs `npx next build` first.   BENCH_IMPORT_FILES=200  BENCH_IMPORT_RERUN_FILES=10000  BENCH_IMPORT_STATE_FILES=100000
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import sharp from "sharp";
import { hashSource } from "@/src/cli/import/hash-source";
import { ImportState } from "@/src/cli/import/import-state";
import { runPool } from "@/src/cli/import/run-pool";
import { SiteApi } from "@/src/cli/import/site-api";
import { uploadSource } from "@/src/cli/import/tus-upload";
import { walkSources } from "@/src/cli/import/walk-sources";
import { corpusDerivedJpegs } from "./corpus-jpegs";
import { expectStatus, formatMegabytes, makeTemporaryDirectory, readProcessMemory, runBenchmark, signInAsNewEditor, startBenchApp } from "./bench-app";

const FILES = Number(process.env.BENCH_IMPORT_FILES ?? 200);
const RERUN_FILES = Number(process.env.BENCH_IMPORT_RERUN_FILES ?? 10_000);
const STATE_FILES = Number(process.env.BENCH_IMPORT_STATE_FILES ?? 100_000);
const ROOT = path.resolve(import.meta.dirname, "../..");
const TSX = createRequire(import.meta.url).resolve("tsx");

/** Runs the command as bin/contact-sheet.mjs does, but as one process, so its memory is its own. */
function runCommand(args: string[], env: Record<string, string>): Promise<{ seconds: number; peakRss: number; stdout: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const startedAt = performance.now();
    const child = spawn(process.execPath, ["--max-semi-space-size=2", "--conditions=react-server", "--import", TSX, path.join(ROOT, "src/cli/main.ts"), ...args], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", NODE_ENV: "production", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let peakRss = 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, child.pid ? (readProcessMemory(child.pid)?.peak ?? 0) : 0)), 20);
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => {
      clearInterval(sampler);
      if (code !== 0) reject(new Error(`contact-sheet ${args.join(" ")} exited ${code}:\n${stderr}`));
      resolve({ seconds: (performance.now() - startedAt) / 1000, peakRss, stdout, code });
    });
  });
}

function summaryOf(stdout: string): Record<string, number> {
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as Record<string, number>;
}

const ratio = (value: number, base: number) => `${(value / base).toFixed(2)}x`;

async function main(): Promise<void> {
  const app = await startBenchApp({ RUN_WORKER: "false" });
  const editor = await signInAsNewEditor(app);
  const created = await editor.request("/api/tokens", { json: { name: "bench import", scopes: ["upload"], expiresInDays: null } });
  await expectStatus(created, 201, "token");
  const { secret } = (await created.json()) as { secret: string };
  const work = makeTemporaryDirectory("contact-sheet-bench-import-");
  const env = { CONTACT_SHEET_URL: app.url, CONTACT_SHEET_TOKEN: secret };
  const statePath = path.join(work, "state.json");

  const imported = path.join(work, "import");
  const baseline = path.join(work, "baseline");
  corpusDerivedJpegs(imported, FILES, "import");
  corpusDerivedJpegs(baseline, FILES, "baseline");
  const bytes = fs.readdirSync(imported).reduce((sum, name) => sum + fs.statSync(path.join(imported, name)).size, 0);
  console.log(`${FILES} corpus-derived JPEGs each side, ${formatMegabytes(bytes)} per side`);

  // 1. The upload page's way: tus, 3 at once, nothing else. Then the command over the other set.
  const api = new SiteApi(app.url, secret);
  const baselineState = ImportState.load(path.join(work, "baseline-state.json"), api.origin, "bench");
  const walkedBaseline = await walkSources([baseline], { maxFileBytes: Number.MAX_SAFE_INTEGER });
  let startedAt = performance.now();
  await runPool(walkedBaseline.sources, 3, async (source) => {
    await uploadSource(api, baselineState, source, createHash("sha256").update(source.key).digest("hex"), () => {});
  });
  const baselineSeconds = (performance.now() - startedAt) / 1000;
  const first = await runCommand(["import", imported, "--json", "--state", statePath], env);
  const firstSummary = summaryOf(first.stdout);
  if (firstSummary.uploaded !== FILES) throw new Error(`the import uploaded ${firstSummary.uploaded} of ${FILES}`);
  console.log(`1. upload page's way (tus, 3 at once): ${baselineSeconds.toFixed(2)} s; contact-sheet import: ${first.seconds.toFixed(2)} s -> ${ratio(first.seconds, baselineSeconds)} (target <= 1.15x)`);

  // 2. Hashing: the command's hashSource, one file after another as sha256sum does, page cache warm for both.
  const walked = await walkSources([imported], { maxFileBytes: Number.MAX_SAFE_INTEGER });
  const files = walked.sources.map((source) => source.key);
  execFileSync("sha256sum", files);
  startedAt = performance.now();
  execFileSync("sha256sum", files);
  const sha256sumSeconds = (performance.now() - startedAt) / 1000;
  startedAt = performance.now();
  for (const source of walked.sources) await hashSource(source);
  const hashSeconds = (performance.now() - startedAt) / 1000;
  console.log(`2. hashing ${formatMegabytes(bytes)}: sha256sum ${sha256sumSeconds.toFixed(3)} s, contact-sheet ${hashSeconds.toFixed(3)} s -> rate ${ratio(sha256sumSeconds, hashSeconds)} of sha256sum's (target >= 0.8x)`);

  // 3. A rerun over the unchanged tree, and over RERUN_FILES generated small files.
  const rerun = await runCommand(["import", imported, "--json", "--state", statePath], env);
  console.log(`3. rerun over the ${FILES} unchanged files: ${rerun.seconds.toFixed(2)} s, peak RSS ${formatMegabytes(rerun.peakRss)} (${JSON.stringify(summaryOf(rerun.stdout))}) -> ${ratio(rerun.seconds, first.seconds)} of the first run`);
  const started = await runCommand(["--version"], env);
  console.log(`   (the command's own start, --version: ${started.seconds.toFixed(2)} s)`);
  if (RERUN_FILES > 0) {
    const small = path.join(work, "small");
    fs.mkdirSync(small);
    const tile = await sharp({ create: { width: 16, height: 16, channels: 3, background: { r: 90, g: 120, b: 150 } } }).jpeg().toBuffer();
    for (let index = 0; index < RERUN_FILES; index += 1) fs.writeFileSync(path.join(small, `small-${index}.jpg`), Buffer.concat([tile, Buffer.from(String(index))]));
    const smallState = path.join(work, "small-state.json");
    const smallFirst = await runCommand(["import", small, "--json", "--state", smallState], env);
    const smallRerun = await runCommand(["import", small, "--json", "--state", smallState], env);
    console.log(
      `   ${RERUN_FILES} small files: first run ${smallFirst.seconds.toFixed(1)} s, rerun ${smallRerun.seconds.toFixed(2)} s (${JSON.stringify(summaryOf(smallRerun.stdout))}) -> ${ratio(smallRerun.seconds, smallFirst.seconds)} (targets <= 5 s, <= 0.02x)`,
    );
  }

  // 4. Memory: a rerun whose state file also remembers STATE_FILES other files.
  // Appended in the state file's own form (one JSON line per file, src/cli/import/import-state.ts), for the account the runs above wrote.
  const [, firstEntry] = fs.readFileSync(statePath, "utf8").split("\n", 2);
  const { account } = JSON.parse(firstEntry) as { account: string };
  const lines: string[] = [];
  for (let index = 0; index < STATE_FILES; index += 1) {
    const file = `/home/someone/Pictures/${2000 + (index % 25)}/${String(index % 12).padStart(2, "0")}/IMG_${String(index).padStart(6, "0")}.jpg`;
    lines.push(
      JSON.stringify({
        account,
        file,
        size: 3_000_000 + index,
        mtimeMs: 1_600_000_000_000 + index * 1000,
        sha256: createHash("sha256").update(String(index)).digest("hex"),
        photoId: crypto.randomUUID(),
      }),
    );
  }
  fs.appendFileSync(statePath, `${lines.join("\n")}\n`);
  const withLargeState = await runCommand(["import", imported, "--json", "--state", statePath], env);
  console.log(
    `4. rerun with ${STATE_FILES} more files in the state (${formatMegabytes(fs.statSync(statePath).size)} file): ${withLargeState.seconds.toFixed(2)} s, peak RSS ${formatMegabytes(withLargeState.peakRss)} (target <= 200 MB)`,
  );
}

runBenchmark(main);
