"use server";

import { z } from "zod";
import { getDb } from "@/src/db/client";
import { actionCursorSchema, defineServerAction } from "@/src/http/server-action";
import { type GalleryPage, toGalleryTiles } from "@/src/photos/gallery-tile";
import { MAX_SEARCH_QUERY_LENGTH } from "@/src/search/search-query.types";
import { searchPhotosForViewer } from "@/src/search/search.service";

const SEARCH_PAGE_SIZE = 30;

// What a call that cannot be answered gets: nothing more to show, so the page stops asking.
const NO_MORE_PHOTOS: GalleryPage = { tiles: [], nextCursor: null };

/**
 * The next page of a search's results, for whoever is asking now (checked again on every call).
 * The search text (as the page's address carries it) and the cursor the previous page ended with;
 * a query or cursor the service cannot read answers as the end of the results.
 */
export const loadMoreSearchResults = defineServerAction({
  input: z.tuple([z.string().max(MAX_SEARCH_QUERY_LENGTH), actionCursorSchema]),
  emptyAnswer: NO_MORE_PHOTOS,
  run: async ([q, cursor], viewer) => {
    const { photos, nextCursor } = await searchPhotosForViewer(getDb(), viewer, { q, cursor, limit: SEARCH_PAGE_SIZE });
    return { tiles: toGalleryTiles(photos, viewer), nextCursor };
  },
});
