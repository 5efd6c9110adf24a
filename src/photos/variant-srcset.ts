import type { PhotoSummary } from "./photos.service";

/** The srcset of one format, smallest first. */
export function toSrcSet(photo: Pick<PhotoSummary, "variants">, format: "jpeg" | "webp" | "avif"): string {
  return photo.variants
    .filter((variant) => variant.format === format)
    .map((variant) => `${variant.url} ${variant.width}w`)
    .join(", ");
}
