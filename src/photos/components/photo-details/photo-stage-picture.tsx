import type { PhotoSummary } from "../../photos.service";
import { toPlaceholderUrl } from "../../placeholder-image";
import { toSrcSet } from "../../variant-srcset";

type StagePhoto = Pick<PhotoSummary, "variants" | "width" | "height" | "thumbhash" | "dominantColor">;

/**
 * The large image of a photo page (the gallery's and a share link's): AVIF, WebP and JPEG srcsets
 * of our own variants (never /_next/image: private ones must never go through it), sized as the
 * stage gives it room, over the thumbhash placeholder. Null when the photo has no JPEG variant yet.
 */
export function PhotoStagePicture({ photo, name, ratio }: { photo: StagePhoto; name: string; ratio: number }) {
  const largest = photo.variants.filter((variant) => variant.format === "jpeg").at(-1);
  if (!largest) return null;
  const placeholder = toPlaceholderUrl(photo.thumbhash);
  // The width the stage gives the photo: the same sum as .photo-stage-image in photo.css.
  const sizes = `min(100vw, calc((100svh - 6.5rem) * ${ratio.toFixed(4)}))`;
  return (
    <picture>
      <source type="image/avif" srcSet={toSrcSet(photo, "avif") || undefined} sizes={sizes} />
      <source type="image/webp" srcSet={toSrcSet(photo, "webp") || undefined} sizes={sizes} />
      <img
        className="photo-stage-image"
        src={largest.url}
        srcSet={toSrcSet(photo, "jpeg")}
        sizes={sizes}
        width={photo.width ?? largest.width}
        height={photo.height ?? largest.height}
        alt={name}
        fetchPriority="high"
        style={{ backgroundImage: placeholder ? `url(${placeholder})` : undefined, backgroundColor: photo.dominantColor ?? undefined }}
        data-testid="photo-image"
      />
    </picture>
  );
}
