"use client";

import { useState } from "react";
import toast from "react-hot-toast";
import type { AlbumChoice } from "@/src/albums/components/add-to-album";
import { BulkAlbumDialog } from "@/src/albums/components/bulk-album-dialog";
import { fetchMatchingPhotoIds, LibraryBrowser, type LibraryBrowserProps } from "@/src/photos/components/library/library-browser";
import { BulkTagsDialog } from "@/src/tags/components/bulk-tags-dialog";

/** The most photos one album or tag change names (the albums and tags APIs' limit). */
const MAX_ORGANISE_IDS = 500;

/**
 * The library with its album and tag actions. They live here, where the page composes domains,
 * because photos never import albums or tags (`albums → photos`, `tags → photos`).
 */
export function OrganisedLibrary({ albums, ...library }: LibraryBrowserProps & { albums: AlbumChoice[] }) {
  const [dialog, setDialog] = useState<{ kind: "album" | "tags"; photoIds: string[] } | null>(null);
  return (
    <>
      <LibraryBrowser
        {...library}
        renderMoreActions={({ photoIds, total, isBusy }) => {
          const count = photoIds?.length ?? total;
          const tooMany = count > MAX_ORGANISE_IDS;
          const why = tooMany ? `Albums and tags take up to ${MAX_ORGANISE_IDS} photos at a time: narrow the filter or the selection.` : undefined;
          // "All matching" is named by filter; albums and tags take ids, so read them first.
          const open = async (kind: "album" | "tags") => {
            try {
              setDialog({ kind, photoIds: photoIds ?? (await fetchMatchingPhotoIds(library.filter, MAX_ORGANISE_IDS)) });
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
            </>
          );
        }}
      />
      <BulkAlbumDialog open={dialog?.kind === "album"} albums={albums} photoIds={dialog?.photoIds ?? []} onClose={() => setDialog(null)} />
      <BulkTagsDialog open={dialog?.kind === "tags"} photoIds={dialog?.photoIds ?? []} onClose={() => setDialog(null)} />
    </>
  );
}
