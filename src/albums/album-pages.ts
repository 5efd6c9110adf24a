import "server-only";
import type { Viewer } from "@/src/access/viewer";
import type { DatabaseHandle } from "@/src/db/client";
import { AppError } from "@/src/errors/app-error";
import { getPhotoForViewer, type NeighbourPhoto, type PhotoSummary, type ViewerPosition } from "@/src/photos/photos.service";
import { findAlbumBySlugForViewer, findAlbumNeighbours, findAlbumPosition, listAlbumPhotosForViewer } from "./albums.service";
import type { AlbumLookup, AlbumSummary } from "./albums.types";
import { parseIdentifierSegment } from "@/src/validation/input-text";

// What the album pages and the photo page's album context need from the albums service, shaped for
// them. Every call goes through the service with the viewer asking now, so what one viewer may see
// never reaches another; an album this viewer may not see reads as one that does not exist.

/** A slug as album pages and `?album=` may name it: an identifier, no path; the service judges the rest. */
function isAlbumSlugShaped(slug: string): boolean {
  return parseIdentifierSegment(slug) !== null && !/[/?#]/.test(slug);
}

function isNotFound(error: unknown): boolean {
  return error instanceof AppError && error.code === "NOT_FOUND";
}

/** The album behind a slug for this viewer (or where an old slug moved to), or null: missing or not theirs to see. */
export async function findAlbumPage(db: DatabaseHandle, viewer: Viewer, slug: string): Promise<AlbumLookup | null> {
  if (!isAlbumSlugShaped(slug)) return null;
  try {
    return await findAlbumBySlugForViewer(db, viewer, slug);
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** The album a slug names now, following one rename, or null. */
async function resolveAlbum(db: DatabaseHandle, viewer: Viewer, slug: string): Promise<AlbumSummary | null> {
  const found = await findAlbumPage(db, viewer, slug);
  if (found?.kind === "album") return found.album;
  if (found?.kind === "moved") {
    const moved = await findAlbumPage(db, viewer, found.slug);
    return moved?.kind === "album" ? moved.album : null;
  }
  return null;
}

/** The photo page's place in an album: the album (by its current slug) and the photos either side in its order. */
export interface AlbumContext {
  slug: string;
  title: string;
  previousId: string | null;
  nextId: string | null;
}

/**
 * Where a photo sits in the album a visitor came from (`/p/[id]?album=<slug>`), or null when there
 * is no such album for this viewer or the photo is not one of its photos they may see: the page
 * then moves through the ordinary stream, as if no album had been named.
 */
export async function findAlbumContext(db: DatabaseHandle, viewer: Viewer, slug: string, photoId: string): Promise<AlbumContext | null> {
  const album = await resolveAlbum(db, viewer, slug);
  if (!album) return null;
  try {
    const { previousId, nextId } = await findAlbumNeighbours(db, viewer, album.id, photoId);
    return { slug: album.slug, title: album.title, previousId, nextId };
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** How many photos each way the full-screen viewer is handed in album order at once. */
const ALBUM_VIEWER_REACH = 6;

/**
 * Up to a few photos each way from this one in the album's order, nearest first, for the
 * full-screen viewer: walked one neighbour at a time through the service (which checks access for
 * every step), each then read as this viewer may see it. Nothing when the album or the photo is
 * not theirs to see.
 */
export async function listAlbumViewerNeighbours(
  db: DatabaseHandle,
  viewer: Viewer,
  slug: string,
  photoId: string,
): Promise<{ newer: NeighbourPhoto[]; older: NeighbourPhoto[] }> {
  const album = await resolveAlbum(db, viewer, slug);
  if (!album) return { newer: [], older: [] };
  async function walk(direction: "previousId" | "nextId"): Promise<NeighbourPhoto[]> {
    const found: NeighbourPhoto[] = [];
    let current = photoId;
    for (let step = 0; step < ALBUM_VIEWER_REACH; step += 1) {
      let nextId: string | null;
      try {
        nextId = (await findAlbumNeighbours(db, viewer, album!.id, current))[direction];
      } catch (error) {
        if (isNotFound(error)) break;
        throw error;
      }
      if (!nextId || nextId === photoId || found.some((photo) => photo.id === nextId)) break;
      try {
        found.push(await getPhotoForViewer(db, viewer, nextId));
      } catch (error) {
        if (isNotFound(error)) break;
        throw error;
      }
      current = nextId;
    }
    return found;
  }
  const [newer, older] = await Promise.all([walk("previousId"), walk("nextId")]);
  return { newer, older };
}

/** The most photos the album editor lays out at once. */
const EDITOR_MAX_PHOTOS = 2000;

/**
 * Every photo of an album this viewer may see, in the album's order, for the album editor (which
 * reorders them all on one page): the service's pages read one after another, up to a limit.
 */
export async function listAllAlbumPhotos(db: DatabaseHandle, viewer: Viewer, albumId: string): Promise<{ photos: PhotoSummary[]; isComplete: boolean }> {
  const photos: PhotoSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await listAlbumPhotosForViewer(db, viewer, albumId, { cursor, limit: 100 });
    photos.push(...page.photos);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && photos.length < EDITOR_MAX_PHOTOS);
  return { photos, isComplete: cursor === undefined };
}

/**
 * The photo's place in the album's order as the full-screen viewer walks it ("3 / 24"): among the
 * album's photos this viewer may see, in the album's order, counted (never listed), so an album of
 * any length has its count. Null when the album or the photo is not theirs to see.
 */
export async function findAlbumViewerPosition(db: DatabaseHandle, viewer: Viewer, slug: string, photoId: string): Promise<ViewerPosition | null> {
  const album = await resolveAlbum(db, viewer, slug);
  if (!album) return null;
  try {
    return await findAlbumPosition(db, viewer, album.id, photoId);
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}
