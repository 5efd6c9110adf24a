// npm run bench:media – requests per second of one public ~300 KB variant through /media of the
// built app (answered by server.mjs's hot cache) against nginx serving the same file, both on
// 127.0.0.1, measured by the same load generator. Needs `npx next build` first.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { findFreePort } from "../../tests/helpers/server-process";
import { type BenchApp, describePhases, expectStatus, makeTemporaryDirectory, median, onCleanup, runBenchmark, type PhotoBody, type PhotoVariantBody, signInAsNewEditor, startBenchApp } from "./bench-app";
import { generateLoad } from "./load-generator";

const PHOTO = path.resolve(import.meta.dirname, "../../../shared/corpus/exif-samples/jpg/mobile/HMD_Nokia_8.3_5G.jpg");
const TARGET_BYTES = 300 * 1024;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const WARM_UP_MS = 3_000;
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 5_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

/** Uploads the photo as an editor, makes it public and answers its variant closest to 300 KB. */
async function preparePublicVariant(app: BenchApp): Promise<{ url: string; bytes: Buffer }> {
  const editor = await signInAsNewEditor(app);
  const form = new FormData();
  form.append("file", await fs.openAsBlob(PHOTO, { type: "image/jpeg" }), path.basename(PHOTO));
  const uploaded = await editor.request("/api/upload", { body: form });
  await expectStatus(uploaded, 201, "upload");
  const { photos } = (await uploaded.json()) as { photos: Array<{ id: string }> };
  const id = photos[0].id;

  // Every phase done, AVIF included, so that no processing competes with the measurement.
  let variants: PhotoVariantBody[] = [];
  for (let attempt = 0; ; attempt += 1) {
    const { photo } = (await (await editor.request(`/api/photos/${id}`)).json()) as { photo: PhotoBody };
    if (photo.status === "failed") throw new Error("processing failed");
    variants = photo.variants.filter((variant) => variant.format !== "avif");
    if (describePhases(photo).isAvifDone && describePhases(photo).isFull) break;
    if (attempt > 600) throw new Error("processing did not finish in 2 minutes");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await expectStatus(await editor.request(`/api/photos/${id}`, { method: "PATCH", json: { visibility: "public" } }), 200, "make public");

  const sized = await Promise.all(
    variants.map(async (variant) => ({ variant, size: (await (await fetch(new URL(variant.url, app.url))).arrayBuffer()).byteLength })),
  );
  const closest = sized.sort((left, right) => Math.abs(left.size - TARGET_BYTES) - Math.abs(right.size - TARGET_BYTES))[0];
  // This full GET goes through the route, which offers the bytes to the hot cache.
  const response = await fetch(new URL(closest.variant.url, app.url));
  await expectStatus(response, 200, "first GET of the variant");
  return { url: closest.variant.url, bytes: Buffer.from(await response.arrayBuffer()) };
}

function findNginx(): string | null {
  for (const candidate of ["/usr/sbin/nginx", "/usr/bin/nginx"]) if (fs.existsSync(candidate)) return candidate;
  const found = spawnSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" }).stdout.trim();
  return found || null;
}

/** nginx from Debian's package, installed when missing and we may (root); null when it cannot be had. */
function ensureNginx(): string | null {
  const existing = findNginx();
  if (existing) return existing;
  if (process.getuid?.() !== 0) return null;
  console.log("nginx is not installed: installing the Debian package…");
  spawnSync("apt-get", ["install", "-y", "-q", "nginx"], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  return findNginx();
}

/** nginx in the foreground with a minimal config of our own, serving `file` at `urlPath`; stopped by PID at clean-up. */
async function startNginx(binary: string, urlPath: string, bytes: Buffer): Promise<string> {
  const prefix = makeTemporaryDirectory("contact-sheet-bench-nginx-");
  const root = path.join(prefix, "root");
  const filePath = path.join(root, urlPath);
  fs.mkdirSync(path.dirname(filePath), { recursive: true });
  fs.writeFileSync(filePath, bytes);
  // nginx's workers drop to `nobody` when started as root: the public copy must be readable to them.
  for (let directory = path.dirname(filePath); directory.startsWith(prefix); directory = path.dirname(directory)) fs.chmodSync(directory, 0o755);
  fs.chmodSync(filePath, 0o644);
  const port = await findFreePort();
  const contentType = urlPath.endsWith(".webp") ? "image/webp" : "image/jpeg";
  // One worker: the app is one Node.js process (one core for JavaScript), and the load generator
  // needs the other core. sendfile, no access log: nginx as people run it for static files.
  fs.writeFileSync(
    path.join(prefix, "nginx.conf"),
    `worker_processes 1;
daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  client_body_temp_path ${prefix}/client_body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  types { }
  default_type ${contentType};
  server {
    listen 127.0.0.1:${port};
    root ${root};
    add_header Cache-Control "public, max-age=31536000, immutable";
    add_header X-Content-Type-Options nosniff;
  }
}
`,
  );
  const child: ChildProcess = spawn(binary, ["-p", prefix, "-c", path.join(prefix, "nginx.conf"), "-e", path.join(prefix, "error.log")], { stdio: ["ignore", "inherit", "inherit"] });
  onCleanup(
    () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        // QUIT: graceful stop of the master and its worker.
        child.kill("SIGQUIT");
        setTimeout(() => child.kill("SIGKILL"), 3000).unref();
      }),
  );
  const url = `http://127.0.0.1:${port}${urlPath}`;
  for (let attempt = 0; attempt < 50; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}; see ${prefix}/error.log`);
    try {
      const response = await fetch(url);
      const body = Buffer.from(await response.arrayBuffer());
      if (response.status === 200 && body.equals(bytes)) return url;
      throw new Error(`nginx answered ${response.status}`);
    } catch (error) {
      if (attempt === 49) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return url;
}

async function main(): Promise<void> {
  const app = await startBenchApp({ LOG_LEVEL: "warn" });
  const { url: mediaPath, bytes } = await preparePublicVariant(app);
  console.log(`variant: ${mediaPath} (${(bytes.length / 1024).toFixed(0)} KB)`);

  const targets: Array<{ name: string; url: string }> = [{ name: "/media (hot cache)", url: `${app.url}${mediaPath}` }];
  const nginx = ensureNginx();
  if (nginx) {
    targets.push({ name: "nginx", url: await startNginx(nginx, mediaPath, bytes) });
  } else {
    console.log("nginx is not installed and could not be installed (needs root and the Debian archive): measuring the app only.");
  }
  // A query string makes server.mjs leave the request to Next.js (the route ignores it): the
  // figure without the fast path, for comparison.
  targets.push({ name: "/media via Next.js route", url: `${app.url}${mediaPath}?bench=route` });

  console.log(`load: ${CONNECTIONS} keep-alive connections, ${WARM_UP_MS / 1000} s warm-up each, ${ROUNDS} rounds of ${ROUND_MS / 1000} s, alternating`);
  for (const target of targets) await generateLoad(target.url, { connections: CONNECTIONS, durationMs: WARM_UP_MS });
  const results = new Map<string, number[]>(targets.map((target) => [target.name, []]));
  for (let round = 1; round <= ROUNDS; round += 1) {
    const line: string[] = [];
    for (const target of targets) {
      const result = await generateLoad(target.url, { connections: CONNECTIONS, durationMs: ROUND_MS });
      results.get(target.name)?.push(result.requestsPerSecond);
      line.push(`${target.name} ${result.requestsPerSecond.toFixed(0)} req/s`);
    }
    console.log(`round ${round}: ${line.join(", ")}`);
  }

  console.log("\nmedian requests/s:");
  for (const [name, values] of results) console.log(`  ${name.padEnd(26)} ${median(values).toFixed(0)}`);
  const hot = median(results.get("/media (hot cache)") ?? []);
  const route = median(results.get("/media via Next.js route") ?? []);
  if (nginx) {
    const reference = median(results.get("nginx") ?? []);
    console.log(`ratio /media (hot cache) / nginx: ${(hot / reference).toFixed(2)}x (target >= 0.5x)`);
    console.log(`ratio /media via Next.js route / nginx: ${(route / reference).toFixed(2)}x`);
  }
  console.log(`hot cache / Next.js route: ${(hot / route).toFixed(1)}x`);
}

runBenchmark(main);
