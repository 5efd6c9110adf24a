"use server";

import { z } from "zod";
import { getDb } from "@/src/db/client";
import { actionCursorSchema, defineServerAction } from "@/src/http/server-action";
import { type GalleryPage, toGalleryTiles } from "@/src/photos/gallery-tile";
import { listPhotosForViewer } from "@/src/photos/photos.service";

const PAGE_SIZE = 30;

// What a call that cannot be answered gets: nothing more to show, so the page stops asking.
const NO_MORE_PHOTOS: GalleryPage = { tiles: [], nextCursor: null };

/**
 * The next page of the gallery's tiles, for whoever is asking now (checked again on every call).
 * One argument: the cursor the previous page ended with. A call that cannot name a next page gets
 * nothing more to show, so the gallery stops asking.
 */
export const loadMorePhotos = defineServerAction({
  input: z.tuple([actionCursorSchema]),
  emptyAnswer: NO_MORE_PHOTOS,
  run: async ([cursor], viewer) => {
    const { photos, nextCursor } = await listPhotosForViewer(getDb(), viewer, { cursor, limit: PAGE_SIZE });
    return { tiles: toGalleryTiles(photos, viewer), nextCursor };
  },
});
