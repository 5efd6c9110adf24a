// Starts the face detector's process (face-detector-process.mjs). Plain JavaScript, imported at
// run time by face-detector.ts with the bundler told to leave it alone: a fork() in bundled code
// makes Next.js's bundler try to bundle the forked script, and with it face-api and TensorFlow.js,
// which must stay out of the server's bundle and memory.
import { fork } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const DETECTOR_PROCESS = path.join(path.dirname(fileURLToPath(import.meta.url)), "face-detector-process.mjs");

/** Forks the detector with IPC in Node's advanced serialization, so pixels and descriptors stay typed arrays. */
export function startFaceDetectorProcess() {
  return fork(DETECTOR_PROCESS, [], { serialization: "advanced", stdio: ["ignore", "inherit", "inherit", "ipc"] });
}
