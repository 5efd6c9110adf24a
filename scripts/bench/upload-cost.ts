// npm run bench:upload-cost – where one upload's server CPU goes: noisy 24 MP JPEGs posted one
// after another (multipart POST /api/upload) to the built app with no worker (RUN_WORKER=false),
// and the server's CPU time per thread from /proc, divided by the uploads. The libvips threads do
// the upload check's decode; the main thread ("node") receives, hashes, stores and answers.
import fs from "node:fs";
import { makeTemporaryDirectory, runBenchmark, signInAsNewEditor, startBenchApp } from "./bench-app";
import { generateNoisyPhotos } from "./noisy-photos";

const UPLOADS = Number(process.env.BENCH_PHOTOS ?? 8);

/** CPU milliseconds (user + system) per thread name of a process so far, threads of one name summed. */
function readCpuByThreadName(pid: number): Map<string, number> {
  const cpu = new Map<string, number>();
  for (const threadId of fs.readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/task/${threadId}/stat`, "utf8");
    } catch {
      continue; // The thread ended meanwhile.
    }
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime in clock ticks of 10 ms (USER_HZ 100 on Linux).
    cpu.set(name, (cpu.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10);
  }
  return cpu;
}

async function main(): Promise<void> {
  // One more than measured: the first upload warms the server up (route compilation, caches).
  const [warmUp, ...files] = await generateNoisyPhotos(makeTemporaryDirectory("contact-sheet-bench-photos-"), UPLOADS + 1);
  const app = await startBenchApp({ LOG_LEVEL: "warn", RUN_WORKER: "false" });
  const editor = await signInAsNewEditor(app);
  await editor.uploadFile("/api/upload", warmUp, "image/jpeg");

  const before = readCpuByThreadName(app.pid);
  const startedAt = performance.now();
  for (const file of files) {
    const response = await editor.uploadFile("/api/upload", file, "image/jpeg");
    if (response.status !== 201) throw new Error(`upload: ${response.status} ${response.body}`);
  }
  const wallMs = performance.now() - startedAt;
  const after = readCpuByThreadName(app.pid);

  let totalMs = 0;
  console.log(`server CPU per upload, by thread (${files.length} uploads one after another):`);
  for (const [name, ms] of after) {
    const spent = ms - (before.get(name) ?? 0);
    totalMs += spent;
    if (spent > 0) console.log(`  ${name}: ${(spent / files.length).toFixed(0)} ms`);
  }
  console.log(`  all threads: ${(totalMs / files.length).toFixed(0)} ms; wall ${(wallMs / files.length).toFixed(0)} ms per upload`);
}

runBenchmark(main);
