"use server";

import { z } from "zod";
import { findCurrentViewer } from "@/src/auth/current-user";
import { getDb } from "@/src/db/client";
import { AppError } from "@/src/errors/app-error";
import { parseActionArguments } from "@/src/http/action-arguments";
import { type GalleryPage, toGalleryTiles } from "@/src/photos/gallery-tile";
import { MAX_SEARCH_QUERY_LENGTH } from "@/src/search/search-query.types";
import { searchPhotosForViewer } from "@/src/search/search.service";

const SEARCH_PAGE_SIZE = 30;

// The search text (as the page's address carries it) and the cursor the previous page ended with.
const loadMoreArguments = z.tuple([z.string().max(MAX_SEARCH_QUERY_LENGTH), z.string().min(1).max(200).regex(/^[A-Za-z0-9_-]+$/)]);

const NO_MORE_PHOTOS: GalleryPage = { tiles: [], nextCursor: null };

/** The next page of a search's results, for whoever is asking now (checked again on every call). */
export async function loadMoreSearchResults(...args: unknown[]): Promise<GalleryPage> {
  const parsed = parseActionArguments(loadMoreArguments, args);
  if (!parsed) return NO_MORE_PHOTOS;
  const [q, cursor] = parsed;
  const viewer = await findCurrentViewer();
  try {
    const { photos, nextCursor } = await searchPhotosForViewer(getDb(), viewer, { q, cursor, limit: SEARCH_PAGE_SIZE });
    return { tiles: toGalleryTiles(photos, viewer), nextCursor };
  } catch (error) {
    // A query or cursor the service cannot read: nothing more to show.
    if (error instanceof AppError && error.code === "BAD_REQUEST") return NO_MORE_PHOTOS;
    throw error;
  }
}
