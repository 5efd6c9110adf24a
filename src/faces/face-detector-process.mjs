// The face detector's own process (issue 32). face-api and TensorFlow.js (WASM backend) load here
// only, once per process, on the first photo: the web server, which may run the job worker
// in-process, never holds the models (about 330 MB), and a crash in them cannot take the server
// down. The parent (face-detector.ts) starts it through face-detector-launcher.mjs when a face job first runs, sends one
// photo at a time over IPC as raw RGB pixels (advanced serialization, so bytes stay bytes) and ends
// it after a while without work. Plain JavaScript: it runs as it is, with no build step, both beside
// the built app and in development. Answers carry boxes in pixels and descriptors as Float32Array.
import { loadFaceModels } from "./face-models.mjs";

/** Detections scored below this are not kept (face-api's default for SSD MobileNet is 0.5). */
const MIN_CONFIDENCE = 0.5;

async function detect({ pixels, width, height, maxFaces }) {
  const { tf, faceapi } = await loadFaceModels();
  const tensor = tf.tensor3d(pixels, [height, width, 3], "int32");
  try {
    const options = new faceapi.SsdMobilenetv1Options({ minConfidence: MIN_CONFIDENCE, maxResults: maxFaces });
    const results = await faceapi.detectAllFaces(tensor, options).withFaceLandmarks().withFaceDescriptors();
    return results.map(({ detection, descriptor }) => ({
      box: { left: detection.box.x, top: detection.box.y, width: detection.box.width, height: detection.box.height },
      score: detection.score,
      descriptor: Float32Array.from(descriptor),
    }));
  } finally {
    tensor.dispose();
  }
}

// One request at a time, in order: the models are not shared between concurrent calls.
let queue = Promise.resolve();
process.on("message", (message) => {
  queue = queue.then(async () => {
    try {
      if (message.kind === "load") {
        await loadFaceModels();
        process.send({ id: message.id, faces: [], rss: process.memoryUsage().rss });
        return;
      }
      const faces = await detect(message);
      process.send({ id: message.id, faces, rss: process.memoryUsage().rss });
    } catch (error) {
      process.send({ id: message.id, error: error instanceof Error ? error.message : String(error) });
    }
  });
});
process.on("disconnect", () => process.exit(0));
