"use client";

import { useId, useState } from "react";
import toast from "react-hot-toast";
import { Dialog } from "@/src/ui/dialog";
import type { AlbumChoice } from "./add-to-album";
import { describePhotoCount } from "./album-card-data";
import { addPhotosRequest, removePhotosRequest } from "./albums-api";

interface BulkAlbumDialogProps {
  open: boolean;
  albums: AlbumChoice[];
  /** The selected photos; every one must be the user's to change, or nothing changes. */
  photoIds: string[];
  onClose: () => void;
}

/**
 * Puts the library's selection into an album the editor picks, or takes it out: one request, all
 * or nothing (POST or DELETE /api/albums/{id}/photos), with a toast naming the album.
 */
export function BulkAlbumDialog({ open, albums, photoIds, onClose }: BulkAlbumDialogProps) {
  const [albumId, setAlbumId] = useState(albums[0]?.id ?? "");
  const [busy, setBusy] = useState<"add" | "remove" | null>(null);
  const selectId = useId();
  const count = describePhotoCount(photoIds.length);

  async function run(action: "add" | "remove") {
    const album = albums.find((choice) => choice.id === albumId);
    if (!album) return;
    setBusy(action);
    try {
      if (action === "add") {
        const { added } = await addPhotosRequest(album.id, photoIds);
        const already = photoIds.length - added;
        toast.success(`${describePhotoCount(added)} added to ${album.path}${already > 0 ? ` (${already} already there)` : ""}`);
      } else {
        const { removed } = await removePhotosRequest(album.id, photoIds);
        toast.success(`${describePhotoCount(removed)} taken out of ${album.path}`);
      }
      onClose();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "The album could not be changed; nothing was changed.");
    } finally {
      setBusy(null);
    }
  }

  return (
    <Dialog open={open} title={`Album for ${count}`} onClose={onClose}>
      {albums.length === 0 ? (
        <p className="muted">You have no albums yet: create one under Albums first.</p>
      ) : (
        <div className="field">
          <label htmlFor={selectId}>Album</label>
          <select id={selectId} value={albumId} onChange={(event) => setAlbumId(event.target.value)}>
            {albums.map((album) => (
              <option key={album.id} value={album.id} title={album.path}>
                {album.label}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="dialog-actions">
        <button type="button" className="secondary dialog-actions-start" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="secondary" disabled={!albumId || busy !== null} aria-busy={busy === "remove"} onClick={() => void run("remove")}>
          Take out of album
        </button>
        <button type="button" disabled={!albumId || busy !== null} aria-busy={busy === "add"} onClick={() => void run("add")}>
          Add to album
        </button>
      </div>
    </Dialog>
  );
}
