"use server";

import { z } from "zod";
import { findCurrentViewer } from "@/src/auth/current-user";
import { BROWSE_PAGE_SIZE, getBrowsePage } from "@/src/browse/browse.service";
import { getDb } from "@/src/db/client";
import { AppError } from "@/src/errors/app-error";
import { parseActionArguments } from "@/src/http/action-arguments";
import { type GalleryPage, toGalleryTiles } from "@/src/photos/gallery-tile";

// What the page bound (camera, lens or year and its key), then the cursor the previous page ended with.
const loadMoreArguments = z.tuple([z.enum(["camera", "lens", "year"]), z.string().min(1).max(100), z.string().max(200).regex(/^[A-Za-z0-9_-]+$/)]);

const NO_MORE_PHOTOS: GalleryPage = { tiles: [], nextCursor: null };

/** The next page of a camera's, lens's or year's photos, for whoever is asking now (checked again on every call). */
export async function loadMoreBrowsePhotos(...args: unknown[]): Promise<GalleryPage> {
  const parsed = parseActionArguments(loadMoreArguments, args);
  if (!parsed) return NO_MORE_PHOTOS;
  const [kind, key, cursor] = parsed;
  const viewer = await findCurrentViewer();
  try {
    const { photos, nextCursor } = await getBrowsePage(getDb(), viewer, kind, key, { cursor, limit: BROWSE_PAGE_SIZE });
    return { tiles: toGalleryTiles(photos, viewer), nextCursor };
  } catch (error) {
    // A cursor the service cannot read, or nothing left this viewer may see: nothing more to show.
    if (error instanceof AppError && (error.code === "BAD_REQUEST" || error.code === "NOT_FOUND")) return NO_MORE_PHOTOS;
    throw error;
  }
}
