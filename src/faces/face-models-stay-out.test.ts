import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The web process never loads the face models (issue 32): only the detector's own process
// (face-detector-process.mjs, forked by face-detector-launcher.mjs, which face-detector.ts imports unbundled), through
// face-models.mjs, may import face-api or TensorFlow.js. A module anywhere else that imported them would put the models (and the WASM
// runtime) into the server's bundle and memory, whether the worker runs there or not.

const ROOT = path.resolve(import.meta.dirname, "../..");
const SCANNED = ["src", "app", "scripts", "proxy.ts", "server.mjs", "instrumentation.ts"];
const DETECTOR = "src/faces/face-detector-process.mjs";
const MODELS = "src/faces/face-models.mjs";
// bench:faces measures face-api alone beside the detector; it runs on its own, never in the server.
const BENCH = "scripts/bench/faces.ts";
const MODEL_PACKAGES = /["'](@vladmandic\/face-api|@tensorflow\/[^"']+)["']/;

function sourceFiles(entry: string): string[] {
  const full = path.join(ROOT, entry);
  if (!fs.existsSync(full)) return [];
  if (fs.statSync(full).isFile()) return [entry];
  return fs.readdirSync(full).flatMap((name) => (name === "node_modules" ? [] : sourceFiles(path.join(entry, name))));
}

describe("the face models stay in the detector's process", () => {
  it("no module but the detector process names face-api or TensorFlow.js", () => {
    const offenders = SCANNED.flatMap(sourceFiles)
      .filter((file) => /\.(ts|tsx|mjs|cjs|js)$/.test(file) && !/\.test\.tsx?$/.test(file) && file !== MODELS && file !== BENCH)
      .filter((file) => MODEL_PACKAGES.test(fs.readFileSync(path.join(ROOT, file), "utf8")));
    expect(offenders).toEqual([]);
  });

  it("the models module does, the detector process loads it; the launcher forks that process, and the server imports the launcher unbundled", () => {
    expect(fs.readFileSync(path.join(ROOT, MODELS), "utf8")).toMatch(MODEL_PACKAGES);
    expect(fs.readFileSync(path.join(ROOT, DETECTOR), "utf8")).toContain('"./face-models.mjs"');
    expect(fs.readFileSync(path.join(ROOT, "src/faces/face-detector-launcher.mjs"), "utf8")).toContain(`"${path.basename(DETECTOR)}"`);
    const detector = fs.readFileSync(path.join(ROOT, "src/faces/face-detector.ts"), "utf8");
    expect(detector).toContain('"face-detector-launcher.mjs"');
    expect(detector).toContain("/* turbopackIgnore: true */");
  });
});
