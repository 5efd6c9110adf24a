"use server";

import { z } from "zod";
import { listAlbumPhotosForViewer } from "@/src/albums/albums.service";
import { getDb } from "@/src/db/client";
import { actionCursorSchema, actionRowIdSchema, defineServerAction } from "@/src/http/server-action";
import { type GalleryPage, toGalleryTiles } from "@/src/photos/gallery-tile";

const PAGE_SIZE = 30;

// What a call that cannot be answered gets: nothing more to show, so the page stops asking.
const NO_MORE_PHOTOS: GalleryPage = { tiles: [], nextCursor: null };

/**
 * The next page of an album's photos for whoever is asking now: the album is checked again on
 * every call. Two arguments: the album's id (bound by the page) and the cursor the previous page
 * ended with. An album they may not see, or a cursor the service cannot read, answers as the end
 * of the album.
 */
export const loadMoreAlbumPhotos = defineServerAction({
  input: z.tuple([actionRowIdSchema, actionCursorSchema]),
  emptyAnswer: NO_MORE_PHOTOS,
  run: async ([albumId, cursor], viewer) => {
    const { photos, nextCursor } = await listAlbumPhotosForViewer(getDb(), viewer, albumId, { cursor, limit: PAGE_SIZE });
    return { tiles: toGalleryTiles(photos, viewer), nextCursor };
  },
});
