import type { PhotoVariantRow } from "@/src/db/database";

/** The width feeds and the sitemap aim for: big enough to look at, far from the original. */
export const PUBLISHED_IMAGE_WIDTH = 1280;

/**
 * The JPEG variant a feed item or sitemap entry shows: the one nearest PUBLISHED_IMAGE_WIDTH wide
 * (the wider of two equally near). JPEG because every reader and crawler takes it; never the
 * original, which only its owner may have. Null when the photo has no JPEG variant.
 */
export function pickPublishedVariant(variants: readonly PhotoVariantRow[]): PhotoVariantRow | null {
  let best: PhotoVariantRow | null = null;
  for (const variant of variants) {
    if (variant.format !== "jpeg") continue;
    if (best === null) {
      best = variant;
      continue;
    }
    const distance = Math.abs(variant.width - PUBLISHED_IMAGE_WIDTH);
    const bestDistance = Math.abs(best.width - PUBLISHED_IMAGE_WIDTH);
    if (distance < bestDistance || (distance === bestDistance && variant.width > best.width)) best = variant;
  }
  return best;
}
