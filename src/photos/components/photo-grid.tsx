"use client";

import Link from "next/link";
import { type CSSProperties, type ReactNode, useEffect, useRef } from "react";
import type { GalleryTile } from "../gallery-tile";
import { planTileLoading, type TileLoading } from "../grid-loading";
import { toPlaceholderUrl } from "../placeholder-image";

/**
 * A justified grid without measuring: each tile's flex basis is its aspect ratio times the row
 * height (--grid-row-height, set per screen size in gallery.css) and it grows in proportion to its
 * ratio, so every photo in a row ends up the same height and the row fills the line; a filler
 * keeps the last row at its natural height instead of stretching it. `linkQuery` ("?album=…") goes
 * on every photo's link, so the photo page knows the order the reader came from.
 */
export interface PhotoGridLinks {
  /** Appended to each photo's link ("?album=<slug>" on an album's page). */
  linkQuery?: string;
  /** Where photo pages live: "/p/" in the gallery, "/s/<key>/p/" in a share link. */
  linkBase?: string;
  /** Something drawn over each tile, outside its link (a share's pick toggle). */
  renderTileExtra?: (tile: GalleryTile) => ReactNode;
}

export function PhotoGrid({ tiles, linkQuery = "", linkBase = "/p/", renderTileExtra }: { tiles: GalleryTile[] } & PhotoGridLinks) {
  // The first row loads at once (see grid-loading.ts); pages appended later are all below it.
  const loading = planTileLoading(tiles.map((tile) => tile.ratio));
  return (
    <div className="photo-grid">
      {tiles.map((tile, index) =>
        renderTileExtra ? (
          <div key={tile.id} className={tile.maxWidth ? "grid-tile-frame grid-tile-capped" : "grid-tile-frame"} style={tileShape(tile)}>
            <GridTile tile={tile} loading={loading[index]} href={`${linkBase}${tile.id}${linkQuery}`} framed />
            {renderTileExtra(tile)}
          </div>
        ) : (
          <GridTile key={tile.id} tile={tile} loading={loading[index]} href={`${linkBase}${tile.id}${linkQuery}`} />
        ),
      )}
      <span className="grid-filler" aria-hidden="true" />
    </div>
  );
}

/**
 * A tile's ratio and, for a photo smaller than its tile would grow (a 100 px original), the width it
 * stops at: the row's other tiles take the room, and this one sits centred in its row, never
 * stretched past its largest variant into a blur.
 */
function tileShape(tile: GalleryTile): CSSProperties {
  return { "--ar": tile.ratio, maxWidth: tile.maxWidth ? `${tile.maxWidth}px` : undefined } as CSSProperties;
}

// Rows are 110 px tall on a phone and 180 to 270 px above 40rem (gallery.css), and a row grows up
// to about a third past its height to fill the line: each tile's width at 150 and 300 px. Two
// entries without spaces, because this string is in the page once per tile (gallery-page.test's
// bytes-per-tile budget).
/** The `sizes` of a tile of this ratio. */
export function tileSizes(ratio: number): string {
  return `(max-width:40rem) ${Math.round(ratio * 150)}px,${Math.round(ratio * 300)}px`;
}

function GridTile({ tile, loading, href, framed = false }: { tile: GalleryTile; loading: TileLoading; href: string; framed?: boolean }) {
  const link = useRef<HTMLAnchorElement>(null);
  const image = useRef<HTMLImageElement>(null);

  // The blurred preview is decoded here, after hydration, and only for images still on their way.
  useEffect(() => {
    if (!link.current || image.current?.complete) return;
    const placeholder = toPlaceholderUrl(tile.thumbhash);
    if (placeholder) link.current.style.backgroundImage = `url(${placeholder})`;
  }, [tile.thumbhash]);

  // In a frame (a share's pick toggle), the frame carries the shape and the cap.
  const style = { ...(framed ? { "--ar": tile.ratio } : tileShape(tile)), backgroundColor: tile.color ?? undefined } as CSSProperties;
  const sizes = tileSizes(tile.ratio);
  // Not prefetched: every tile on the screen would otherwise fetch its photo page's router payload as
  // the page hydrates (31-36 requests per page view, measured by bench:lighthouse's reports), each a
  // render on the server and a response for the phone's main thread, while the first row is still
  // painting; a photo page is dynamic, so a prefetch held only its layout and a click fetches anyway.
  return (
    <Link ref={link} href={href} prefetch={false} className={tile.maxWidth && !framed ? "grid-tile grid-tile-capped" : "grid-tile"} style={style} data-testid="grid-photo">
      {tile.jpeg && (
        <picture>
          {tile.avif && <source type="image/avif" srcSet={expandSrcSet(tile.base, tile.avif)} sizes={sizes} />}
          {/* Variants are already sized, and private ones must not go through /_next/image. With AVIF
              there, the JPEG is one file for the few browsers without it; else it is the srcset. */}
          <img
            ref={image}
            src={smallestSource(tile.base, tile.jpeg)}
            srcSet={tile.avif ? undefined : expandSrcSet(tile.base, tile.jpeg)}
            sizes={tile.avif ? undefined : sizes}
            alt={tile.name}
            // No decoding hint: Chromium decodes grid images off the main thread anyway, and the
            // attribute's 17 bytes a tile were what put / over its bytes-per-tile budget.
            loading={loading === "lazy" ? "lazy" : "eager"}
            fetchPriority={loading === "high" ? "high" : undefined}
          />
        </picture>
      )}
      {!tile.jpeg && <span className="visually-hidden">{tile.name}</span>}
      {tile.badge && <span className="badge grid-badge">{tile.badge}</span>}
      {/* The tile's name already says "video, 0:12" to a screen reader. */}
      {tile.duration && (
        <span className="grid-video-badge" aria-hidden="true">
          <svg viewBox="0 0 12 12" width="10" height="10"><path d="M3 1.5v9l7.5-4.5z" fill="currentColor" /></svg>
          {tile.duration}
        </span>
      )}
      {/* The tile's name already says "Live Photo"; its clip plays in the viewer. */}
      {tile.live && (
        <span className="grid-video-badge" aria-hidden="true">
          LIVE
        </span>
      )}
    </Link>
  );
}

/** A srcset written relative to `base` made whole again ("a.avif 400w, b.avif 800w" → full URLs). */
function expandSrcSet(base: string, relative: string): string {
  return relative
    .split(", ")
    .map((candidate) => base + candidate)
    .join(", ");
}

/** The smallest file of a relative srcset as a full URL: the `<img src>` for browsers without srcset. */
function smallestSource(base: string, relative: string): string {
  return base + relative.slice(0, relative.indexOf(" "));
}
