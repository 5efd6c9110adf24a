"use client";

import { useState } from "react";
import { CreateShareDialog } from "./create-share-dialog";

/** "Share…" on an album's editor page: a link to a snapshot of the album's photos. */
export function ShareAlbumButton({ albumId, title }: { albumId: string; title: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="secondary" onClick={() => setOpen(true)}>
        Share…
      </button>
      <CreateShareDialog open={open} source={{ kind: "album", albumId, title }} onClose={() => setOpen(false)} />
    </>
  );
}
