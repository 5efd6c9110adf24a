"use client";

import { useState } from "react";
import type { AlbumChoice } from "@/src/albums/components/add-to-album";
import { BulkAlbumDialog } from "@/src/albums/components/bulk-album-dialog";
import { LibraryBrowser, type LibraryBrowserProps } from "@/src/photos/components/library/library-browser";
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
        renderMoreActions={({ photoIds, isBusy }) => {
          // "All matching" is acted on by filter on the server; albums and tags take chosen photos.
          const tooMany = photoIds === null || photoIds.length > MAX_ORGANISE_IDS;
          const why = tooMany ? `Choose up to ${MAX_ORGANISE_IDS} photos to put them in an album or tag them.` : undefined;
          return (
            <>
              <button type="button" className="secondary button-small" disabled={isBusy || tooMany} title={why} onClick={() => photoIds && setDialog({ kind: "album", photoIds })}>
                Album…
              </button>
              <button type="button" className="secondary button-small" disabled={isBusy || tooMany} title={why} onClick={() => photoIds && setDialog({ kind: "tags", photoIds })}>
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
