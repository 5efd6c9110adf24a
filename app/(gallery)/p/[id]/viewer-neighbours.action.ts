"use server";

import { z } from "zod";
import { listAlbumViewerNeighbours } from "@/src/albums/album-pages";
import { findCurrentViewer } from "@/src/auth/current-user";
import { getDb } from "@/src/db/client";
import { AppError } from "@/src/errors/app-error";
import { parseActionArguments } from "@/src/http/action-arguments";
import { toViewerSlide, type ViewerNeighbours, type ViewerSlide } from "@/src/photos/components/viewer/viewer-slide";
import { listNeighbourPhotos, type NeighbourPhoto } from "@/src/photos/photos.service";

const REACH = 12;
// One argument: a photo id as the pages link to it. Ids are URL-safe; anything else (a NUL, which
// PostgreSQL refuses in text with an error) never reaches the database.
const loadViewerNeighboursArguments = z.tuple([z.string().regex(/^[A-Za-z0-9_-]{1,100}$/)]);
const NO_NEIGHBOURS: ViewerNeighbours = { newer: [], older: [] };

function toSlides(photos: NeighbourPhoto[]): ViewerSlide[] {
  return photos.map(toViewerSlide).filter((slide): slide is ViewerSlide => slide !== null);
}

/**
 * The full-screen viewer's neighbours of a photo, nearest first, for whoever is asking now: an
 * action is a public endpoint, so the viewer is resolved on every call and the service checks each
 * photo. A photo they may not see answers like one that does not exist: no neighbours.
 */
export async function loadViewerNeighbours(...args: unknown[]): Promise<ViewerNeighbours> {
  const parsed = parseActionArguments(loadViewerNeighboursArguments, args);
  if (!parsed) return NO_NEIGHBOURS;
  try {
    const { newer, older } = await listNeighbourPhotos(getDb(), await findCurrentViewer(), parsed[0], REACH);
    return { newer: toSlides(newer), older: toSlides(older) };
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") return NO_NEIGHBOURS;
    throw error;
  }
}

// Two arguments: the album's slug as the page's `?album=` named it (bound by the page), and a photo id.
const loadAlbumViewerNeighboursArguments = z.tuple([z.string().min(1).max(200), z.string().regex(/^[A-Za-z0-9_-]{1,100}$/)]);

/**
 * The same, in the order of the album the reader came from: for whoever is asking now, checked
 * again on every call; nothing when the album or the photo is not theirs to see.
 */
export async function loadAlbumViewerNeighbours(...args: unknown[]): Promise<ViewerNeighbours> {
  const parsed = parseActionArguments(loadAlbumViewerNeighboursArguments, args);
  if (!parsed) return NO_NEIGHBOURS;
  const { newer, older } = await listAlbumViewerNeighbours(getDb(), await findCurrentViewer(), parsed[0], parsed[1]);
  return { newer: toSlides(newer), older: toSlides(older) };
}
