import Link from "next/link";
import type { CSSProperties } from "react";
import { toPlaceholderUrl } from "../placeholder-image";
import type { PhotoSummary } from "../photos.service";
import { toSrcSet } from "../variant-srcset";

const ROW_HEIGHT_PX = 240;

function GridTile({ photo }: { photo: PhotoSummary }) {
  const aspectRatio = photo.width && photo.height ? photo.width / photo.height : 1.5;
  const placeholder = toPlaceholderUrl(photo.thumbhash);
  // A justified row without measuring: each tile grows in proportion to its aspect ratio, and the
  // padding keeps its shape, so nothing moves when the image arrives.
  const tileStyle: CSSProperties = { flexGrow: aspectRatio, flexBasis: `${aspectRatio * ROW_HEIGHT_PX}px` };
  const frameStyle: CSSProperties = {
    paddingBottom: `${100 / aspectRatio}%`,
    backgroundColor: photo.dominantColor ?? "#e5e7eb",
    backgroundImage: placeholder ? `url(${placeholder})` : undefined,
  };
  const jpeg = toSrcSet(photo, "jpeg");
  return (
    <Link href={`/p/${photo.id}`} className="grid-tile" style={tileStyle} data-testid="grid-photo">
      <span className="grid-frame" style={frameStyle}>
        {jpeg && (
          <picture>
            <source type="image/avif" srcSet={toSrcSet(photo, "avif") || undefined} sizes={`${Math.round(aspectRatio * ROW_HEIGHT_PX)}px`} />
            <source type="image/webp" srcSet={toSrcSet(photo, "webp") || undefined} sizes={`${Math.round(aspectRatio * ROW_HEIGHT_PX)}px`} />
            {/* Variants are already sized, and private ones must not go through /_next/image. */}
            <img src={photo.variants.find((variant) => variant.format === "jpeg")?.url} srcSet={jpeg} sizes={`${Math.round(aspectRatio * ROW_HEIGHT_PX)}px`} alt={photo.altText || photo.title} loading="lazy" decoding="async" />
          </picture>
        )}
      </span>
    </Link>
  );
}

export function PhotoGrid({ photos }: { photos: PhotoSummary[] }) {
  return (
    <div className="photo-grid">
      {photos.map((photo) => (
        <GridTile key={photo.id} photo={photo} />
      ))}
      {/* Keeps the last row from stretching a lone photo across the page. */}
      <span className="grid-filler" aria-hidden="true" />
    </div>
  );
}
