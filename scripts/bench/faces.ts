// npm run bench:faces – what face detection as the app runs it costs, against face-api alone (issue 32).
// On the same inputs (face-api's six demo photos and the corpus portrait and its EXIF-turned copy,
// each first made into a 1200 px JPEG as the app's variant is), per photo:
// - ours: the job's path from the variant's bytes: decode and resize to 1024 px raw RGB (sharp),
//   hand the pixels to the detector's own process over IPC, get boxes and descriptors back;
// - face-api alone: detectAllFaces().withFaceLandmarks().withFaceDescriptors() in this process on
//   the same 1024 px pixels, already decoded (only the model's work).
// Prints each photo's faces and times (median of BENCH_FACES_ROUNDS rounds, after a warm-up), the
// ratio ours / alone (target ≤ 1.3x) and the detector process's resident memory with the models
// loaded (target ≤ 600 MB). Never fails on time. Needs no build and no database.
//
// Then (scripts/bench/faces-scale.ts) "is this X?" and a person's page at 100,000 faces against 1,000.
//
// BENCH_FACES_ROUNDS=3 (the default); BENCH_FACES_SCALE_ONLY=1 runs only the second part.
import path from "node:path";
import { pathToFileURL } from "node:url";
import sharp from "sharp";
import { runBenchmark } from "./bench-app";
import { benchPeopleAtScale } from "./faces-scale";

const ROOT = path.resolve(import.meta.dirname, "../..");
const ROUNDS = Number(process.env.BENCH_FACES_ROUNDS ?? 3);
const DETECTION_SIZE = 1024;
const INPUTS = [
  ...[1, 2, 3, 4, 5, 6].map((n) => path.join(ROOT, `node_modules/@vladmandic/face-api/demo/sample${n}.jpg`)),
  path.resolve(ROOT, "../shared/corpus/immich-test-assets/metadata/faces/portrait.jpg"),
  path.resolve(ROOT, "../shared/corpus/immich-test-assets/metadata/faces/portrait-orientation-6.jpg"),
];

// The detector's launcher logs through the app's logger, which reads the app's environment.
process.env.NEXTAUTH_SECRET ??= "bench-faces-needs-no-secret-but-the-logger-reads-it";
process.env.NEXTAUTH_URL ??= "http://127.0.0.1:1";
process.env.LOG_LEVEL ??= "warn";

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function asVariant(file: string): Promise<Buffer> {
  return sharp(file).rotate().resize(1200, 1200, { fit: "inside", withoutEnlargement: true }).jpeg({ quality: 80 }).toBuffer();
}

async function toPixels(variant: Buffer) {
  const { data, info } = await sharp(variant).resize(DETECTION_SIZE, DETECTION_SIZE, { fit: "inside", withoutEnlargement: true }).removeAlpha().toColourspace("srgb").raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

async function main(): Promise<void> {
  console.log("people at scale (seeded rows, services called directly):");
  await benchPeopleAtScale();
  if (process.env.BENCH_FACES_SCALE_ONLY) return;
  const { detectFaces, stopFaceDetector, warmFaceDetector } = await import("@/src/faces/face-detector");
  const variants = await Promise.all(INPUTS.map(asVariant));
  const pixels = await Promise.all(variants.map(toPixels));

  // face-api alone, in this process, with the detector's own loading (plain JavaScript, loaded at run time as the server loads the launcher).
  const faceModels = pathToFileURL(path.join(ROOT, "src", "faces", "face-models.mjs")).href;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- face-api and TensorFlow.js are untyped CommonJS here, as in the detector
  const { tf, faceapi } = await (await (import(faceModels) as Promise<{ loadFaceModels(): Promise<{ tf: any; faceapi: any }> }>)).loadFaceModels();
  const options = new faceapi.SsdMobilenetv1Options({ minConfidence: 0.5, maxResults: 101 });
  async function alone(input: { data: Buffer; width: number; height: number }): Promise<number> {
    const tensor = tf.tensor3d(input.data, [input.height, input.width, 3], "int32");
    try {
      return (await faceapi.detectAllFaces(tensor, options).withFaceLandmarks().withFaceDescriptors()).length;
    } finally {
      tensor.dispose();
    }
  }
  async function ours(variant: Buffer): Promise<{ faces: number; rss: number }> {
    const input = await toPixels(variant);
    const answer = await detectFaces(input.data, input.width, input.height, 101);
    return { faces: answer.faces.length, rss: answer.detectorRss };
  }

  const warm = await warmFaceDetector();
  console.log(`detector process with the models loaded: ${(warm.detectorRss / 1e6).toFixed(0)} MB resident`);
  let peakRss = warm.detectorRss;
  const rows: string[] = [];
  let oursTotal = 0;
  let aloneTotal = 0;
  for (const [index, file] of INPUTS.entries()) {
    await alone(pixels[index]);
    await ours(variants[index]);
    const aloneTimes: number[] = [];
    const oursTimes: number[] = [];
    let faces = { alone: 0, ours: 0 };
    for (let round = 0; round < ROUNDS; round += 1) {
      let started = performance.now();
      faces.alone = await alone(pixels[index]);
      aloneTimes.push(performance.now() - started);
      started = performance.now();
      const answer = await ours(variants[index]);
      oursTimes.push(performance.now() - started);
      faces = { ...faces, ours: answer.faces };
      peakRss = Math.max(peakRss, answer.rss);
    }
    oursTotal += median(oursTimes);
    aloneTotal += median(aloneTimes);
    rows.push(
      `${path.basename(file).padEnd(28)} faces ${String(faces.ours).padStart(2)} (alone ${faces.alone})  ours ${median(oursTimes).toFixed(0).padStart(5)} ms  alone ${median(aloneTimes).toFixed(0).padStart(5)} ms  ratio ${(median(oursTimes) / median(aloneTimes)).toFixed(2)}x`,
    );
  }
  console.log(rows.join("\n"));
  console.log(`per photo: ours ${(oursTotal / INPUTS.length).toFixed(0)} ms, face-api alone ${(aloneTotal / INPUTS.length).toFixed(0)} ms, ratio ${(oursTotal / aloneTotal).toFixed(2)}x (target ≤ 1.3x)`);
  console.log(`detector process peak resident memory: ${(peakRss / 1e6).toFixed(0)} MB (target ≤ 600 MB); this process (face-api alone): ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`);
  stopFaceDetector();
}

runBenchmark(main);
