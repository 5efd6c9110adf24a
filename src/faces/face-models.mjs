// face-api and TensorFlow.js (WASM backend) with the three models detection uses, loaded once per
// process. Only the detector's own process (face-detector-process.mjs) and bench:faces load this;
// never the server (face-models-stay-out.test.ts). Plain JavaScript, like the detector process.
import { createRequire } from "node:module";
import path from "node:path";

// face-api's WASM build is CommonJS and finds TensorFlow.js by require(): one copy of each.
const requirePackage = createRequire(import.meta.url);

let ready = null;

/** `{ tf, faceapi }`, ready to detect. */
export function loadFaceModels() {
  ready ??= (async () => {
    const tf = requirePackage("@tensorflow/tfjs");
    const wasm = requirePackage("@tensorflow/tfjs-backend-wasm");
    const faceapi = requirePackage("@vladmandic/face-api/dist/face-api.node-wasm.js");
    // The .wasm files ship inside the package: nothing is downloaded.
    wasm.setWasmPaths(path.join(path.dirname(requirePackage.resolve("@tensorflow/tfjs-backend-wasm/package.json")), "dist") + path.sep);
    await tf.setBackend("wasm");
    await tf.ready();
    const models = path.join(path.dirname(requirePackage.resolve("@vladmandic/face-api/package.json")), "model");
    await faceapi.nets.ssdMobilenetv1.loadFromDisk(models);
    await faceapi.nets.faceLandmark68Net.loadFromDisk(models);
    await faceapi.nets.faceRecognitionNet.loadFromDisk(models);
    return { tf, faceapi };
  })();
  return ready;
}
