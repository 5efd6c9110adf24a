// npm run bench:ingest – upload-to-done of 20 generated 24 MP JPEGs through the real API
// (multipart POST /api/upload as an editor) and the real worker (in the server process), against
// scripts/bench/ingest-baseline.ts making the same outputs in one process. Needs `npx next build`.
// Prints the visible-phase and total ratios, time to first visible per photo (upload start to status ready) and the
// server's peak RSS.
import { spawnSync } from "node:child_process";
import path from "node:path";
import {
  describePhases,
  expectStatus,
  formatMegabytes,
  makeTemporaryDirectory,
  median,
  percentile,
  type PhotoBody,
  readProcessCpuSeconds,
  readProcessMemory,
  runBenchmark,
  signInAsNewEditor,
  startBenchApp,
} from "./bench-app";
import { openTestDatabase } from "../../tests/helpers/test-database";
import { generateNoisyPhotos } from "./noisy-photos";

const PHOTO_COUNT = Number(process.env.BENCH_PHOTOS ?? 20);
// Coarse enough to cost the server little (measured: about 1.5 CPU-s less than at 100 ms over a run).
const POLL_MS = 500;
// As the upload page does (Uppy's tus uploader, `limit: 3` in photo-uploader.tsx); BENCH_UPLOADS=1
// sends them one after another.
const UPLOAD_CONCURRENCY = Number(process.env.BENCH_UPLOADS ?? 3);
const TIMEOUT_MS = 15 * 60_000;
const ROOT = path.resolve(import.meta.dirname, "../..");

interface BaselineResult {
  totalMs: number;
  peakRssBytes: number;
  outputs: number;
  cpuSeconds: number;
}

function runBaseline(files: string[], concurrency: number, phases: "visible" | "all"): BaselineResult {
  const outputDirectory = makeTemporaryDirectory("contact-sheet-bench-baseline-");
  const run = spawnSync(
    process.execPath,
    [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "--conditions=react-server", path.join(ROOT, "scripts/bench/ingest-baseline.ts"), outputDirectory, String(concurrency), phases, ...files],
    { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  );
  if (run.status !== 0) throw new Error(`the baseline failed (${run.status})`);
  return JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}") as BaselineResult;
}

/**
 * When each photo became ready (its row's updated_at: in this run only the visible phase writes it)
 * and when its last job finished (the finish job, AVIF included), from the server's own SQLite
 * database after the run: exact, where polling sees them up to POLL_MS late. `toBenchTime` maps
 * the server's timestamps onto this process's performance.now() (one machine, one clock).
 */
async function readServerTimes(dataDirectory: string, toBenchTime: (iso: string) => number): Promise<Map<string, { readyAt: number; doneAt: number }>> {
  const db = openTestDatabase({ dataDirectory });
  try {
    const photos = await db.selectFrom("photos").select(["id", "updated_at"]).where("status", "=", "ready").execute();
    const jobs = await db
      .selectFrom("jobs")
      .select(({ fn }) => ["photo_id", fn.max("updated_at").as("done_at")])
      .where("status", "=", "done")
      .groupBy("photo_id")
      .execute();
    const doneAt = new Map(jobs.map((job) => [job.photo_id, toBenchTime(job.done_at)]));
    return new Map(photos.map((photo) => [photo.id, { readyAt: toBenchTime(photo.updated_at), doneAt: doneAt.get(photo.id) ?? Infinity }]));
  } finally {
    await db.destroy();
  }
}

function cpuSeconds(usage: NodeJS.CpuUsage): string {
  return ((usage.user + usage.system) / 1e6).toFixed(1);
}

interface PhotoTimes {
  uploadStartedAt: number;
  uploadedAt: number;
  readyAt?: number;
  fullAt?: number;
  avifAt?: number;
}

async function main(): Promise<void> {
  const workerConcurrency = Number(process.env.WORKER_CONCURRENCY ?? 2);
  const files = await generateNoisyPhotos(makeTemporaryDirectory("contact-sheet-bench-photos-"), PHOTO_COUNT);

  console.log(`baseline: the app's image modules in one process, ${workerConcurrency} photos in flight…`);
  const baseline = runBaseline(files, workerConcurrency, "all");
  console.log(`baseline: ${baseline.outputs} outputs in ${(baseline.totalMs / 1000).toFixed(1)} s, peak RSS ${formatMegabytes(baseline.peakRssBytes)}`);
  const visibleBaseline = runBaseline(files, workerConcurrency, "visible");
  console.log(`baseline, visible phase only: ${visibleBaseline.outputs} outputs in ${(visibleBaseline.totalMs / 1000).toFixed(1)} s`);

  const app = await startBenchApp({ LOG_LEVEL: "warn", WORKER_CONCURRENCY: String(workerConcurrency) });
  const editor = await signInAsNewEditor(app);
  const idleRss = readProcessMemory(app.pid)?.current ?? 0;
  const idleCpuSeconds = readProcessCpuSeconds(app.pid) ?? 0;
  const clientCpuBefore = process.cpuUsage();
  let peakRssSampled = 0;
  const sampler = setInterval(() => {
    peakRssSampled = Math.max(peakRssSampled, readProcessMemory(app.pid)?.current ?? 0);
  }, 50);

  console.log(`app: uploading ${files.length} photos, ${UPLOAD_CONCURRENCY} at a time, worker concurrency ${workerConcurrency}…`);
  const times = new Map<string, PhotoTimes>();
  const startedAt = performance.now();
  const startedAtEpochMs = Date.now();
  let nextFile = 0;
  const uploadOne = async (file: string) => {
    const uploadStartedAt = performance.now();
    const response = await editor.uploadFile("/api/upload", file, "image/jpeg");
    if (response.status !== 201) throw new Error(`upload of ${path.basename(file)}: ${response.status} ${response.body}`);
    const { photos } = JSON.parse(response.body) as { photos: Array<{ id: string }> };
    times.set(photos[0].id, { uploadStartedAt, uploadedAt: performance.now() });
  };
  const uploading = Promise.all(
    Array.from({ length: UPLOAD_CONCURRENCY }, async () => {
      while (nextFile < files.length) await uploadOne(files[nextFile++]);
    }),
  );

  // One list request per poll (GET /api/photos?owner=me) rather than one GET /api/photos/{id} per
  // photo: 20 requests every 100 ms would take a noticeable share of the CPU being measured.
  let isUploadDone = false;
  let clientCpuWhileUploading = { user: 0, system: 0 };
  void uploading.then(() => {
    isUploadDone = true;
    clientCpuWhileUploading = process.cpuUsage(clientCpuBefore);
  });
  while (true) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    if (performance.now() - startedAt > TIMEOUT_MS) throw new Error("not done after 15 minutes");
    const response = await editor.request("/api/photos?owner=me&limit=100");
    await expectStatus(response, 200, "list");
    const now = performance.now();
    const { photos } = (await response.json()) as { photos: PhotoBody[] };
    for (const photo of photos) {
      const photoTimes = times.get(photo.id);
      if (!photoTimes) continue; // Uploaded, but its answer has not arrived yet.
      if (photo.status === "failed") throw new Error(`photo ${photo.id} failed`);
      const phases = describePhases(photo);
      if (phases.isVisible) photoTimes.readyAt ??= now;
      if (phases.isFull) photoTimes.fullAt ??= now;
      if (phases.isAvifDone) photoTimes.avifAt ??= now;
    }
    if (isUploadDone && times.size === files.length && [...times.values()].every((photoTimes) => photoTimes.avifAt !== undefined)) break;
  }
  await uploading;
  clearInterval(sampler);
  const memory = readProcessMemory(app.pid);
  const serverCpuSeconds = (readProcessCpuSeconds(app.pid) ?? 0) - idleCpuSeconds;
  const clientCpu = process.cpuUsage(clientCpuBefore);
  // Ready and done exactly, as the server recorded them; every JPEG/WebP width only as polled.
  const serverTimes = await readServerTimes(app.dataDirectory, (iso) => startedAt + (Date.parse(iso) - startedAtEpochMs));
  for (const [id, photoTimes] of times) {
    photoTimes.readyAt = serverTimes.get(id)?.readyAt;
    photoTimes.avifAt = serverTimes.get(id)?.doneAt;
  }

  const all = [...times.values()];
  const latest = (pick: (photoTimes: PhotoTimes) => number | undefined) => Math.max(...all.map((photoTimes) => (pick(photoTimes) ?? Infinity) - startedAt));
  const uploadsMs = latest((photoTimes) => photoTimes.uploadedAt);
  const readyMs = latest((photoTimes) => photoTimes.readyAt);
  const fullMs = latest((photoTimes) => photoTimes.fullAt);
  const totalMs = latest((photoTimes) => photoTimes.avifAt);
  const firstVisible = all.map((photoTimes) => ((photoTimes.readyAt ?? Infinity) - photoTimes.uploadStartedAt) / 1000);
  const afterUpload = all.map((photoTimes) => Math.max(0, (photoTimes.readyAt ?? Infinity) - photoTimes.uploadedAt) / 1000);
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

  console.log(`app: all uploaded after ${seconds(uploadsMs)}, all visible (ready) after ${seconds(readyMs)}, all JPEG/WebP after ${seconds(fullMs)} (polled), all AVIF after ${seconds(totalMs)}`);
  console.log(`\nvisible phase (every photo's smallest variants and placeholder) app / baseline: ${(readyMs / visibleBaseline.totalMs).toFixed(2)}x (target <= 1.10x)`);
  console.log(`total (every output, AVIF included) app / baseline: ${(totalMs / baseline.totalMs).toFixed(2)}x`);
  console.log(`time to first visible per photo (upload start to ready): median ${median(firstVisible).toFixed(1)} s, p95 ${percentile(firstVisible, 95).toFixed(1)} s`);
  console.log(
    `wait after the upload's answer until ready: median ${median(afterUpload).toFixed(2)} s, p95 ${percentile(afterUpload, 95).toFixed(2)} s`,
  );
  console.log(
    `CPU: server ${serverCpuSeconds.toFixed(1)} s, this benchmark's client ${cpuSeconds(clientCpu)} s (${cpuSeconds(clientCpuWhileUploading)} s of it while uploading); baseline ${baseline.cpuSeconds.toFixed(1)} s (user + system, all threads)`,
  );
  console.log(
    `server peak RSS: ${formatMegabytes(memory?.peak ?? 0)} (VmHWM; sampled VmRSS max ${formatMegabytes(peakRssSampled)}, idle ${formatMegabytes(idleRss)}; target <= 1024 MiB); baseline process ${formatMegabytes(baseline.peakRssBytes)}`,
  );
}

runBenchmark(main);
