// The baseline for bench:ingest: the same outputs as the app's processing job, made in one process
// with nothing around them (no HTTP, database, job queue or storage layer). It uses the app's own
// image modules, so widths, formats, qualities and efforts are the same by construction, and the
// ideal schedule: each photo decoded once, its three phases (visible, full, AVIF) and placeholder
// from those pixels, two photos in flight (the worker's default WORKER_CONCURRENCY). With `visible`,
// only what makes a photo visible: a decode at the visible phase's width, the smallest variants and
// the placeholder.
// Usage: tsx --conditions=react-server scripts/bench/ingest-baseline.ts <output-dir> <concurrency> <visible|all> <file>...
// Prints one JSON line: { totalMs, peakRssBytes, outputs, cpuSeconds }.
import fs from "node:fs/promises";
import path from "node:path";
import { decodePhoto } from "@/src/images/photo-decoder";
import { makePlaceholder } from "@/src/images/placeholder-maker";
import { encodeVariants, type VariantPhase } from "@/src/images/variant-encoder";
import { VISIBLE_DECODE_WIDTH } from "@/src/images/variant-plan";

const LIMITS = { maxPixels: 120_000_000, timeoutSeconds: 120 };
const ALL_PHASES: VariantPhase[] = ["visible", "full", "avif"];

async function processOne(filePath: string, outputDirectory: string, onlyVisible: boolean): Promise<number> {
  const decoded = await decodePhoto(filePath, "jpeg", LIMITS, onlyVisible ? { maxWidth: VISIBLE_DECODE_WIDTH } : {});
  let outputs = 0;
  for (const phase of onlyVisible ? ["visible" as const] : ALL_PHASES) {
    const variants = await encodeVariants(decoded, phase, LIMITS);
    if (phase === "visible") await makePlaceholder(variants[0].bytes);
    for (const variant of variants) {
      // Written like the local storage does, minus its fsync and rename.
      await fs.writeFile(path.join(outputDirectory, `${path.basename(filePath)}-${variant.format}-${variant.width}`), variant.bytes);
      outputs += 1;
    }
  }
  return outputs;
}

async function main(): Promise<void> {
  const [outputDirectory, concurrencyText, phases, ...files] = process.argv.slice(2);
  const concurrency = Number(concurrencyText);
  const startedAt = performance.now();
  let next = 0;
  let outputs = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < files.length) {
        const made = await processOne(files[next++], outputDirectory, phases === "visible");
        outputs += made;
      }
    }),
  );
  const totalMs = performance.now() - startedAt;
  const usage = process.resourceUsage();
  const cpuSeconds = (usage.userCPUTime + usage.systemCPUTime) / 1e6;
  console.log(JSON.stringify({ totalMs, peakRssBytes: usage.maxRSS * 1024, outputs, cpuSeconds }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
