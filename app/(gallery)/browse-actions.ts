"use server";

import { z } from "zod";
import { BROWSE_PAGE_SIZE, getBrowsePage } from "@/src/browse/browse.service";
import { getDb } from "@/src/db/client";
import { actionCursorSchema, defineServerAction } from "@/src/http/server-action";
import { type GalleryPage, toGalleryTiles } from "@/src/photos/gallery-tile";

// What a call that cannot be answered gets: nothing more to show, so the page stops asking.
const NO_MORE_PHOTOS: GalleryPage = { tiles: [], nextCursor: null };

/**
 * The next page of a camera's, lens's or year's photos, for whoever is asking now (checked again
 * on every call). What the page bound (camera, lens or year and its key), then the cursor the
 * previous page ended with.
 */
export const loadMoreBrowsePhotos = defineServerAction({
  input: z.tuple([z.enum(["camera", "lens", "year"]), z.string().min(1).max(100), actionCursorSchema]),
  emptyAnswer: NO_MORE_PHOTOS,
  run: async ([kind, key, cursor], viewer) => {
    const { photos, nextCursor } = await getBrowsePage(getDb(), viewer, kind, key, { cursor, limit: BROWSE_PAGE_SIZE });
    return { tiles: toGalleryTiles(photos, viewer), nextCursor };
  },
});
