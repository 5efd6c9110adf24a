"use client";

import { useCallback } from "react";
import type { GalleryPage, GalleryTile } from "@/src/photos/gallery-tile";
import { EndlessGallery } from "@/src/photos/components/endless-gallery";
import { readAnswer } from "@/src/ui/api-client";
import { toShareTiles } from "../share-tiles";
import { PickToggle } from "./proofing";
import { sharePhotoPageAnswer } from "./share-visitor-answers";

/**
 * The link's photos in the site's justified grid, in the link's order: the next pages come from
 * the visitor API's cursor (/s/[key]/api/photos), every image and link stays under /s/[key].
 */
export function ShareGallery({
  shareKey,
  firstTiles,
  firstCursor,
  allowsPicks,
}: {
  shareKey: string;
  firstTiles: GalleryTile[];
  firstCursor: string | null;
  allowsPicks: boolean;
}) {
  const loadMore = useCallback(
    async (cursor: string): Promise<GalleryPage> => {
      const response = await fetch(`/s/${shareKey}/api/photos?cursor=${encodeURIComponent(cursor)}`, { credentials: "same-origin" });
      // The link closed meanwhile: the page itself says why.
      if (response.status === 401) {
        window.location.reload();
        return { tiles: [], nextCursor: null };
      }
      if (!response.ok) return { tiles: [], nextCursor: null };
      const page = await readAnswer(response, sharePhotoPageAnswer);
      return { tiles: toShareTiles(page.photos), nextCursor: page.nextCursor };
    },
    [shareKey],
  );
  const renderTileExtra = useCallback((tile: GalleryTile) => <PickToggle photoId={tile.id} photoName={tile.name} />, []);
  return (
    <EndlessGallery
      firstTiles={firstTiles}
      firstCursor={firstCursor}
      loadMore={loadMore}
      linkBase={`/s/${shareKey}/p/`}
      renderTileExtra={allowsPicks ? renderTileExtra : undefined}
    />
  );
}
