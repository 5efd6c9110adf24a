import "server-only";
import type { SessionUser } from "@/src/access/viewer";
import type { DatabaseHandle } from "@/src/db/client";
import { decodeKeysetCursor, encodeKeysetCursor } from "@/src/db/keyset-cursor";
import type { PhotoRow } from "@/src/db/database";
import { assertMayManagePhotos, libraryScopeOf } from "./bulk-selection";
import { describeCamera } from "./describe-camera";
import { libraryFilterToSearchParams, type LibraryFilter } from "./library-filters";
import { countLibraryPhotos, type LibraryScope, listLibraryCameras, listLibraryPhotos } from "./library.repository";
import { cacheUntilPhotosChange } from "./cache-until-photos-change";
import { toMediaUrl } from "./photo-publication";
import { listVariants } from "./photos.repository";

/** A tile of the library: what the grid, the selection and the side panel show. */
export interface LibraryPhoto {
  id: string;
  title: string;
  altText: string;
  originalName: string;
  status: PhotoRow["status"];
  visibility: PhotoRow["visibility"];
  width: number | null;
  height: number | null;
  camera: string | null;
  takenAt: string | null;
  dominantColor: string | null;
  /** The smallest JPEG or WebP variant, once processing has made one. */
  thumbnailUrl: string | null;
}

export interface LibraryPage {
  photos: LibraryPhoto[];
  nextCursor: string | null;
  /** How many photos match the filter in all (not only this page). */
  total: number;
}

/** How long a count is remembered when nothing in this process changes photos (as photo-counts.ts). */
const REMEMBER_MS = 5_000;
/** A camera in the library's filter: its URL name (the filter's value) and its display name. */
export interface LibraryCameraChoice {
  slug: string;
  name: string;
}

/** One entry per library and filter recently shown; the cameras one per library, kept longer (they rarely change). */
const rememberedCounts = cacheUntilPhotosChange<number>({ lifetimeMs: REMEMBER_MS, maxEntries: 1_000 });
const rememberedCameras = cacheUntilPhotosChange<LibraryCameraChoice[]>({ lifetimeMs: REMEMBER_MS * 12, maxEntries: 1_000 });

/**
 * The count for this filter, remembered until photos change: a count reads an index entry per
 * matching photo (about 4-20 ms at 100,000 photos), and the library shows it on every view.
 */
function countRemembered(db: DatabaseHandle, scope: LibraryScope, filter: LibraryFilter): Promise<number> {
  const key = `${scope.ownerId ?? ""}?${libraryFilterToSearchParams(filter).toString()}`;
  return rememberedCounts.get(db, key, () => countLibraryPhotos(db, scope, filter));
}

function encodeCursor(photo: PhotoRow): string {
  return encodeKeysetCursor(photo.sort_at, photo.id);
}

function decodeCursor(cursor: string): { sortAt: string; id: string } {
  const [sortAt, id] = decodeKeysetCursor(cursor, 2);
  return { sortAt, id };
}

/**
 * One page of the library: every photo the actor may manage (an editor's own, an admin's: all),
 * not in the trash, newest first, narrowed by the filter, with how many match in all.
 */
export async function getLibraryPage(
  db: DatabaseHandle,
  actor: SessionUser,
  query: { filter: LibraryFilter; cursor?: string; limit: number },
): Promise<LibraryPage> {
  assertMayManagePhotos(actor);
  const scope = libraryScopeOf(actor);
  const [rows, total] = await Promise.all([
    listLibraryPhotos(db, scope, query.filter, { after: query.cursor ? decodeCursor(query.cursor) : undefined, limit: query.limit + 1 }),
    countRemembered(db, scope, query.filter),
  ]);
  const page = rows.slice(0, query.limit);
  const variants = await listVariants(db, page.map((row) => row.id));
  return {
    photos: page.map((row) => {
      const smallest = variants.find((variant) => variant.photo_id === row.id && (variant.format === "webp" || variant.format === "jpeg"));
      return {
        id: row.id,
        title: row.title,
        altText: row.alt_text,
        originalName: row.original_name,
        status: row.status,
        visibility: row.visibility,
        width: row.width,
        height: row.height,
        camera: describeCamera(row.camera_make, row.camera_model),
        takenAt: row.taken_at,
        dominantColor: row.dominant_color,
        thumbnailUrl: smallest ? toMediaUrl(row.publication_key, smallest.storage_key) : null,
      };
    }),
    nextCursor: rows.length > query.limit ? encodeCursor(page[page.length - 1]) : null,
    total,
  };
}

/** The cameras in the actor's library, for the camera filter: each URL name with its display name (remembered as the counts are). */
export function listLibraryCameraChoices(db: DatabaseHandle, actor: SessionUser): Promise<LibraryCameraChoice[]> {
  assertMayManagePhotos(actor);
  const scope = libraryScopeOf(actor);
  return rememberedCameras.get(db, scope.ownerId ?? "", async () =>
    (await listLibraryCameras(db, scope))
      .map((row) => ({ slug: row.slug, name: describeCamera(row.make, row.model) ?? row.slug }))
      .sort((left, right) => left.name.localeCompare(right.name)),
  );
}
