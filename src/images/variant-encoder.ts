import type { Sharp } from "sharp";
import type { ColourSpace, DecodedPhoto, RawImage } from "./photo-decoder";
import { Deadline, type ProcessingLimits } from "./processing-limits";
import { configureSharp, getRawInputOptions } from "./sharp-setup";
import {
  AVIF_MAX_WIDTH,
  AVIF_OPTIONS,
  getWebpOptions,
  JPEG_OPTIONS,
  planVariantWidths,
  type VariantFormat,
} from "./variant-plan";

/** One served file: a photo at one width in one format, with no metadata but its colour profile. */
export interface EncodedVariant {
  format: VariantFormat;
  width: number;
  height: number;
  bytes: Buffer;
}

/**
 * Variants are made in three phases so that a photo can be shown as soon as the first one is done:
 * - `visible`: the smallest width as JPEG and WebP (well under a second for a 24 MP photo);
 * - `full`: every other width as JPEG and WebP;
 * - `avif`: AVIF up to `AVIF_MAX_WIDTH`, seconds of CPU, meant for a later low-priority run.
 */
export type VariantPhase = "visible" | "full" | "avif";

const FORMAT_ORDER: readonly VariantFormat[] = ["jpeg", "webp", "avif"];

// Resized pixels per decoded photo, shared by the three phases (also when they run at the same
// time); released with the photo.
const resizedImagesByPhoto = new WeakMap<DecodedPhoto, Promise<Map<number, RawImage>>>();

/**
 * Encodes one phase's variants from a decoded photo, never decoding the original again. The
 * resized pixels are made once per photo, each width from the next larger one, and reused by later
 * phases of the same `DecodedPhoto`. JPEG and WebP encodes run two at a time (one per core; sharp
 * gives each pipeline one thread); AVIF encodes run one at a time to leave a core for the site.
 * Every variant embeds the ICC profile of `decoded.colourSpace` and nothing else: no EXIF, XMP,
 * IPTC or GPS, because they are made from raw pixels that carry none. JPEG flattens transparency
 * onto white.
 *
 * @returns The phase's variants, smallest width first, JPEG before WebP before AVIF.
 * @throws AppError INVALID_INPUT (422) when the phase runs out of its time budget.
 */
export async function encodeVariants(
  decoded: DecodedPhoto,
  phase: VariantPhase,
  limits: ProcessingLimits,
): Promise<EncodedVariant[]> {
  const deadline = new Deadline(limits.timeoutSeconds);
  const widths = planVariantWidths(decoded.width);
  const tasks = listPhaseTasks(widths, phase);
  let resizing = resizedImagesByPhoto.get(decoded);
  if (!resizing) {
    resizing = resizeForAllWidths(decoded, widths, limits, deadline);
    resizedImagesByPhoto.set(decoded, resizing);
    // A failed resize (a timeout) must not poison later phases of the same photo.
    resizing.catch(() => resizedImagesByPhoto.delete(decoded));
  }
  const images = await resizing;

  const variants = await runWithConcurrency(tasks, phase === "avif" ? 1 : 2, async ({ width, format }) => {
    const image = images.get(width);
    if (!image) throw new Error(`No resized image for width ${width}.`);
    const bytes = await encodeImage(image, decoded.colourSpace, format, limits, deadline);
    return { format, width: image.width, height: image.height, bytes };
  });
  return variants.sort(
    (left, right) => left.width - right.width || FORMAT_ORDER.indexOf(left.format) - FORMAT_ORDER.indexOf(right.format),
  );
}

function listPhaseTasks(widths: number[], phase: VariantPhase): { width: number; format: VariantFormat }[] {
  const forFormats = (selected: number[], formats: VariantFormat[]) =>
    selected.flatMap((width) => formats.map((format) => ({ width, format })));
  switch (phase) {
    case "visible":
      return forFormats(widths.slice(0, 1), ["jpeg", "webp"]);
    case "full":
      return forFormats(widths.slice(1), ["jpeg", "webp"]);
    case "avif":
      return forFormats(
        widths.filter((width) => width <= AVIF_MAX_WIDTH),
        ["avif"],
      );
  }
}

/**
 * Resizes the decoded pixels to every planned width, largest first, each from the previous one: one
 * pass over the full-size pixels per photo, however many widths (measured 170-220 ms for 24 MP,
 * against 240-470 ms when every width reads the full size).
 */
async function resizeForAllWidths(
  decoded: DecodedPhoto,
  widths: number[],
  limits: ProcessingLimits,
  deadline: Deadline,
): Promise<Map<number, RawImage>> {
  const images = new Map<number, RawImage>();
  let source: RawImage = decoded;
  for (const width of [...widths].sort((left, right) => right - left)) {
    if (width !== source.width) {
      const { data, info } = await runWithinDeadline(deadline, () =>
        createRawPipeline(source, limits, deadline)
          .resize({ width, kernel: "lanczos3" })
          .raw()
          .toBuffer({ resolveWithObject: true }),
      );
      source = { pixels: data, width: info.width, height: info.height, channels: source.channels };
    }
    images.set(width, source);
  }
  return images;
}

async function encodeImage(
  image: RawImage,
  colourSpace: ColourSpace,
  format: VariantFormat,
  limits: ProcessingLimits,
  deadline: Deadline,
): Promise<Buffer> {
  let pipeline = createRawPipeline(image, limits, deadline);
  if (colourSpace === "display-p3") {
    // Makes sharp treat the pixels as Display P3, so that attaching the P3 profile below is an exact
    // identity instead of an sRGB-to-P3 conversion (verified: maximum difference 0).
    pipeline = pipeline.pipelineColourspace("rgb16");
  }
  if (format === "jpeg" && image.channels === 4) pipeline = pipeline.flatten({ background: "#ffffff" });
  // The only metadata a variant carries: 480 bytes, so browsers that do not assume sRGB for
  // untagged images (Firefox's default mode) still show the right colours.
  pipeline = pipeline.withIccProfile(colourSpace === "display-p3" ? "p3" : "srgb");
  switch (format) {
    case "jpeg":
      pipeline = pipeline.jpeg(JPEG_OPTIONS);
      break;
    case "webp":
      pipeline = pipeline.webp(getWebpOptions(image.width));
      break;
    case "avif":
      pipeline = pipeline.avif(AVIF_OPTIONS);
      break;
  }
  return runWithinDeadline(deadline, () => pipeline.toBuffer());
}

function createRawPipeline(image: RawImage, limits: ProcessingLimits, deadline: Deadline): Sharp {
  return configureSharp()(image.pixels, getRawInputOptions(image, limits)).timeout({ seconds: deadline.remainingSeconds() });
}

/**
 * A failure after the budget ran out is the timeout; any other failure on our own pixels is a bug.
 * A step that finishes after the budget ran out is the timeout too: sharp's own timeout counts in
 * whole seconds from the step's start, so a step begun just before the end could otherwise carry
 * the phase past its budget unnoticed.
 */
async function runWithinDeadline<T>(deadline: Deadline, step: () => Promise<T>): Promise<T> {
  deadline.assertNotExpired();
  let result: T;
  try {
    result = await step();
  } catch (error) {
    if (deadline.hasExpired()) throw deadline.timeoutError(error);
    throw error;
  }
  deadline.assertNotExpired();
  return result;
}

async function runWithConcurrency<T, R>(items: T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const runners = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++];
      results.push(await work(item));
    }
  });
  await Promise.all(runners);
  return results;
}
