"use server";

import { z } from "zod";
import { findCurrentViewer } from "@/src/auth/current-user";
import { getDb } from "@/src/db/client";
import { parseActionArguments } from "@/src/http/action-arguments";
import { AppError } from "@/src/errors/app-error";
import { type GalleryPage, toGalleryTiles } from "@/src/photos/gallery-tile";
import { listPhotosQuerySchema } from "@/src/photos/photos.schemas";
import { listPhotosForViewer } from "@/src/photos/photos.service";

const PAGE_SIZE = 30;

// One argument: the cursor the previous page ended with, as the API's `cursor` takes it (base64url;
// what it encodes is the photos service's to judge).
const loadMorePhotosArguments = z.tuple([listPhotosQuerySchema.shape.cursor.unwrap().regex(/^[A-Za-z0-9_-]+$/)]);

// What a call that cannot name a next page gets: nothing more to show, so the gallery stops asking.
const NO_MORE_PHOTOS: GalleryPage = { tiles: [], nextCursor: null };

/** The next page of the gallery's tiles, for whoever is asking now (checked again on every call). */
export async function loadMorePhotos(...args: unknown[]): Promise<GalleryPage> {
  const parsed = parseActionArguments(loadMorePhotosArguments, args);
  if (!parsed) return NO_MORE_PHOTOS;
  const [cursor] = parsed;
  const viewer = await findCurrentViewer();
  try {
    const { photos, nextCursor } = await listPhotosForViewer(getDb(), viewer, { cursor, limit: PAGE_SIZE });
    return { tiles: toGalleryTiles(photos, viewer), nextCursor };
  } catch (error) {
    // The cursor's inner format is the photos service's to judge; one it cannot read is the
    // caller's mistake, not ours.
    if (error instanceof AppError && error.code === "BAD_REQUEST") return NO_MORE_PHOTOS;
    throw error;
  }
}
