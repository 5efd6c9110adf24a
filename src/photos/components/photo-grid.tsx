"use client";

import Link from "next/link";
import { type CSSProperties, type ReactNode, useEffect, useRef } from "react";
import type { GalleryTile } from "../gallery-tile";
import { toPlaceholderUrl } from "../placeholder-image";

// The first tiles are likely above the fold: load them at once, the rest as they come near.
const EAGER_TILES = 6;

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
  return (
    <div className="photo-grid">
      {tiles.map((tile, index) =>
        renderTileExtra ? (
          <div key={tile.id} className="grid-tile-frame" style={{ "--ar": tile.ratio } as CSSProperties}>
            <GridTile tile={tile} eager={index < EAGER_TILES} href={`${linkBase}${tile.id}${linkQuery}`} />
            {renderTileExtra(tile)}
          </div>
        ) : (
          <GridTile key={tile.id} tile={tile} eager={index < EAGER_TILES} href={`${linkBase}${tile.id}${linkQuery}`} />
        ),
      )}
      <span className="grid-filler" aria-hidden="true" />
    </div>
  );
}

function GridTile({ tile, eager, href }: { tile: GalleryTile; eager: boolean; href: string }) {
  const link = useRef<HTMLAnchorElement>(null);
  const image = useRef<HTMLImageElement>(null);

  // The blurred preview is decoded here, after hydration, and only for images still on their way.
  useEffect(() => {
    if (!link.current || image.current?.complete) return;
    const placeholder = toPlaceholderUrl(tile.thumbhash);
    if (placeholder) link.current.style.backgroundImage = `url(${placeholder})`;
  }, [tile.thumbhash]);

  const style = { "--ar": tile.ratio, backgroundColor: tile.color ?? undefined } as CSSProperties;
  // Tiles are about 150 px tall on a phone and 280 px on a large screen (see gallery.css).
  const sizes = `(max-width: 40rem) ${Math.round(tile.ratio * 150)}px, ${Math.round(tile.ratio * 280)}px`;
  return (
    <Link ref={link} href={href} className="grid-tile" style={style} data-testid="grid-photo">
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
            loading={eager ? "eager" : "lazy"}
            decoding="async"
          />
        </picture>
      )}
      {!tile.jpeg && <span className="visually-hidden">{tile.name}</span>}
      {tile.badge && <span className="badge grid-badge">{tile.badge}</span>}
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
