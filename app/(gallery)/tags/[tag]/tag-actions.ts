"use server";

import { z } from "zod";
import { getDb } from "@/src/db/client";
import { actionCursorSchema, defineServerAction } from "@/src/http/server-action";
import { type GalleryPage, toGalleryTiles } from "@/src/photos/gallery-tile";
import { listTagPhotosForViewer } from "@/src/tags/tags.service";

const TAG_PAGE_SIZE = 30;

// What a call that cannot be answered gets: nothing more to show, so the page stops asking.
const NO_MORE_PHOTOS: GalleryPage = { tiles: [], nextCursor: null };

/**
 * The next page of a tag's photos, for whoever is asking now (checked again on every call). The
 * tag's key (as its page's address carries it) and the cursor the previous page ended with; a tag
 * renamed or merged away since answers as the end of the list.
 */
export const loadMoreTagPhotos = defineServerAction({
  input: z.tuple([z.string().min(1).max(500), actionCursorSchema]),
  emptyAnswer: NO_MORE_PHOTOS,
  run: async ([tag, cursor], viewer) => {
    const { photos, nextCursor } = await listTagPhotosForViewer(getDb(), viewer, tag, { cursor, limit: TAG_PAGE_SIZE });
    return { tiles: toGalleryTiles(photos, viewer), nextCursor };
  },
});
