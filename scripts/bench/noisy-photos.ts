// The benchmarks' input: generated 24 MP JPEGs, the worst case for every decoder and encoder.
import { randomFillSync } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { formatMegabytes } from "./bench-app";

const WIDTH = 6000;
const HEIGHT = 4000;

/**
 * Noisy 24 MP JPEGs, each different (a duplicate would be answered without processing): a diagonal
 * colour gradient plus uniform noise of ±64 (σ ≈ 37, like the σ 40 gaussian noise the image docs
 * measured). Noise is the worst case for every encoder. Made from random bytes in JavaScript:
 * libvips' own gaussian noise took 5 s per image here, this about 1 s.
 */
export async function generateNoisyPhotos(directory: string, count: number): Promise<string[]> {
  const startedAt = performance.now();
  const files: string[] = [];
  const pixels = Buffer.allocUnsafe(WIDTH * HEIGHT * 3);
  for (let index = 0; index < count; index += 1) {
    randomFillSync(pixels);
    for (let y = 0; y < HEIGHT; y += 1) {
      for (let x = 0; x < WIDTH; x += 1) {
        const offset = (y * WIDTH + x) * 3;
        const base = ((x + y) * 255) / (WIDTH + HEIGHT);
        for (let channel = 0; channel < 3; channel += 1) {
          const tint = channel === index % 3 ? 255 - base : base;
          pixels[offset + channel] = Math.max(0, Math.min(255, tint + (pixels[offset + channel] & 127) - 64));
        }
      }
    }
    const filePath = path.join(directory, `noise-${String(index).padStart(2, "0")}.jpg`);
    await sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).jpeg({ quality: 90 }).toFile(filePath);
    files.push(filePath);
  }
  const totalBytes = files.reduce((sum, file) => sum + fs.statSync(file).size, 0);
  console.log(`generated ${files.length} JPEGs of ${WIDTH}×${HEIGHT}, ${formatMegabytes(totalBytes)} in all, in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
  return files;
}
