"use server";

import { findCurrentUser } from "@/src/auth/current-user";
import { PhotoGrid } from "@/src/photos/components/photo-grid";
import { listPhotosForViewer } from "@/src/photos/photos.service";

const PAGE_SIZE = 30;

/** The next page of the gallery, for whoever is asking now (checked again on every call). */
export async function loadMorePhotos(cursor: string) {
  const viewer = await findCurrentUser();
  const { photos, nextCursor } = await listPhotosForViewer(viewer, { cursor, limit: PAGE_SIZE });
  return { page: <PhotoGrid photos={photos} />, nextCursor };
}
