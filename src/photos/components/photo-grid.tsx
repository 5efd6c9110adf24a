"use client";

import { useRouter } from "next/navigation";
import { type CSSProperties, type MouseEvent, type ReactNode, useEffect, useRef } from "react";
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
  // A phone's first screen loads at once (see grid-loading.ts); pages appended later are all below it.
  const loading = planTileLoading(tiles.map((tile) => tile.ratio));
  const grid = useRef<HTMLDivElement>(null);
  const router = useRouter();

  // The blurred previews are decoded here, after hydration, and only for images still on their way,
  // a few tiles a task: 30 decodes in one go were one long task on a phone's main thread while the
  // first screen loaded (about 0.2 ms each on this machine, several times that on a phone).
  useEffect(() => {
    const links = [...(grid.current?.querySelectorAll<HTMLAnchorElement>("a.grid-tile") ?? [])];
    let next = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const paintSome = () => {
      // The links are in the tiles' order: one a.grid-tile per tile, framed or not.
      for (const end = Math.min(next + PLACEHOLDERS_PER_TASK, links.length); next < end; next += 1) paintPlaceholder(links[next]!, tiles[next]);
      if (next < links.length) timer = setTimeout(paintSome, 0);
    };
    paintSome();
    return () => clearTimeout(timer);
  }, [tiles]);

  // The tiles are plain links and this one handler navigates within the app for all of them, as
  // next/link would: 30 <Link>s each ran their hooks and registered an instance while the page
  // hydrated, on the phone's main thread during the first screen's load (bench:lighthouse's TBT).
  function followTileLink(event: MouseEvent<HTMLDivElement>) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element).closest<HTMLAnchorElement>("a.grid-tile");
    const href = link?.getAttribute("href");
    if (!href || !grid.current?.contains(link)) return;
    event.preventDefault();
    router.push(href);
  }

  return (
    // The links inside take the keyboard and the click (Enter on a link is a click); this only routes them.
    <div ref={grid} className="photo-grid" onClick={followTileLink}>
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

const PLACEHOLDERS_PER_TASK = 4;

/** Paints a tile's blurred preview behind its image, unless the image is already there (or was painted before). */
function paintPlaceholder(link: HTMLAnchorElement, tile: GalleryTile | undefined): void {
  if (!tile || link.style.backgroundImage || link.querySelector("img")?.complete) return;
  const placeholder = toPlaceholderUrl(tile.thumbhash);
  if (placeholder) link.style.backgroundImage = `url(${placeholder})`;
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
  // In a frame (a share's pick toggle), the frame carries the shape and the cap.
  const style = { ...(framed ? { "--ar": tile.ratio } : tileShape(tile)), backgroundColor: tile.color ?? undefined } as CSSProperties;
  const sizes = tileSizes(tile.ratio);
  // Never prefetched: every tile on the screen would otherwise fetch its photo page's router payload
  // as the page hydrates (31-36 requests per page view, measured by bench:lighthouse's reports) while
  // the first row is still painting; a photo page is dynamic, so a prefetch held only its layout.
  return (
    <a href={href} className={tile.maxWidth && !framed ? "grid-tile grid-tile-capped" : "grid-tile"} style={style} data-testid="grid-photo">
      {tile.jpeg && (
        <picture>
          {tile.avif && <source type="image/avif" srcSet={expandSrcSet(tile.base, tile.avif)} sizes={sizes} />}
          {/* Variants are already sized, and private ones must not go through /_next/image. With AVIF
              there, the JPEG is one file for the few browsers without it; else it is the srcset. */}
          <img
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
    </a>
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
