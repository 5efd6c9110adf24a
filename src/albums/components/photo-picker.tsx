"use client";

import { useEffect, useState } from "react";
import toast from "react-hot-toast";
import type { z } from "zod";
import { photoListResponseSchema } from "@/src/photos/photos-api.schemas";
import { callApi } from "@/src/ui/api-client";
import { Dialog } from "@/src/ui/dialog";
import { describePhotoCount } from "./album-card-data";
import { type EditorPhoto, toEditorPhoto } from "./album-editor-data";
import { addPhotosRequest } from "./albums-api";

const PAGE_SIZE = 60;

type LibraryPage = z.output<typeof photoListResponseSchema>;

/** One page of the signed-in editor's own photos, newest first. */
function fetchLibraryPage(cursor: string | null): Promise<LibraryPage> {
  const query = new URLSearchParams({ owner: "me", limit: String(PAGE_SIZE) });
  if (cursor) query.set("cursor", cursor);
  return callApi(`/api/photos?${query}`, { method: "GET" }, photoListResponseSchema);
}

interface PhotoPickerProps {
  albumId: string;
  albumTitle: string;
  /** Photos already in the album: shown, but not chosen again. */
  inAlbum: string[];
  onClose: () => void;
  onAdded: () => void;
}

/**
 * "Add photos": the editor's own library (GET /api/photos?owner=me, newest first, a page at a
 * time), several chosen at once, added in one request. Mounted only while open, so each opening
 * starts afresh (the library may have grown since).
 */
export function PhotoPicker({ albumId, albumTitle, inAlbum, onClose, onAdded }: PhotoPickerProps) {
  const [library, setLibrary] = useState<EditorPhoto[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [isLoading, setIsLoading] = useState(true);
  const [hasLoaded, setHasLoaded] = useState(false);
  const [chosen, setChosen] = useState<string[]>([]);
  const [isAdding, setIsAdding] = useState(false);

  function showPage(body: LibraryPage) {
    setLibrary((current) => {
      const known = new Set(current.map((photo) => photo.id));
      return [...current, ...body.photos.filter((photo) => !known.has(photo.id)).map((photo) => toEditorPhoto(photo, photo.originalName))];
    });
    setCursor(body.nextCursor);
    setHasLoaded(true);
    setIsLoading(false);
  }

  function showFailure(error: unknown) {
    toast.error(error instanceof Error ? error.message : "Your photos could not be loaded.");
    setIsLoading(false);
  }

  // The first page as the picker opens.
  useEffect(() => {
    fetchLibraryPage(null).then(showPage, showFailure);
  }, []);

  async function add() {
    if (chosen.length === 0) return;
    setIsAdding(true);
    try {
      const { added } = await addPhotosRequest(albumId, chosen);
      const skipped = chosen.length - added;
      toast.success(`${describePhotoCount(added).replace("No photos yet", "No photos")} added to ${albumTitle}${skipped > 0 ? ` (${skipped} already there)` : ""}`);
      onAdded();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "The photos could not be added.");
    } finally {
      setIsAdding(false);
    }
  }

  const already = new Set(inAlbum);
  return (
    <Dialog open title={`Add photos to ${albumTitle}`} onClose={onClose} className="dialog-wide">
      {!hasLoaded && isLoading ? (
        <p className="muted" aria-live="polite">
          Loading your photos…
        </p>
      ) : library.length === 0 ? (
        <p className="muted">Your library is empty. Upload photos first.</p>
      ) : (
        <ul className="photo-picker-grid" aria-label="Your photos">
          {library.map((photo) => {
            const isIn = already.has(photo.id);
            const isChosen = chosen.includes(photo.id);
            return (
              <li key={photo.id} className="photo-picker-item" data-chosen={isChosen ? "" : undefined} data-in-album={isIn ? "" : undefined} style={{ backgroundColor: photo.color ?? undefined }}>
                <label>
                  <input
                    type="checkbox"
                    checked={isIn || isChosen}
                    disabled={isIn}
                    onChange={() => setChosen((current) => (current.includes(photo.id) ? current.filter((id) => id !== photo.id) : [...current, photo.id]))}
                    aria-label={isIn ? `${photo.name} (already in the album)` : `Choose ${photo.name}`}
                    data-testid="photo-picker-choice"
                    data-photo-id={photo.id}
                  />
                  {/* eslint-disable-next-line @next/next/no-img-element -- an already small variant; private ones must not go through /_next/image */}
                  {photo.thumbnail && <img src={photo.thumbnail} alt="" loading="lazy" decoding="async" />}
                  {isIn && <span className="badge photo-picker-badge">In album</span>}
                </label>
              </li>
            );
          })}
        </ul>
      )}
      {cursor && (
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setIsLoading(true);
            fetchLibraryPage(cursor).then(showPage, showFailure);
          }}
          disabled={isLoading}
          aria-busy={isLoading}
        >
          Show more photos
        </button>
      )}
      <div className="dialog-actions">
        <button type="button" className="secondary" onClick={onClose}>
          Cancel
        </button>
        <button type="button" onClick={() => void add()} disabled={chosen.length === 0 || isAdding} aria-busy={isAdding}>
          {chosen.length === 0 ? "Add photos" : `Add ${describePhotoCount(chosen.length)}`}
        </button>
      </div>
    </Dialog>
  );
}
