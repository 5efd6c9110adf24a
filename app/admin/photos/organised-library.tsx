"use client";

import { useState } from "react";
import toast from "react-hot-toast";
import type { AlbumChoice } from "@/src/albums/components/add-to-album";
import { BulkAlbumDialog } from "@/src/albums/components/bulk-album-dialog";
import { fetchMatchingPhotoIds, LibraryBrowser, type LibraryBrowserProps } from "@/src/photos/components/library/library-browser";
import { CreateShareDialog } from "@/src/shares/components/create-share-dialog";
import { MAX_SHARE_PHOTOS } from "@/src/shares/shares-owner.types";
import { BulkTagsDialog } from "@/src/tags/components/bulk-tags-dialog";

/** The most photos one album or tag change names (the albums and tags APIs' limit). */
const MAX_ORGANISE_IDS = 500;

/**
 * The library with its album, tag and share actions. They live here, where the page composes domains,
 * because photos never import albums, tags or shares (`albums → photos`, `tags → photos`, `shares → photos`).
 */
export function OrganisedLibrary({ albums, ...library }: LibraryBrowserProps & { albums: AlbumChoice[] }) {
  const [dialog, setDialog] = useState<{ kind: "album" | "tags" | "share"; photoIds: string[] } | null>(null);
  return (
    <>
      <LibraryBrowser
        {...library}
        renderMoreActions={({ photoIds, total, isBusy }) => {
          const count = photoIds?.length ?? total;
          const tooMany = count > MAX_ORGANISE_IDS;
          const why = tooMany ? `Albums and tags take up to ${MAX_ORGANISE_IDS} photos at a time: narrow the filter or the selection.` : undefined;
          // "All matching" is named by filter; albums and tags take ids, so read them first.
          const tooManyToShare = count > MAX_SHARE_PHOTOS;
          const open = async (kind: "album" | "tags" | "share") => {
            const limit = kind === "share" ? MAX_SHARE_PHOTOS : MAX_ORGANISE_IDS;
            try {
              setDialog({ kind, photoIds: photoIds ?? (await fetchMatchingPhotoIds(library.filter, limit)) });
            } catch (error) {
              toast.error(error instanceof Error ? error.message : "Could not read the matching photos.");
            }
          };
          return (
            <>
              <button type="button" className="secondary button-small" disabled={isBusy || tooMany} title={why} onClick={() => void open("album")}>
                Album…
              </button>
              <button type="button" className="secondary button-small" disabled={isBusy || tooMany} title={why} onClick={() => void open("tags")}>
                Tags…
              </button>
              <button
                type="button"
                className="secondary button-small"
                disabled={isBusy || tooManyToShare}
                title={tooManyToShare ? `A share link holds up to ${MAX_SHARE_PHOTOS} photos: narrow the filter or the selection.` : undefined}
                onClick={() => void open("share")}
              >
                Share…
              </button>
            </>
          );
        }}
      />
      <BulkAlbumDialog open={dialog?.kind === "album"} albums={albums} photoIds={dialog?.photoIds ?? []} onClose={() => setDialog(null)} />
      <BulkTagsDialog open={dialog?.kind === "tags"} photoIds={dialog?.photoIds ?? []} onClose={() => setDialog(null)} />
      <CreateShareDialog open={dialog?.kind === "share"} source={{ kind: "photos", photoIds: dialog?.photoIds ?? [] }} onClose={() => setDialog(null)} />
    </>
  );
}
