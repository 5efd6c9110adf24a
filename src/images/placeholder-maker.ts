import { rgbaToThumbHash } from "thumbhash";
import { DEFAULT_PROCESSING_LIMITS } from "./processing-limits";
import { configureSharp, getUntrustedInputOptions } from "./sharp-setup";

/** What the gallery paints before a variant arrives. */
export interface Placeholder {
  /** ThumbHash bytes, base64: decoded in the browser into a blurred preview with the photo's aspect ratio. */
  thumbhash: string;
  /** `#rrggbb`, sRGB: the background while even the ThumbHash is not rendered. */
  dominantColor: string;
}

// ThumbHash's encoder accepts at most 100 × 100 pixels.
const THUMBHASH_MAX_SIDE = 100;

/**
 * Computes the placeholder from the smallest variant (a few KB) rather than the original, so it
 * costs milliseconds and shows exactly what the variants show: upright, and in sRGB (a Display P3
 * variant is converted through its embedded profile).
 */
export async function makePlaceholder(smallestVariant: Buffer): Promise<Placeholder> {
  const sharp = configureSharp();
  const { data, info } = await sharp(smallestVariant, getUntrustedInputOptions(DEFAULT_PROCESSING_LIMITS))
    .timeout({ seconds: 10 })
    .resize({ width: THUMBHASH_MAX_SIDE, height: THUMBHASH_MAX_SIDE, fit: "inside", withoutEnlargement: true })
    .toColourspace("srgb")
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const thumbhash = Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString("base64");
  return { thumbhash, dominantColor: findDominantColour(data) };
}

/**
 * The most common colour: pixels are counted in 4096 bins (16 levels per channel), and the winning
 * bin's own pixels are averaged, so the result is a colour of the photo rather than a bin's centre.
 * Transparent areas show the page's white background, so they count as white.
 */
function findDominantColour(rgba: Uint8Array): string {
  const counts = new Uint32Array(4096);
  const sums = new Float64Array(4096 * 3);
  for (let index = 0; index < rgba.length; index += 4) {
    const alpha = rgba[index + 3] / 255;
    const red = rgba[index] * alpha + 255 * (1 - alpha);
    const green = rgba[index + 1] * alpha + 255 * (1 - alpha);
    const blue = rgba[index + 2] * alpha + 255 * (1 - alpha);
    const bin = ((red >> 4) << 8) | ((green >> 4) << 4) | (blue >> 4);
    counts[bin] += 1;
    sums[bin * 3] += red;
    sums[bin * 3 + 1] += green;
    sums[bin * 3 + 2] += blue;
  }
  let best = 0;
  for (let bin = 1; bin < counts.length; bin++) if (counts[bin] > counts[best]) best = bin;
  const count = Math.max(1, counts[best]);
  return toHexColour(sums[best * 3] / count, sums[best * 3 + 1] / count, sums[best * 3 + 2] / count);
}

function toHexColour(...channels: number[]): string {
  return `#${channels.map((value) => Math.round(Math.min(255, Math.max(0, value))).toString(16).padStart(2, "0")).join("")}`;
}
