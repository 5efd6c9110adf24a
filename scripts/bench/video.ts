// npm run bench:video – what videos and RAW files cost in the built app against the same work done
// by hand, each ratio measured in this one run (never a wall-clock threshold):
// 1. poster + variants of a generated 1080p clip (upload answered → every variant listed) against
//    ffprobe, the same ffmpeg frame grab and sharp's variants of the same widths run here (target <= 1.2x);
// 2. the playable copy's transcode (every variant listed → playableUrl named) against plain ffmpeg
//    with makePlayableCopy's transcode settings on the same file (target <= 1.1x);
// 3. /media Range requests (1 MiB from the middle) of a ~100 MB public playable copy (answered by
//    server.mjs's fast path, streamed from storage; the Next.js route's figure printed beside)
//    against nginx (Debian's, installed when missing and root) serving the same file, and the
//    server's RSS while 10 clients stream the whole file in parallel (flat: printed with the peak);
// 4. a DNG with a full-size embedded preview: upload answered → every variant listed, against a
//    JPEG of the same pixel size (target <= 1.2x).
// The server runs one worker job at a time (WORKER_CONCURRENCY=1), so each phase is timed alone.
// Needs `npm run build` first. Every file it makes is in a temporary folder, removed at the end.
// BENCH_ROUNDS=3 (rounds of phases 1, 2 and 4); BENCH_VIDEO_PHASES=poster,range,raw (all by default;
// "poster" is phases 1 and 2, which share their uploads) runs only those.
import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { writeTestDng } from "@/src/images/raw/dng-test-writer";
import { AVIF_MAX_WIDTH, AVIF_OPTIONS, getWebpOptions, JPEG_OPTIONS, planVariantWidths } from "@/src/images/variant-plan";
import {
  type BenchApp,
  type BenchClient,
  describePhases,
  expectStatus,
  formatMegabytes,
  makeTemporaryDirectory,
  median,
  type PhotoBody,
  readProcessMemory,
  runBenchmark,
  signInAsNewEditor,
  startBenchApp,
} from "./bench-app";
import { ensureNginx, serveFileWithNginx } from "./nginx-baseline";

const run = promisify(execFile);
const RAW_SOURCE = path.resolve(import.meta.dirname, "../../../shared/corpus/exif-samples/jpg/Canon_40D.jpg");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const RANGE_REQUESTS = 40;
const RANGE_BYTES = 1024 * 1024;
const PARALLEL_STREAMS = 10;
const RAW_WIDTH = 2400;
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 25);
const PHASES = new Set((process.env.BENCH_VIDEO_PHASES ?? "poster,range,raw").split(",").map((phase) => phase.trim()));

interface VideoBody extends PhotoBody {
  video: { playableUrl: string | null } | null;
}

const seconds = (milliseconds: number) => `${(milliseconds / 1000).toFixed(2)} s`;
const ratioLine = (name: string, ratio: number, target: string) => console.log(`ratio ${name}: ${ratio.toFixed(2)}x (target ${target})`);
const loadAverage = () => os.loadavg().map((load) => load.toFixed(2)).join(" ");

/** A 1080p clip (5 s, 30 fps, with sound) in 4:4:4, which no browser plays, so the app transcodes it. */
async function makeTranscodedClip(folder: string): Promise<string> {
  const file = path.join(folder, "clip-1080p.mp4");
  await run("ffmpeg", [
    "-hide_banner", "-loglevel", "error", "-y",
    "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30:duration=5", "-f", "lavfi", "-i", "sine=frequency=440:duration=5",
    "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv444p", "-c:a", "aac", file,
  ]);
  return file;
}

/** A ~100 MB H.264/AAC MP4 under the bitrate setting (noise at 18 Mb/s, 45 s), which the app only remuxes. */
async function makeLargeClip(folder: string): Promise<string> {
  const file = path.join(folder, "large.mp4");
  await run("ffmpeg", [
    "-hide_banner", "-loglevel", "error", "-y",
    "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30:duration=45", "-f", "lavfi", "-i", "sine=frequency=440:duration=45",
    "-vf", "noise=alls=60:allf=t+u", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
    "-b:v", "18M", "-maxrate", "18M", "-bufsize", "36M", "-c:a", "aac", "-movflags", "+faststart", file,
  ], { timeout: 600_000 });
  return file;
}

const CLOCK_TICKS_PER_SECOND = 100; // Linux's USER_HZ (getconf CLK_TCK)

/** utime, stime, cutime and cstime of a process, in ms (cutime/cstime: its children it has waited for). */
function readCpuFields(pid: number): { own: number; waitedChildren: number; parent: number } | null {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // After the command's closing parenthesis: state (field 3), ppid (4), … utime (14), stime (15), cutime (16), cstime (17).
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ms = (index: number) => (Number(fields[index - 3]) * 1000) / CLOCK_TICKS_PER_SECOND;
  return { own: ms(14) + ms(15), waitedChildren: ms(16) + ms(17), parent: Number(fields[4 - 3]) };
}

/**
 * CPU time (ms, all threads) a process has used so far with its children: those it has waited for
 * (ffmpeg, ffprobe) and, when `withLiveChildren`, those still running (the server's ExifTool). At
 * load 15-20 on two shared cores wall times of one round varied 2x, CPU time much less: it is
 * printed beside the wall-time ratios.
 */
function cpuMsOf(pid: number, withLiveChildren: boolean): number {
  const { own, children } = cpuSplitOf(pid, withLiveChildren);
  return own + children;
}

/** cpuMsOf split into the process's own threads (node, sharp) and its children (ffmpeg, ffprobe, ExifTool). */
function cpuSplitOf(pid: number, withLiveChildren: boolean): { own: number; children: number } {
  const self = readCpuFields(pid);
  if (!self) return { own: 0, children: 0 };
  let children = self.waitedChildren;
  if (withLiveChildren) {
    for (const entry of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      const child = readCpuFields(Number(entry));
      if (child?.parent === pid) children += child.own + child.waitedChildren;
    }
  }
  return { own: self.own, children };
}

async function photoOf(client: BenchClient, id: string): Promise<VideoBody> {
  const response = await client.request(`/api/photos/${id}`);
  await expectStatus(response, 200, "photo detail");
  return ((await response.json()) as { photo: VideoBody }).photo;
}

/**
 * Polls every POLL_MS until `done`; answers when it first held, in ms since `since`. Each poll is
 * a request the server answers on the cores the job runs on, so a shorter interval measures more
 * of the bench itself (BENCH_POLL_MS; 25 by default).
 */
async function timeUntil(client: BenchClient, id: string, since: number, done: (photo: VideoBody) => boolean): Promise<number> {
  for (const deadline = Date.now() + 600_000; Date.now() < deadline; ) {
    const photo = await photoOf(client, id);
    if (photo.status === "failed") throw new Error(`photo ${id} failed`);
    if (done(photo)) return performance.now() - since;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error(`photo ${id} did not get there in 10 minutes`);
}

const everyVariant = (photo: VideoBody) => describePhases(photo).isFull && describePhases(photo).isAvifDone;

async function upload(client: BenchClient, file: string, type: string): Promise<string> {
  const answer = await client.uploadFile("/api/upload", file, type);
  if (answer.status !== 201) throw new Error(`upload of ${path.basename(file)}: ${answer.status} ${answer.body}`);
  return (JSON.parse(answer.body) as { photos: Array<{ id: string }> }).photos[0].id;
}

/** What the app does for a video's poster, by hand: ffprobe, the poster frame grab, every variant with sharp. */
async function posterByHand(clip: string, folder: string): Promise<number> {
  const started = performance.now();
  await run("ffprobe", ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", clip]);
  const poster = path.join(folder, "poster.png");
  // extractPosterFrame's arguments (src/video/poster-frame.ts) for a 5 s SDR clip.
  await run("ffmpeg", [
    "-hide_banner", "-nostdin", "-loglevel", "error", "-ss", "0.500", "-i", clip,
    "-map", "0:v:0", "-an", "-sn", "-dn", "-vf", "thumbnail=40,scale=w='min(iw,3840)':h='min(ih,3840)':force_original_aspect_ratio=decrease:force_divisible_by=2",
    "-frames:v", "1", "-f", "image2", "-c:v", "png", "-y", poster,
  ]);
  const image = sharp(poster);
  const { width = 0 } = await image.metadata();
  for (const variantWidth of planVariantWidths(width)) {
    const resized = image.clone().resize({ width: variantWidth });
    await resized.clone().jpeg(JPEG_OPTIONS).toBuffer();
    await resized.clone().webp(getWebpOptions(variantWidth)).toBuffer();
    if (variantWidth <= AVIF_MAX_WIDTH) await resized.clone().avif(AVIF_OPTIONS).toBuffer();
  }
  return performance.now() - started;
}

/** makePlayableCopy's transcode (src/video/playable-copy.ts) as one plain ffmpeg command. */
async function transcodeByHand(clip: string, folder: string): Promise<number> {
  const started = performance.now();
  await run("ffmpeg", [
    "-hide_banner", "-nostdin", "-loglevel", "error", "-i", clip,
    "-map", "0:v:0", "-map", "0:a:0?", "-sn", "-dn", "-map_metadata", "-1", "-map_chapters", "-1",
    "-vf", "scale=w='if(gte(iw,ih),min(iw,1920),min(iw,1080))':h='if(gte(iw,ih),min(ih,1080),min(ih,1920))':force_original_aspect_ratio=decrease:force_divisible_by=2,format=yuv420p",
    "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-maxrate", "8M", "-bufsize", "16M", "-profile:v", "high",
    "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709", "-c:a", "aac", "-b:a", "160k", "-ac", "2",
    "-movflags", "+faststart", "-f", "mp4", "-y", path.join(folder, "by-hand.mp4"),
  ], { timeout: 600_000 });
  return performance.now() - started;
}

/** Median time of `count` sequential 1 MiB Range requests from the middle of the file (one keep-alive connection). */
async function timeRanges(url: string, size: number, count: number): Promise<number> {
  const start = Math.floor(size / 2);
  const range = `bytes=${start}-${start + RANGE_BYTES - 1}`;
  const times: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const started = performance.now();
    const response = await fetch(url, { headers: { Range: range } });
    const body = await response.arrayBuffer();
    if (response.status !== 206 || body.byteLength !== RANGE_BYTES) throw new Error(`${url}: ${response.status}, ${body.byteLength} bytes`);
    times.push(performance.now() - started);
  }
  return median(times);
}

/** Streams the whole file to `count` clients at once (bytes read and dropped), sampling the server's RSS every 20 ms. */
async function streamInParallel(url: string, pid: number, count: number): Promise<{ before: number; peak: number; elapsedMs: number }> {
  const before = readProcessMemory(pid)?.current ?? 0;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, readProcessMemory(pid)?.current ?? 0);
  }, 20);
  const started = performance.now();
  try {
    await Promise.all(
      Array.from(
        { length: count },
        () =>
          new Promise<void>((resolve, reject) => {
            http
              .get(url, (response) => {
                if (response.statusCode !== 200) reject(new Error(`stream: ${response.statusCode}`));
                response.on("data", () => undefined);
                response.on("end", () => resolve());
                response.on("error", reject);
              })
              .on("error", reject);
          }),
      ),
    );
  } finally {
    clearInterval(sampler);
  }
  return { before, peak, elapsedMs: performance.now() - started };
}

async function main(): Promise<void> {
  const folder = makeTemporaryDirectory("contact-sheet-bench-video-");
  console.log(`load average at the start: ${loadAverage()} (2 cores, shared)`);
  const [clip, large] = await Promise.all([makeTranscodedClip(folder), PHASES.has("range") ? makeLargeClip(folder) : null]);
  console.log(`clips: 1080p 5 s 4:4:4 H.264 (${formatMegabytes(fs.statSync(clip).size)})${large ? `, large ${formatMegabytes(fs.statSync(large).size)}` : ""}`);
  const app: BenchApp = await startBenchApp({ LOG_LEVEL: "warn", WORKER_CONCURRENCY: "1" });
  const editor = await signInAsNewEditor(app);
  if (PHASES.has("poster")) await benchPosterAndTranscode(app, editor, clip, folder);
  if (large) await benchRange(app, editor, large, folder);
  if (PHASES.has("raw")) await benchRaw(app, editor, folder);
  console.log(`load average at the end: ${loadAverage()}`);
}

/** 1 and 2: the app and the hand, alternating, ROUNDS times each. */
async function benchPosterAndTranscode(app: BenchApp, editor: BenchClient, clip: string, folder: string): Promise<void> {

  const appPoster: number[] = [];
  const appPosterAfterUpload: number[] = [];
  const [appPosterCpu, appTranscodeCpu, handPosterCpu, handTranscodeCpu, transcodeChildrenCpu]: number[][] = [[], [], [], [], []];
  const appTranscode: number[] = [];
  const handPoster: number[] = [];
  const handTranscode: number[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    const copy = path.join(folder, `clip-${round}.mp4`);
    // A byte changed at the end (in the padding after the last frame of sound): a new file, not a duplicate.
    fs.copyFileSync(clip, copy);
    fs.appendFileSync(copy, Buffer.from([round]));
    const cpuAtStart = cpuMsOf(app.pid, true);
    const started = performance.now();
    const id = await upload(editor, copy, "video/mp4");
    const uploadMs = performance.now() - started;
    const posterMs = await timeUntil(editor, id, started, everyVariant);
    const cpuAtPoster = cpuMsOf(app.pid, true);
    const splitAtPoster = cpuSplitOf(app.pid, true);
    const playableMs = (await timeUntil(editor, id, started, (photo) => Boolean(photo.video?.playableUrl))) - posterMs;
    const splitAtPlayable = cpuSplitOf(app.pid, true);
    transcodeChildrenCpu.push(splitAtPlayable.children - splitAtPoster.children);
    appPoster.push(posterMs);
    appPosterAfterUpload.push(posterMs - uploadMs);
    appTranscode.push(playableMs);
    appPosterCpu.push(cpuAtPoster - cpuAtStart);
    appTranscodeCpu.push(cpuMsOf(app.pid, true) - cpuAtPoster);
    let handCpu = cpuMsOf(process.pid, false);
    handPoster.push(await posterByHand(clip, folder));
    handPosterCpu.push(cpuMsOf(process.pid, false) - handCpu);
    handCpu = cpuMsOf(process.pid, false);
    handTranscode.push(await transcodeByHand(clip, folder));
    handTranscodeCpu.push(cpuMsOf(process.pid, false) - handCpu);
    console.log(
      `round ${round}: poster+variants app ${seconds(posterMs)} (upload answered after ${seconds(uploadMs)}) / hand ${seconds(handPoster.at(-1)!)}; ` +
        `transcode app ${seconds(playableMs)} / hand ${seconds(handTranscode.at(-1)!)} (load ${loadAverage()})`,
    );
    console.log(
      `  CPU: poster+variants app ${seconds(appPosterCpu.at(-1)!)} (the upload included) / hand ${seconds(handPosterCpu.at(-1)!)}; ` +
        `transcode app ${seconds(appTranscodeCpu.at(-1)!)} (${seconds(transcodeChildrenCpu.at(-1)!)} in ffmpeg and ffprobe, the rest the server's own: ` +
        `the job's bookkeeping and the bench's polls) / hand ${seconds(handTranscodeCpu.at(-1)!)}`,
    );
  }
  ratioLine("poster + variants, app / by hand (median)", median(appPoster) / median(handPoster), "<= 1.2x");
  console.log(`ratio poster + variants from the upload's answer, app / by hand (median): ${(median(appPosterAfterUpload) / median(handPoster)).toFixed(2)}x`);
  console.log(`ratio poster + variants in CPU time, app (its polls answered too) / by hand (median): ${(median(appPosterCpu) / median(handPosterCpu)).toFixed(2)}x`);
  console.log(`ratio transcode in CPU time, app (its polls answered too) / plain ffmpeg (median): ${(median(appTranscodeCpu) / median(handTranscodeCpu)).toFixed(2)}x`);
  console.log(`ratio transcode in ffmpeg's and ffprobe's CPU time, app / plain ffmpeg (median): ${(median(transcodeChildrenCpu) / median(handTranscodeCpu)).toFixed(2)}x`);
  ratioLine("transcode, app / plain ffmpeg (median)", median(appTranscode) / median(handTranscode), "<= 1.1x");
}

/** 3: Range and memory on a large public video. */
async function benchRange(app: BenchApp, editor: BenchClient, large: string, folder: string): Promise<void> {
  const largeId = await upload(editor, large, "video/mp4");
  await timeUntil(editor, largeId, performance.now(), (photo) => Boolean(photo.video?.playableUrl));
  const published = await editor.request(`/api/photos/${largeId}`, { method: "PATCH", json: { visibility: "public" } });
  await expectStatus(published, 200, "make the large video public");
  const playablePath = ((await published.json()) as { photo: VideoBody }).photo.video!.playableUrl!;
  const mediaUrl = `${app.url}${playablePath}`;
  // nginx serves the very bytes /media answers; the file's size is theirs (a HEAD may carry no length).
  const served = path.join(folder, "served.mp4");
  fs.writeFileSync(served, Buffer.from(await (await fetch(mediaUrl)).arrayBuffer()));
  const size = fs.statSync(served).size;
  const nginx = ensureNginx();
  if (!nginx) throw new Error("bench:video compares /media with nginx: install Debian's nginx-light (or run as root to have it installed)");
  const nginxUrl = await serveFileWithNginx({ binary: nginx, urlPath: playablePath, file: served, contentType: "video/mp4" });
  // A query string makes server.mjs leave the request to Next.js (the route ignores it): the
  // figure without the fast path, for comparison (what a private video's Range costs).
  const routeUrl = `${mediaUrl}?bench=route`;
  await timeRanges(mediaUrl, size, 5);
  await timeRanges(nginxUrl, size, 5);
  await timeRanges(routeUrl, size, 5);
  const appRange = await timeRanges(mediaUrl, size, RANGE_REQUESTS);
  const nginxRange = await timeRanges(nginxUrl, size, RANGE_REQUESTS);
  const routeRange = await timeRanges(routeUrl, size, RANGE_REQUESTS);
  console.log(
    `Range 1 MiB from the middle of ${formatMegabytes(size)}: /media ${appRange.toFixed(1)} ms (server.mjs's fast path), nginx ${nginxRange.toFixed(1)} ms, ` +
      `via the Next.js route ${routeRange.toFixed(1)} ms (median of ${RANGE_REQUESTS}; load ${loadAverage()})`,
  );
  ratioLine("/media Range / nginx", appRange / nginxRange, "<= 2x");
  console.log(`ratio /media Range via the Next.js route / nginx: ${(routeRange / nginxRange).toFixed(2)}x`);
  const streamed = await streamInParallel(mediaUrl, app.pid, PARALLEL_STREAMS);
  console.log(
    `${PARALLEL_STREAMS} parallel streams of ${formatMegabytes(size)} (${formatMegabytes(size * PARALLEL_STREAMS)} sent in ${seconds(streamed.elapsedMs)}): ` +
      `server RSS ${formatMegabytes(streamed.before)} before, peak ${formatMegabytes(streamed.peak)} (+${formatMegabytes(streamed.peak - streamed.before)}; a whole video held would be +${formatMegabytes(size)} each)`,
  );
}

/** 4: a DNG with a full-size preview against a JPEG of the same pixels, alternating. */
async function benchRaw(app: BenchApp, editor: BenchClient, folder: string): Promise<void> {
  const jpegFile = path.join(folder, "same-size.jpg");
  const dngFile = path.join(folder, "preview.dng");
  const jpeg = await sharp(RAW_SOURCE).rotate().resize({ width: RAW_WIDTH }).jpeg({ quality: 92 }).toBuffer();
  fs.writeFileSync(jpegFile, jpeg);
  const dng = await writeTestDng(RAW_SOURCE, RAW_WIDTH, { previewWidth: RAW_WIDTH, make: "Contact Sheet", model: "Bench DNG" });
  const rawTimes: number[] = [];
  const jpegTimes: number[] = [];
  // How long each upload took to be answered (the DNG is several times the JPEG's bytes).
  const uploadTimes = new Map<number[], number[]>([
    [rawTimes, []],
    [jpegTimes, []],
  ]);
  const cpuTimes = new Map<number[], number[]>([
    [rawTimes, []],
    [jpegTimes, []],
  ]);
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const [file, bytes, times, type] of [
      [dngFile, dng, rawTimes, "image/x-adobe-dng"],
      [jpegFile, jpeg, jpegTimes, "image/jpeg"],
    ] as const) {
      // Another file each round (a byte after the end), so it is not a duplicate of the last.
      fs.writeFileSync(file, Buffer.concat([bytes, Buffer.from([round])]));
      const cpuAtStart = cpuMsOf(app.pid, true);
      const started = performance.now();
      const id = await upload(editor, file, type);
      uploadTimes.get(times)!.push(performance.now() - started);
      times.push(await timeUntil(editor, id, started, everyVariant));
      cpuTimes.get(times)!.push(cpuMsOf(app.pid, true) - cpuAtStart);
    }
    console.log(
      `round ${round}: DNG ${seconds(rawTimes.at(-1)!)} (upload answered after ${seconds(uploadTimes.get(rawTimes)!.at(-1)!)}), ` +
        `JPEG ${seconds(jpegTimes.at(-1)!)} (after ${seconds(uploadTimes.get(jpegTimes)!.at(-1)!)}) (${RAW_WIDTH} px wide; load ${loadAverage()}); ` +
        `CPU: DNG ${seconds(cpuTimes.get(rawTimes)!.at(-1)!)}, JPEG ${seconds(cpuTimes.get(jpegTimes)!.at(-1)!)}`,
    );
  }
  ratioLine("RAW with a full-size preview / JPEG of the same size, every variant (median)", median(rawTimes) / median(jpegTimes), "<= 1.2x");
  const afterUpload = (times: number[]) => median(times.map((time, index) => time - uploadTimes.get(times)![index]));
  console.log(`ratio RAW / JPEG from the upload's answer (median): ${(afterUpload(rawTimes) / afterUpload(jpegTimes)).toFixed(2)}x`);
  console.log(`ratio RAW / JPEG in the server's CPU time, the upload included (median): ${(median(cpuTimes.get(rawTimes)!) / median(cpuTimes.get(jpegTimes)!)).toFixed(2)}x`);
}

runBenchmark(main);
