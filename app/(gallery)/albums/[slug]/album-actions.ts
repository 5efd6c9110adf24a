"use server";

import { z } from "zod";
import { listAlbumPhotosForViewer } from "@/src/albums/albums.service";
import { findCurrentViewer } from "@/src/auth/current-user";
import { getDb } from "@/src/db/client";
import { AppError } from "@/src/errors/app-error";
import { parseActionArguments } from "@/src/http/action-arguments";
import { type GalleryPage, toGalleryTiles } from "@/src/photos/gallery-tile";

const PAGE_SIZE = 30;

// Two arguments: the album's id (bound by the page) and the cursor the previous page ended with.
// Both URL-safe; what the cursor encodes is the albums service's to judge.
const loadMoreAlbumPhotosArguments = z.tuple([z.string().regex(/^[A-Za-z0-9_-]{1,100}$/), z.string().regex(/^[A-Za-z0-9_-]{1,600}$/)]);

const NO_MORE_PHOTOS: GalleryPage = { tiles: [], nextCursor: null };

/**
 * The next page of an album's photos for whoever is asking now: an action is a public endpoint, so
 * the viewer is resolved and the album checked again on every call. An album they may not see, or
 * a cursor the service cannot read, answers as the end of the album.
 */
export async function loadMoreAlbumPhotos(...args: unknown[]): Promise<GalleryPage> {
  const parsed = parseActionArguments(loadMoreAlbumPhotosArguments, args);
  if (!parsed) return NO_MORE_PHOTOS;
  const [albumId, cursor] = parsed;
  const viewer = await findCurrentViewer();
  try {
    const { photos, nextCursor } = await listAlbumPhotosForViewer(getDb(), viewer, albumId, { cursor, limit: PAGE_SIZE });
    return { tiles: toGalleryTiles(photos, viewer), nextCursor };
  } catch (error) {
    if (error instanceof AppError && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST" || error.code === "INVALID_INPUT")) return NO_MORE_PHOTOS;
    throw error;
  }
}
