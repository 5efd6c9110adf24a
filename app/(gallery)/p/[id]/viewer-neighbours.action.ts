"use server";

import { z } from "zod";
import { listAlbumViewerNeighbours } from "@/src/albums/album-pages";
import { getDb } from "@/src/db/client";
import { actionRowIdSchema, defineServerAction } from "@/src/http/server-action";
import { toViewerSlide, type ViewerNeighbours, type ViewerSlide } from "@/src/photos/components/viewer/viewer-slide";
import { listNeighbourPhotos, type NeighbourPhoto } from "@/src/photos/photos.service";

const REACH = 12;
const NO_NEIGHBOURS: ViewerNeighbours = { newer: [], older: [] };

function toSlides(photos: NeighbourPhoto[]): ViewerSlide[] {
  return photos.map(toViewerSlide).filter((slide): slide is ViewerSlide => slide !== null);
}

/**
 * The full-screen viewer's neighbours of a photo, nearest first, for whoever is asking now (each
 * photo checked by the service). A photo they may not see answers like one that does not exist:
 * no neighbours. One argument: a photo id as the pages link to it.
 */
export const loadViewerNeighbours = defineServerAction({
  input: z.tuple([actionRowIdSchema]),
  emptyAnswer: NO_NEIGHBOURS,
  run: async ([photoId], viewer) => {
    const { newer, older } = await listNeighbourPhotos(getDb(), viewer, photoId, REACH);
    return { newer: toSlides(newer), older: toSlides(older) };
  },
});

/**
 * The same, in the order of the album the reader came from; nothing when the album or the photo
 * is not theirs to see. Two arguments: the album's slug as the page's `?album=` named it (bound by
 * the page), and a photo id.
 */
export const loadAlbumViewerNeighbours = defineServerAction({
  input: z.tuple([z.string().min(1).max(200), actionRowIdSchema]),
  emptyAnswer: NO_NEIGHBOURS,
  run: async ([albumSlug, photoId], viewer) => {
    const { newer, older } = await listAlbumViewerNeighbours(getDb(), viewer, albumSlug, photoId);
    return { newer: toSlides(newer), older: toSlides(older) };
  },
});
