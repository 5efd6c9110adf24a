"use client";

import { useState } from "react";
import toast from "react-hot-toast";
import { callApi } from "@/src/ui/api-client";
import { ConfirmDialog } from "@/src/ui/dialog";
import { trashChangeResponseSchema, type TrashedPhoto, trashListResponseSchema } from "../../bulk.schemas";
import { LoadMoreButton } from "@/src/ui/load-more-button";

const DATE = new Intl.DateTimeFormat("en", { dateStyle: "medium" });

interface TrashBrowserProps {
  initialPhotos: TrashedPhoto[];
  /** Where the next page of the trash starts (GET /api/trash), or null when all are shown. */
  initialCursor: string | null;
  retentionDays: number;
}

/** The trash: choose photos to restore or delete for good, or empty it. */
export function TrashBrowser({ initialPhotos, initialCursor, retentionDays }: TrashBrowserProps) {
  const [photos, setPhotos] = useState(initialPhotos);
  const [nextCursor, setNextCursor] = useState(initialCursor);
  const [isLoadingMore, setIsLoadingMore] = useState(false);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirming, setConfirming] = useState<"selected" | "all" | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  function toggle(id: string) {
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  async function act(work: () => Promise<{ message: string }>, gone: Set<string> | null) {
    setIsBusy(true);
    try {
      const result = await work();
      setPhotos((current) => (gone === null ? [] : current.filter((photo) => !gone.has(photo.id))));
      setSelected(new Set());
      toast.success(result.message);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "The change failed; nothing was changed.");
    } finally {
      setIsBusy(false);
      setConfirming(null);
    }
  }

  async function loadMore() {
    if (!nextCursor) return;
    setIsLoadingMore(true);
    try {
      const page = await callApi(`/api/trash?limit=100&cursor=${encodeURIComponent(nextCursor)}`, { method: "GET" }, trashListResponseSchema);
      setPhotos((current) => [...current, ...page.photos.filter((photo) => !current.some((each) => each.id === photo.id))]);
      setNextCursor(page.nextCursor);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "Could not load more of the trash.");
    } finally {
      setIsLoadingMore(false);
    }
  }

  const restore = () => act(() => callApi("/api/trash/restore", { method: "POST", body: { photoIds: [...selected] } }, trashChangeResponseSchema), new Set(selected));
  const deleteSelected = () => act(() => callApi("/api/trash", { method: "DELETE", body: { photoIds: [...selected] } }, trashChangeResponseSchema), new Set(selected));
  const emptyAll = () => act(() => callApi("/api/trash", { method: "DELETE", body: {} }, trashChangeResponseSchema), null);

  if (photos.length === 0) {
    return <p className="muted trash-empty">The trash is empty. Deleted photos stay here for {retentionDays} days before they are deleted for good.</p>;
  }

  return (
    <div className="trash">
      <div className="library-toolbar" role="toolbar" aria-label="Trash">
        <p className="library-count" aria-live="polite">
          {selected.size > 0 ? (
            <strong>{selected.size} selected</strong>
          ) : (
            `${photos.length}${nextCursor ? "+" : ""} ${photos.length === 1 && !nextCursor ? "photo" : "photos"} in the trash`
          )}
        </p>
        <div className="library-actions">
          <button type="button" className="secondary button-small" onClick={() => setSelected(new Set(photos.map((photo) => photo.id)))}>
            Select all
          </button>
          <button type="button" className="button-small" disabled={selected.size === 0 || isBusy} onClick={() => void restore()}>
            Restore
          </button>
          <button type="button" className="danger button-small" disabled={selected.size === 0 || isBusy} onClick={() => setConfirming("selected")}>
            Delete for good
          </button>
          <button type="button" className="button-ghost button-small" disabled={isBusy} onClick={() => setConfirming("all")}>
            Empty trash
          </button>
        </div>
      </div>
      <ul className="library-grid trash-grid" aria-label="Photos in the trash">
        {photos.map((photo) => {
          const isSelected = selected.has(photo.id);
          const name = photo.title || photo.originalName;
          return (
            <li key={photo.id} className="library-tile-item">
              <label className={isSelected ? "library-tile is-selected" : "library-tile"} data-photo-id={photo.id}>
                <input type="checkbox" className="visually-hidden" checked={isSelected} onChange={() => toggle(photo.id)} aria-label={`Select ${name}`} />
                <span className="library-thumb">
                  {photo.thumbnailUrl ? (
                    // eslint-disable-next-line @next/next/no-img-element -- a small variant already sized for a tile
                    <img src={photo.thumbnailUrl} alt={photo.altText || name} loading="lazy" />
                  ) : (
                    <span className="library-thumb-empty">No preview</span>
                  )}
                </span>
                <span className="library-check" aria-hidden="true">
                  {isSelected ? "✓" : ""}
                </span>
                <span className="library-tile-meta">
                  <span className="library-tile-name">{name}</span>
                  <span className="muted trash-expiry">Deleted for good {DATE.format(new Date(photo.expiresAt))}</span>
                </span>
              </label>
            </li>
          );
        })}
      </ul>
      {nextCursor && <LoadMoreButton isLoading={isLoadingMore} onLoad={() => void loadMore()} />}
      <ConfirmDialog
        open={confirming !== null}
        title={confirming === "all" ? "Empty the trash?" : `Delete ${selected.size} ${selected.size === 1 ? "photo" : "photos"} for good?`}
        confirmLabel={confirming === "all" ? "Empty trash" : "Delete for good"}
        tone="danger"
        isBusy={isBusy}
        onConfirm={() => void (confirming === "all" ? emptyAll() : deleteSelected())}
        onClose={() => setConfirming(null)}
      >
        {confirming === "all" ? "Every photo in the trash and its files are deleted. This cannot be undone." : "These photos and their files are deleted. This cannot be undone."}
      </ConfirmDialog>
    </div>
  );
}
