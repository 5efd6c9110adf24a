// npm run bench:media – requests per second of one public ~300 KB variant through /media of the
// built app (answered by server.mjs's hot cache) against nginx serving the same file, both on
// 127.0.0.1, measured by the same load generator. Needs `npx next build` first.
import fs from "node:fs";
import path from "node:path";
import { type BenchApp, describePhases, expectStatus, makeTemporaryDirectory, median, runBenchmark, type PhotoBody, type PhotoVariantBody, signInAsNewEditor, startBenchApp } from "./bench-app";
import { generateLoad } from "./load-generator";
import { ensureNginx, serveFileWithNginx } from "./nginx-baseline";

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

async function main(): Promise<void> {
  const app = await startBenchApp({ LOG_LEVEL: "warn" });
  const { url: mediaPath, bytes } = await preparePublicVariant(app);
  console.log(`variant: ${mediaPath} (${(bytes.length / 1024).toFixed(0)} KB)`);

  const targets: Array<{ name: string; url: string }> = [{ name: "/media (hot cache)", url: `${app.url}${mediaPath}` }];
  const nginx = ensureNginx();
  if (nginx) {
    const file = path.join(makeTemporaryDirectory("contact-sheet-bench-variant-"), "variant");
    fs.writeFileSync(file, bytes);
    const contentType = mediaPath.endsWith(".webp") ? "image/webp" : "image/jpeg";
    const headers = { "Cache-Control": "public, max-age=31536000, immutable", "X-Content-Type-Options": "nosniff" };
    targets.push({ name: "nginx", url: await serveFileWithNginx({ binary: nginx, urlPath: mediaPath, file, contentType, headers }) });
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
