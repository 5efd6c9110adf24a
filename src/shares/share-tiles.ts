import { ANONYMOUS_VIEWER } from "@/src/access/viewer";
import { type GalleryTile, toGalleryTile } from "@/src/photos/gallery-tile";
import type { SharePhotoView } from "./share-gallery.service";

/**
 * The grid's compact tiles (src/photos/gallery-tile.ts) for a share's photos, on the server for the
 * first page and in the browser for the pages the visitor API answers. Client-safe.
 */
export function toShareTiles(photos: SharePhotoView[]): GalleryTile[] {
  return photos.map((photo) => {
    const tile = toGalleryTile(
      {
        id: photo.id,
        status: "ready",
        // Never a badge: visitors of a link are told nothing about a photo's visibility.
        visibility: "public",
        title: photo.title,
        altText: photo.altText,
        width: photo.width,
        height: photo.height,
        thumbhash: photo.thumbhash,
        dominantColor: photo.dominantColor,
        takenAt: photo.takenAt,
        placeName: photo.placeName,
        variants: photo.variants,
        // The play badge with its length, or the LIVE badge, as in the gallery.
        video: photo.video,
        motionUrl: photo.motionUrl,
      },
      ANONYMOUS_VIEWER,
    );
    // The share's own name for it: numbered in the link, so untitled photos differ for a screen
    // reader; and, as in the gallery, what a sighted visitor sees on the tile (the play or LIVE badge).
    const kind = tile.duration !== undefined ? `, video, ${tile.duration}` : tile.live ? ", Live Photo" : "";
    return { ...tile, name: `${photo.name}${kind}` };
  });
}
