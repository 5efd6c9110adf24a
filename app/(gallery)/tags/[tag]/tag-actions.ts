"use server";

import { z } from "zod";
import { findCurrentViewer } from "@/src/auth/current-user";
import { getDb } from "@/src/db/client";
import { AppError } from "@/src/errors/app-error";
import { parseActionArguments } from "@/src/http/action-arguments";
import { type GalleryPage, toGalleryTiles } from "@/src/photos/gallery-tile";
import { listTagPhotosForViewer } from "@/src/tags/tags.service";

const TAG_PAGE_SIZE = 30;

// The tag's key (as its page's address carries it) and the cursor the previous page ended with.
const loadMoreArguments = z.tuple([z.string().min(1).max(500), z.string().max(200).regex(/^[A-Za-z0-9_-]+$/)]);

const NO_MORE_PHOTOS: GalleryPage = { tiles: [], nextCursor: null };

/** The next page of a tag's photos, for whoever is asking now (checked again on every call). */
export async function loadMoreTagPhotos(...args: unknown[]): Promise<GalleryPage> {
  const parsed = parseActionArguments(loadMoreArguments, args);
  if (!parsed) return NO_MORE_PHOTOS;
  const [tag, cursor] = parsed;
  const viewer = await findCurrentViewer();
  try {
    const { photos, nextCursor } = await listTagPhotosForViewer(getDb(), viewer, tag, { cursor, limit: TAG_PAGE_SIZE });
    return { tiles: toGalleryTiles(photos, viewer), nextCursor };
  } catch (error) {
    // A cursor the service cannot read, or a tag renamed or merged away since: nothing more to show.
    if (error instanceof AppError && (error.code === "BAD_REQUEST" || error.code === "NOT_FOUND")) return NO_MORE_PHOTOS;
    throw error;
  }
}
