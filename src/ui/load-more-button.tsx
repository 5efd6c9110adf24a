"use client";

/** The "Load more" under an admin list that pages by cursor (the library, the trash, share links and their access log). */
export function LoadMoreButton({ isLoading, onLoad }: { isLoading: boolean; onLoad: () => void }) {
  return (
    <div className="load-more">
      <button type="button" className="secondary" onClick={onLoad} disabled={isLoading} aria-busy={isLoading}>
        {isLoading ? "Loading…" : "Load more"}
      </button>
    </div>
  );
}
