"use server";

import { z } from "zod";
import { findAlbumViewerPosition } from "@/src/albums/album-pages";
import { getDb } from "@/src/db/client";
import { peopleInPhoto } from "@/src/faces/photo-people-list";
import { listPhotoFacesForViewer } from "@/src/faces/people.service";
import { actionRowIdSchema, defineServerAction } from "@/src/http/server-action";
import { findGalleryPosition, getPhotoViewerInfo, type PhotoViewerInfo, type ViewerPosition } from "@/src/photos/photos.service";

// What the full-screen viewer asks for besides its slides, for whoever is asking now: the counter's
// numbers once when it opens, and the info panel's card when the reader opens it (never before).
// A photo or album they may not see answers like one that does not exist: null.

/** The opening photo's place in the viewer's gallery order. One argument: a photo id. */
export const loadViewerPosition = defineServerAction({
  input: z.tuple([actionRowIdSchema]),
  emptyAnswer: null as ViewerPosition | null,
  run: async ([photoId], viewer) => findGalleryPosition(getDb(), viewer, photoId),
});

/** The same in the order of the album the reader came from: the album's slug (bound by the page), and a photo id. */
export const loadAlbumViewerPosition = defineServerAction({
  input: z.tuple([z.string().min(1).max(200), actionRowIdSchema]),
  emptyAnswer: null as ViewerPosition | null,
  run: async ([albumSlug, photoId], viewer) => findAlbumViewerPosition(getDb(), viewer, albumSlug, photoId),
});

/**
 * The info panel's EXIF card and place, under the metadata policy, as the photo page shows them,
 * and the people in it as the photo page lists them (people-access.ts: none for a visitor). One
 * argument: a photo id.
 */
export const loadViewerPhotoInfo = defineServerAction({
  input: z.tuple([actionRowIdSchema]),
  emptyAnswer: null as PhotoViewerInfo | null,
  run: async ([photoId], viewer) => {
    const info = await getPhotoViewerInfo(getDb(), viewer, photoId);
    return { ...info, people: peopleInPhoto((await listPhotoFacesForViewer(getDb(), viewer, photoId)).faces) };
  },
});
