"use client";

import { type KeyboardEvent, type MouseEvent, type ReactNode, useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import toast from "react-hot-toast";
import { PHOTO_LABELS, type PhotoLabel, VISIBILITIES, type Visibility } from "@/src/db/database";
import { callApi } from "@/src/ui/api-client";
import { bulkPhotosResponseSchema, trashChangeResponseSchema } from "../../bulk.schemas";
import { libraryFilterToSearchParams, type LibraryFilter } from "../../library-filters";
import { libraryPageResponseSchema } from "../../library.schemas";
import type { LibraryPage, LibraryPhoto } from "../../library.service";
import { LoadMoreButton } from "@/src/ui/load-more-button";

/**
 * The ids of every photo the filter matches (the library API, page by page), for actions of other
 * domains that take ids, where "all matching" cannot go by filter. At most `limit` ids.
 */
export async function fetchMatchingPhotoIds(filter: LibraryFilter, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const params = libraryFilterToSearchParams(filter);
    params.set("limit", "200");
    if (cursor) params.set("cursor", cursor);
    const page: LibraryPage = await callApi(`/api/photos/library?${params.toString()}`, { method: "GET" }, libraryPageResponseSchema);
    ids.push(...page.photos.map((photo) => photo.id));
    cursor = page.nextCursor;
  } while (cursor && ids.length < limit);
  return ids.slice(0, limit);
}

const VISIBILITY_LABELS: Record<Visibility, string> = { public: "Public", unlisted: "Unlisted", members: "Members", private: "Private" };
/** The most ids one bulk request names (bulk.schemas.ts); past that, "all matching" goes by filter. */
const MAX_IDS = 1000;

export interface LibraryBrowserProps {
  initialPage: LibraryPage;
  filter: LibraryFilter;
  /**
   * More buttons for the selection bar (albums, tags: domains photos does not import). `photoIds`
   * is null when "all matching" is selected, which only the photos API acts on (by filter).
   */
  renderMoreActions?: (selection: { photoIds: string[] | null; total: number; isBusy: boolean }) => ReactNode;
}

/** The library's grid with selection (click, shift-click, keyboard), the bulk bar and the one-photo side panel. */
export function LibraryBrowser({ initialPage, filter, renderMoreActions }: LibraryBrowserProps) {
  const [photos, setPhotos] = useState<LibraryPhoto[]>(initialPage.photos);
  const [nextCursor, setNextCursor] = useState(initialPage.nextCursor);
  const [total, setTotal] = useState(initialPage.total);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [allMatching, setAllMatching] = useState(false);
  const [anchor, setAnchor] = useState<number | null>(null);
  const [focusIndex, setFocusIndex] = useState(0);
  const [isBusy, setIsBusy] = useState(false);
  const [isLoadingMore, setIsLoadingMore] = useState(false);
  const gridRef = useRef<HTMLUListElement>(null);
  const statusId = useId();

  const selectedCount = allMatching ? total : selected.size;
  const onlySelected = !allMatching && selected.size === 1 ? photos.find((photo) => selected.has(photo.id)) ?? null : null;

  const clear = useCallback(() => {
    setSelected(new Set());
    setAllMatching(false);
  }, []);

  function toggle(index: number) {
    const id = photos[index].id;
    setAllMatching(false);
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
    setAnchor(index);
  }

  function selectRange(index: number) {
    const from = anchor ?? index;
    const [start, end] = from < index ? [from, index] : [index, from];
    setAllMatching(false);
    setSelected((current) => {
      const next = new Set(current);
      for (let each = start; each <= end; each += 1) next.add(photos[each].id);
      return next;
    });
  }

  function handleTileClick(event: MouseEvent, index: number) {
    setFocusIndex(index);
    if (event.shiftKey) selectRange(index);
    else toggle(index);
  }

  /** How many tiles a row holds now, from where they sit (the grid reflows with the width). */
  function columns(): number {
    const tiles = gridRef.current?.children;
    if (!tiles || tiles.length === 0) return 1;
    const top = (tiles[0] as HTMLElement).offsetTop;
    let count = 0;
    while (count < tiles.length && (tiles[count] as HTMLElement).offsetTop === top) count += 1;
    return Math.max(1, count);
  }

  function moveFocus(index: number) {
    const next = Math.max(0, Math.min(photos.length - 1, index));
    setFocusIndex(next);
    (gridRef.current?.children[next]?.firstElementChild as HTMLElement | null)?.focus();
  }

  function handleGridKeyDown(event: KeyboardEvent) {
    const steps: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: columns(), ArrowUp: -columns() };
    if (event.key in steps) {
      event.preventDefault();
      const next = Math.max(0, Math.min(photos.length - 1, focusIndex + steps[event.key]));
      moveFocus(next);
      if (event.shiftKey) {
        setAnchor((current) => current ?? focusIndex);
        selectRange(next);
      }
    } else if (event.key === " " || event.key === "Enter") {
      event.preventDefault();
      if (event.shiftKey) selectRange(focusIndex);
      else toggle(focusIndex);
    } else if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      moveFocus(event.key === "Home" ? 0 : photos.length - 1);
    }
  }

  useEffect(() => {
    function onKeyDown(event: globalThis.KeyboardEvent) {
      const target = event.target as HTMLElement | null;
      if (target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return;
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "a") {
        event.preventDefault();
        setAllMatching(false);
        setSelected(new Set(photos.map((photo) => photo.id)));
      } else if (event.key === "Escape" && !document.querySelector("dialog[open]")) {
        clear();
      }
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [photos, clear]);

  async function loadMore() {
    if (!nextCursor) return;
    setIsLoadingMore(true);
    try {
      const params = libraryFilterToSearchParams(filter);
      params.set("cursor", nextCursor);
      const page = await callApi(`/api/photos/library?${params.toString()}`, { method: "GET" }, libraryPageResponseSchema);
      setPhotos((current) => [...current, ...page.photos.filter((photo) => !current.some((each) => each.id === photo.id))]);
      setNextCursor(page.nextCursor);
      setTotal(page.total);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "Could not load more photos.");
    } finally {
      setIsLoadingMore(false);
    }
  }

  /** What a bulk request acts on: the selected ids, or the filter when "all matching" is on. */
  const selection = useMemo(() => (allMatching ? { filter } : { photoIds: [...selected] }), [allMatching, filter, selected]);

  function applyVisibilities(changes: Array<{ id: string; visibility: Visibility }>) {
    const byId = new Map(changes.map((change) => [change.id, change.visibility]));
    setPhotos((current) => current.map((photo) => (byId.has(photo.id) ? { ...photo, visibility: byId.get(photo.id) as Visibility } : photo)));
  }

  function announce(message: string, undo?: () => Promise<void>) {
    toast(
      (shown) => (
        <span className="library-toast">
          <span>{message}</span>
          {undo && (
            <button
              type="button"
              className="button-small secondary"
              onClick={() => {
                toast.dismiss(shown.id);
                void undo();
              }}
            >
              Undo
            </button>
          )}
        </span>
      ),
      { duration: undo ? 8000 : 4000 },
    );
  }

  async function run<T>(work: () => Promise<T>): Promise<T | null> {
    setIsBusy(true);
    try {
      return await work();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "The change failed; nothing was changed.");
      return null;
    } finally {
      setIsBusy(false);
    }
  }

  async function setVisibility(visibility: Visibility) {
    const result = await run(() => callApi("/api/photos", { method: "PATCH", body: { ...selection, set: { visibility } } }, bulkPhotosResponseSchema));
    if (!result) return;
    applyVisibilities(result.photos.map((photo) => ({ id: photo.id, visibility: photo.after.visibility })));
    const before = result.photos.map((photo) => ({ id: photo.id, visibility: photo.before.visibility }));
    announce(
      result.message,
      before.length > 0 && before.length <= MAX_IDS
        ? async () => {
            const undone = await run(() => callApi("/api/photos", { method: "PATCH", body: { each: before } }, bulkPhotosResponseSchema));
            if (undone) {
              applyVisibilities(before);
              toast.success("Undone: visibility put back");
            }
          }
        : undefined,
    );
  }

  /** The owner's stars or colour label on every selected photo ("0" and "none" take them off). */
  async function setOwnerNote(note: { rating: number } | { label: PhotoLabel | null }) {
    const result = await run(() => callApi("/api/photos", { method: "PATCH", body: { ...selection, set: note } }, bulkPhotosResponseSchema));
    if (result) announce(result.message);
  }

  async function moveToTrash() {
    const result = await run(() => callApi("/api/photos", { method: "PATCH", body: { ...selection, action: "trash" } }, bulkPhotosResponseSchema));
    if (!result) return;
    const trashed = new Set(result.photoIds);
    const removed = photos.filter((photo) => trashed.has(photo.id));
    setPhotos((current) => current.filter((photo) => !trashed.has(photo.id)));
    setTotal((current) => Math.max(0, current - result.changed));
    clear();
    announce(
      result.message,
      result.photoIds.length <= MAX_IDS
        ? async () => {
            const restored = await run(() => callApi("/api/trash/restore", { method: "POST", body: { photoIds: result.photoIds } }, trashChangeResponseSchema));
            if (restored) {
              setPhotos((current) => [...current, ...removed].sort((left, right) => photos.indexOf(left) - photos.indexOf(right)));
              setTotal((current) => current + result.changed);
              toast.success("Undone: restored from the trash");
            }
          }
        : undefined,
    );
  }

  async function saveDetails(photo: LibraryPhoto, changes: { title: string; altText: string }) {
    const saved = await run(() => callApi(`/api/photos/${photo.id}`, { method: "PATCH", body: changes }));
    if (saved === null) return;
    setPhotos((current) => current.map((each) => (each.id === photo.id ? { ...each, ...changes } : each)));
    toast.success("Details saved");
  }

  if (photos.length === 0) {
    return <p className="muted library-empty">No photos match. {total === 0 ? "Upload some, or clear the filters." : ""}</p>;
  }

  return (
    <div className={onlySelected ? "library library-with-panel" : "library"}>
      <div className="library-main">
        <div className="library-toolbar" role="toolbar" aria-label="Selected photos" aria-describedby={statusId}>
          <p id={statusId} className="library-count" aria-live="polite" data-testid="library-selection">
            {selectedCount > 0 ? (
              <strong>{allMatching ? `All ${total} matching selected` : `${selectedCount} of ${total} selected`}</strong>
            ) : (
              <span>
                {total} {total === 1 ? "photo" : "photos"}
              </span>
            )}
          </p>
          {selectedCount > 0 && !allMatching && total > selected.size && (
            <button type="button" className="button-ghost button-small" onClick={() => setAllMatching(true)}>
              Select all {total} matching
            </button>
          )}
          {selectedCount > 0 && (
            <div className="library-actions">
              <label className="visually-hidden" htmlFor={`${statusId}-visibility`}>
                Make selected
              </label>
              <select
                id={`${statusId}-visibility`}
                className="library-visibility"
                value=""
                disabled={isBusy}
                onChange={(event) => {
                  if (event.target.value) void setVisibility(event.target.value as Visibility);
                }}
              >
                <option value="">Set visibility…</option>
                {VISIBILITIES.map((visibility) => (
                  <option key={visibility} value={visibility}>
                    {VISIBILITY_LABELS[visibility]}
                  </option>
                ))}
              </select>
              <label className="visually-hidden" htmlFor={`${statusId}-rating`}>
                Rate selected
              </label>
              <select
                id={`${statusId}-rating`}
                className="library-visibility"
                value=""
                disabled={isBusy}
                onChange={(event) => {
                  if (event.target.value) void setOwnerNote({ rating: Number(event.target.value) });
                }}
              >
                <option value="">Set rating…</option>
                {[5, 4, 3, 2, 1].map((stars) => (
                  <option key={stars} value={stars}>
                    {"★".repeat(stars)} ({stars})
                  </option>
                ))}
                <option value="0">No rating</option>
              </select>
              <label className="visually-hidden" htmlFor={`${statusId}-label`}>
                Label selected
              </label>
              <select
                id={`${statusId}-label`}
                className="library-visibility"
                value=""
                disabled={isBusy}
                onChange={(event) => {
                  const value = event.target.value;
                  if (value) void setOwnerNote({ label: value === "none" ? null : (value as PhotoLabel) });
                }}
              >
                <option value="">Set label…</option>
                {PHOTO_LABELS.map((label) => (
                  <option key={label} value={label}>
                    {label[0].toUpperCase() + label.slice(1)}
                  </option>
                ))}
                <option value="none">No label</option>
              </select>
              {renderMoreActions?.({ photoIds: allMatching ? null : [...selected], total, isBusy })}
              <button type="button" className="danger button-small" disabled={isBusy} onClick={() => void moveToTrash()}>
                Move to trash
              </button>
              <button type="button" className="button-ghost button-small" onClick={clear}>
                Clear
              </button>
            </div>
          )}
        </div>
        <p className="visually-hidden">Click or press Space to select, Shift to select a range, Ctrl+A for all shown, Escape to clear.</p>
        <ul ref={gridRef} className="library-grid" role="listbox" aria-multiselectable="true" aria-label="Photos" onKeyDown={handleGridKeyDown}>
          {photos.map((photo, index) => {
            const isSelected = allMatching || selected.has(photo.id);
            return (
              <li key={photo.id} className="library-tile-item" role="none">
                <div
                  role="option"
                  aria-selected={isSelected}
                  tabIndex={index === focusIndex ? 0 : -1}
                  className={isSelected ? "library-tile is-selected" : "library-tile"}
                  data-photo-id={photo.id}
                  onClick={(event) => handleTileClick(event, index)}
                  onFocus={() => setFocusIndex(index)}
                >
                  <span className="library-thumb" style={{ backgroundColor: photo.dominantColor ?? undefined }}>
                    {photo.thumbnailUrl ? (
                      // eslint-disable-next-line @next/next/no-img-element -- a small variant already sized for a tile
                      <img src={photo.thumbnailUrl} alt={photo.altText || photo.title || photo.originalName} loading="lazy" draggable={false} />
                    ) : (
                      <span className="library-thumb-empty">{photo.status === "failed" ? "Failed" : "Processing"}</span>
                    )}
                  </span>
                  <span className="library-check" aria-hidden="true">
                    {isSelected ? "✓" : ""}
                  </span>
                  <span className="library-tile-meta">
                    <span className="library-tile-name">{photo.title || photo.originalName}</span>
                    <span className={`badge library-visibility-${photo.visibility}`}>{VISIBILITY_LABELS[photo.visibility]}</span>
                    {photo.altText.trim() === "" && <span className="badge badge-warning">No alt</span>}
                  </span>
                </div>
              </li>
            );
          })}
        </ul>
        {nextCursor && <LoadMoreButton isLoading={isLoadingMore} onLoad={() => void loadMore()} />}
      </div>
      {onlySelected && <LibrarySidePanel key={onlySelected.id} photo={onlySelected} isBusy={isBusy} onSave={saveDetails} onClose={clear} />}
    </div>
  );
}

function LibrarySidePanel({
  photo,
  isBusy,
  onSave,
  onClose,
}: {
  photo: LibraryPhoto;
  isBusy: boolean;
  onSave: (photo: LibraryPhoto, changes: { title: string; altText: string }) => Promise<void>;
  onClose: () => void;
}) {
  const fieldId = useId();
  const [title, setTitle] = useState(photo.title);
  const [altText, setAltText] = useState(photo.altText);
  return (
    <aside className="library-panel" aria-label="Photo details">
      <div className="library-panel-header">
        <h2>Details</h2>
        <button type="button" className="button-ghost button-small" onClick={onClose}>
          Close
        </button>
      </div>
      {photo.thumbnailUrl && (
        // eslint-disable-next-line @next/next/no-img-element -- the same small variant as the tile
        <img className="library-panel-image" src={photo.thumbnailUrl} alt={photo.altText || photo.title || photo.originalName} />
      )}
      <p className="muted library-panel-name">
        {photo.originalName}
        {photo.camera ? ` · ${photo.camera}` : ""}
      </p>
      <form
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          void onSave(photo, { title, altText });
        }}
      >
        <div className="field">
          <label htmlFor={`${fieldId}-title`}>Title</label>
          <input id={`${fieldId}-title`} value={title} maxLength={200} onChange={(event) => setTitle(event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${fieldId}-alt`}>Alt text</label>
          <textarea id={`${fieldId}-alt`} value={altText} maxLength={1000} rows={4} onChange={(event) => setAltText(event.target.value)} aria-describedby={`${fieldId}-alt-hint`} />
          <p id={`${fieldId}-alt-hint`} className="field-hint">
            What the photo shows, read aloud to people who cannot see it.
          </p>
        </div>
        <div className="actions">
          <button type="submit" disabled={isBusy} aria-busy={isBusy}>
            Save details
          </button>
          <a className="button button-ghost" href={`/p/${photo.id}`}>
            Open photo page
          </a>
        </div>
      </form>
    </aside>
  );
}
