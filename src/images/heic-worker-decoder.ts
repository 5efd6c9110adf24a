import { Worker } from "node:worker_threads";
import {
  assertWithinPixelLimit,
  createInvalidInputError,
  type Deadline,
  type ProcessingLimits,
} from "./processing-limits";

/** The primary image of a HEIF file: display-oriented, interleaved RGBA, 8 bits per channel. */
export interface HeicPixels {
  pixels: Uint8Array;
  width: number;
  height: number;
}

type WorkerReply =
  | { kind: "decoded"; width: number; height: number; pixels: ArrayBuffer }
  | { kind: "too-large"; width: number; height: number }
  | { kind: "failed"; message: string };

// Runs in a worker thread. heic-decode (libheif compiled to WebAssembly) decodes synchronously for
// about 150 ms per megapixel; on the main thread that would freeze every request for seconds. In a
// worker it can also be stopped at the deadline, and its WebAssembly memory, which only ever grows,
// is returned when the worker exits. `require` resolves from the working directory (the project
// root under `npm start`, the worker and the tests); the code is a string so that no bundler
// rewrites it.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const decode = require("heic-decode");
(async () => {
  const images = await decode.all({ buffer: workerData.buffer });
  try {
    const primary = images[0];
    if (!primary) throw new Error("HEIF file without an image");
    if (primary.width * primary.height > workerData.maxPixels) {
      parentPort.postMessage({ kind: "too-large", width: primary.width, height: primary.height });
      return;
    }
    const { width, height, data } = await primary.decode();
    parentPort.postMessage({ kind: "decoded", width, height, pixels: data.buffer }, [data.buffer]);
  } finally {
    images.dispose();
  }
})().catch((error) => parentPort.postMessage({ kind: "failed", message: String((error && error.message) || error) }));
`;

const DECODE_FAILED_MESSAGE = "The HEIC/HEIF image could not be decoded: the file is corrupt or unsupported.";
const TRUNCATED_MESSAGE = "The image could not be decoded: the file is truncated or corrupt.";

// heic-decode refuses files whose major brand is not one of these, before libheif looks inside.
const HEIC_DECODE_MAJOR_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "mif1", "msf1"]);

/**
 * Decodes the first top-level image of a HEIC/HEIF file with heic-decode in a worker thread, after
 * checking its container dimensions against the pixel limit. libheif applies the container's
 * rotation and mirror properties, so the pixels come out in display orientation.
 *
 * @throws AppError INVALID_INPUT (422) for corrupt files, pixel bombs and the deadline (the worker
 *   is terminated, not waited for).
 */
export async function decodeHeicInWorker(
  file: Uint8Array,
  limits: ProcessingLimits,
  deadline: Deadline,
): Promise<HeicPixels> {
  deadline.assertNotExpired();
  // heic-decode's libheif decodes a file cut short without complaint, leaving the missing tiles blank.
  if (endsInsideABox(file)) throw createInvalidInputError(TRUNCATED_MESSAGE);
  const buffer = Buffer.from(file);
  // HEVC brands heic-decode does not list (`heim`, `heis`, `hevm`, `hevs`) are presented to it as
  // the generic `mif1`, in this copy only; libheif reads the codec from the items anyway.
  if (!HEIC_DECODE_MAJOR_BRANDS.has(buffer.toString("latin1", 8, 12))) buffer.write("mif1", 8, "latin1");

  const reply = await runWorker({ buffer, maxPixels: limits.maxPixels }, deadline);
  switch (reply.kind) {
    case "too-large":
      assertWithinPixelLimit(reply.width, reply.height, limits);
      throw createInvalidInputError(DECODE_FAILED_MESSAGE);
    case "failed":
      throw createInvalidInputError(DECODE_FAILED_MESSAGE, new Error(reply.message));
    case "decoded":
      if (reply.pixels.byteLength !== reply.width * reply.height * 4) throw createInvalidInputError(DECODE_FAILED_MESSAGE);
      return { pixels: new Uint8Array(reply.pixels), width: reply.width, height: reply.height };
  }
}

/**
 * Walks the top-level ISO-BMFF boxes (ftyp, meta, mdat, ...) and tells whether the last one is cut
 * short: the mark of an interrupted upload or copy. Bytes after the last box that do not look like
 * a box header are tolerated, as libheif tolerates them.
 */
export function endsInsideABox(file: Uint8Array): boolean {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  let offset = 0;
  while (offset + 8 <= file.length) {
    const type = String.fromCharCode(...file.subarray(offset + 4, offset + 8));
    if (!/^[a-zA-Z0-9 ]{4}$/.test(type)) return false;
    let size = view.getUint32(offset);
    if (size === 1) {
      if (offset + 16 > file.length) return true;
      size = Number(view.getBigUint64(offset + 8));
    } else if (size === 0) {
      return false; // "to the end of the file"
    }
    if (size < 8) return false;
    if (offset + size > file.length) return true;
    offset += size;
  }
  return false;
}

function runWorker(workerData: { buffer: Buffer; maxPixels: number }, deadline: Deadline): Promise<WorkerReply> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData });
    let isSettled = false;
    const settle = (outcome: () => void) => {
      if (isSettled) return;
      isSettled = true;
      clearTimeout(timer);
      outcome();
      void worker.terminate();
    };
    const timer = setTimeout(
      () => settle(() => reject(deadline.timeoutError())),
      Math.max(0, deadline.remainingMilliseconds()),
    );
    worker.once("message", (reply: WorkerReply) => settle(() => resolve(reply)));
    // A WebAssembly abort, running out of memory, or heic-decode missing: the worker dies, not the app.
    worker.once("error", (error) => settle(() => reject(createInvalidInputError(DECODE_FAILED_MESSAGE, error))));
    worker.once("exit", (code) =>
      settle(() => reject(createInvalidInputError(DECODE_FAILED_MESSAGE, new Error(`HEIC worker exited with ${code}`)))),
    );
  });
}
