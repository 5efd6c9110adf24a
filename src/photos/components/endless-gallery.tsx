"use client";

import { type ReactNode, useEffect, useRef, useState, useTransition } from "react";

interface EndlessGalleryProps {
  firstPage: ReactNode;
  firstCursor: string | null;
  /** A server action answering the next page, already rendered, and the cursor after it. */
  loadMore: (cursor: string) => Promise<{ page: ReactNode; nextCursor: string | null }>;
}

/** Appends the next page of the grid when the reader nears the end (keyset cursor, no offsets). */
export function EndlessGallery({ firstPage, firstCursor, loadMore }: EndlessGalleryProps) {
  const [pages, setPages] = useState<ReactNode[]>([firstPage]);
  const [cursor, setCursor] = useState(firstCursor);
  const [isPending, startTransition] = useTransition();
  const sentinel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = sentinel.current;
    if (!element || !cursor) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries[0]?.isIntersecting || isPending) return;
        startTransition(async () => {
          const next = await loadMore(cursor);
          setPages((previous) => [...previous, next.page]);
          setCursor(next.nextCursor);
        });
      },
      { rootMargin: "800px" },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [cursor, isPending, loadMore]);

  return (
    <>
      {pages.map((page, index) => (
        <div key={index}>{page}</div>
      ))}
      <div ref={sentinel} className="gallery-end" aria-live="polite">
        {cursor ? (isPending ? "Loading more photos…" : "") : null}
      </div>
    </>
  );
}
