import type { AvifOptions, JpegOptions, WebpOptions } from "sharp";

/**
 * Widths, qualities and encoder efforts for the served variants. Every number here was chosen from
 * measurements on the 2-core production-like machine; docs/image-processing.md has the tables.
 */

/** The formats variants are served in. */
export type VariantFormat = "jpeg" | "webp" | "avif";

/**
 * Target widths, smallest first. 400 and 800 fill the justified grid at 1× and 2×; 1200 is the
 * Open Graph size; 1600, 2400 and 3200 serve the photo page from laptops to 5K screens.
 */
export const VARIANT_WIDTHS: readonly number[] = [400, 800, 1200, 1600, 2400, 3200];

/**
 * The phase that makes a photo visible needs pixels at most this wide: a JPEG or WebP is then
 * decoded at a fraction of its size (shrink-on-load), and the smallest variant is still made from
 * twice its width.
 */
export const VISIBLE_DECODE_WIDTH = VARIANT_WIDTHS[0] * 2;

/**
 * A photo narrower than the largest target also gets a variant at its own width, unless that is
 * within this factor of the next smaller target: a variant less than 25 % wider adds bytes, not detail.
 */
const ORIGINAL_WIDTH_MINIMUM_GAIN = 1.25;

/** AVIF only up to this width: above it an encode costs seconds (2.4 s at 2400 px with effort 2). */
export const AVIF_MAX_WIDTH = 1600;

/**
 * JPEG q80 is the reference quality (mean SSIM ≈ 0.97 against the resized pixels on our sample set).
 * Progressive saves 2-3 % for about 0.15 s per photo (all widths), and large images render sooner.
 * mozjpeg would save 6 % more at equal SSIM for 10× the encode time, so it is off.
 */
export const JPEG_OPTIONS: JpegOptions = { quality: 80, progressive: true, chromaSubsampling: "4:2:0" };

/** WebP q82: 19-37 % fewer bytes than JPEG q80 at about the same SSIM. */
const WEBP_QUALITY = 82;

/**
 * AVIF q65 matches JPEG q80's SSIM at about 40 % fewer bytes. Effort 2 is 7-8× faster than the
 * default 4 for 5-9 % more bytes; 4:2:0 chroma like JPEG and WebP saves 3 % and some time.
 */
export const AVIF_OPTIONS: AvifOptions = { quality: 65, effort: 2, chromaSubsampling: "4:2:0" };

/**
 * WebP effort 4 saves about 9 % over effort 2 at equal SSIM for twice the time. Grid sizes are
 * served most, so they get effort 4; the large photo-page sizes, fetched once per view and costing
 * most to encode (0.6 s at 3200 px), get effort 2.
 */
export function getWebpOptions(width: number): WebpOptions {
  return { quality: WEBP_QUALITY, effort: width <= 1600 ? 4 : 2 };
}

/**
 * The widths one photo gets, smallest first: every target narrower than the photo (never an
 * upscale), plus the photo's own width when it is narrower than the largest target and clearly
 * wider than the next smaller one. Always at least one width.
 */
export function planVariantWidths(originalWidth: number): number[] {
  const widths = VARIANT_WIDTHS.filter((width) => width < originalWidth);
  const largestBelow = widths.at(-1);
  const largestTarget = VARIANT_WIDTHS[VARIANT_WIDTHS.length - 1];
  if (
    originalWidth <= largestTarget &&
    (largestBelow === undefined || originalWidth >= largestBelow * ORIGINAL_WIDTH_MINIMUM_GAIN)
  ) {
    widths.push(originalWidth);
  }
  return widths;
}
