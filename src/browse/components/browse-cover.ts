import type { PhotoSummary } from "@/src/photos/photos.service";

/** A card's cover: the smallest JPEG that fills a card, with srcsets; null when the photo has no variant yet. */
export interface BrowseCover {
  color: string | null;
  src: string;
  jpeg: string;
  avif: string;
}

// A card is at most ~18rem wide on a 2x screen: larger sizes are never picked, so are not sent.
const LARGEST_NEEDED_WIDTH = 700;

function srcSet(photo: PhotoSummary, format: "jpeg" | "avif"): PhotoSummary["variants"] {
  const sorted = photo.variants.filter((variant) => variant.format === format).sort((left, right) => left.width - right.width);
  const enough = sorted.findIndex((variant) => variant.width >= LARGEST_NEEDED_WIDTH);
  return enough === -1 ? sorted : sorted.slice(0, enough + 1);
}

export function toBrowseCover(photo: PhotoSummary | null): BrowseCover | null {
  if (!photo) return null;
  const jpeg = srcSet(photo, "jpeg");
  if (jpeg.length === 0) return null;
  const write = (variants: PhotoSummary["variants"]) => variants.map((variant) => `${variant.url} ${variant.width}w`).join(", ");
  return {
    color: photo.dominantColor,
    src: (jpeg.find((variant) => variant.width >= 400) ?? jpeg[jpeg.length - 1]).url,
    jpeg: write(jpeg),
    avif: write(srcSet(photo, "avif")),
  };
}
