"use client";

import { useEffect, useRef, useState, useTransition } from "react";
import type { GalleryPage, GalleryTile } from "../gallery-tile";
import { PhotoGrid, type PhotoGridLinks } from "./photo-grid";

interface EndlessGalleryProps extends PhotoGridLinks {
  firstTiles: GalleryTile[];
  firstCursor: string | null;
  /** A server action answering the tiles of the next page and the cursor after it. */
  loadMore: (cursor: string) => Promise<GalleryPage>;
}

/**
 * Appends the next page of tiles when the reader nears the end (keyset cursor, no offsets). All
 * pages share one grid, so a page's short last row fills up when the next one arrives.
 */
export function EndlessGallery({ firstTiles, firstCursor, loadMore, ...links }: EndlessGalleryProps) {
  const [tiles, setTiles] = useState(firstTiles);
  const [cursor, setCursor] = useState(firstCursor);
  const [isPending, startTransition] = useTransition();
  const [hasScrolled, setHasScrolled] = useState(false);
  const sentinel = useRef<HTMLDivElement>(null);

  // Until the reader scrolls, the next page comes only if the end of this one is on the screen: on
  // a phone the end of the first page is within 800 px of it, and fetching and drawing a second
  // page of tiles while the first loads cost Lighthouse its CPU and bandwidth (bench:lighthouse).
  useEffect(() => {
    if (hasScrolled) return;
    const onScroll = () => setHasScrolled(true);
    window.addEventListener("scroll", onScroll, { once: true, passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, [hasScrolled]);

  useEffect(() => {
    const element = sentinel.current;
    if (!element || !cursor) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries[0]?.isIntersecting || isPending) return;
        startTransition(async () => {
          const next = await loadMore(cursor);
          // A photo can move between pages while the reader scrolls (a date edited); show it once.
          setTiles((previous) => {
            const shown = new Set(previous.map((tile) => tile.id));
            return [...previous, ...next.tiles.filter((tile) => !shown.has(tile.id))];
          });
          setCursor(next.nextCursor);
        });
      },
      { rootMargin: hasScrolled ? "800px" : "0px" },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [cursor, isPending, loadMore, hasScrolled]);

  return (
    <>
      <PhotoGrid tiles={tiles} {...links} />
      <div ref={sentinel} className="gallery-end" aria-live="polite">
        {cursor ? (isPending ? "Loading more photos…" : "") : null}
      </div>
    </>
  );
}
