"use client";

import Link from "next/link";
import { useId, useState } from "react";
import toast from "react-hot-toast";
import type { AlbumPickerChoice } from "../album-tree";
import { describePhotoCount } from "./album-card-data";
import { addPhotosRequest } from "./albums-api";

/** An album the editor may pick: in tree order, as src/albums/album-tree.ts lists it. */
export type AlbumChoice = AlbumPickerChoice;

/** After uploads: the photos just uploaded go into an album the editor picks, in one request. */
export function AddToAlbum({ albums, photoIds }: { albums: AlbumChoice[]; photoIds: string[] }) {
  const [albumId, setAlbumId] = useState(albums[0]?.id ?? "");
  const [isBusy, setIsBusy] = useState(false);
  const selectId = useId();
  const count = describePhotoCount(photoIds.length);

  async function add() {
    const album = albums.find((choice) => choice.id === albumId);
    if (!album) return;
    setIsBusy(true);
    try {
      const { added } = await addPhotosRequest(album.id, photoIds);
      const skipped = photoIds.length - added;
      toast.success(`${added === 0 ? "No photos" : describePhotoCount(added)} added to ${album.path}${skipped > 0 ? ` (${skipped} already there)` : ""}`);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "The photos could not be added to the album.");
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <section className="add-to-album" aria-labelledby={`${selectId}-title`} data-testid="add-to-album">
      <h2 id={`${selectId}-title`} className="uploader-heading">
        Put the {photoIds.length === 1 ? "photo" : `${count}`} you just uploaded in an album
      </h2>
      {albums.length === 0 ? (
        <p className="muted">
          You have no albums yet. <Link href="/admin/albums">Create one</Link>, then add photos from its page.
        </p>
      ) : (
        <div className="add-to-album-row">
          <label htmlFor={selectId} className="visually-hidden">
            Album
          </label>
          <select id={selectId} value={albumId} onChange={(event) => setAlbumId(event.target.value)}>
            {albums.map((album) => (
              <option key={album.id} value={album.id} title={album.path}>
                {album.label}
              </option>
            ))}
          </select>
          <button type="button" onClick={() => void add()} disabled={isBusy || !albumId} aria-busy={isBusy}>
            Add to album
          </button>
        </div>
      )}
    </section>
  );
}
