// Client-safe: types and constants only, so the album pages' components can import them.
import type { AlbumSortColumn, Visibility } from "@/src/db/database";
import type { PhotoSummary } from "@/src/photos/photos.service";

export { ALBUM_SORTS } from "@/src/db/database";
/** manual: the editor's order; taken: by date taken (upload time when unknown); uploaded: by upload time. */
export type AlbumSort = AlbumSortColumn;

/** How deep albums nest: a top-level album is level 1. */
export const MAX_ALBUM_DEPTH = 4;
/** The most photos one request may add to or remove from an album. */
export const MAX_ALBUM_PHOTOS_PER_REQUEST = 500;

/** An album as one viewer may see it. */
export interface AlbumSummary {
  id: string;
  slug: string;
  title: string;
  description: string;
  visibility: Visibility;
  parentId: string | null;
  sort: AlbumSort;
  /** Photos THIS viewer may see. */
  photoCount: number;
  /** Photos THIS viewer may see in the sub-albums (every level) they may list, each photo once. */
  subAlbumPhotoCount: number;
  /**
   * A photo THIS viewer may see: the chosen cover, else the first visible photo in the album's
   * order, else (no photo of its own) the cover of its first sub-album that has one.
   */
  cover: PhotoSummary | null;
  /** The chosen cover's id: only for those who may edit the album, else null. */
  coverPhotoId: string | null;
  canEdit: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface AlbumCrumb {
  slug: string;
  title: string;
}

export type AlbumLookup =
  /** `breadcrumbs`: the album's ancestors the viewer may see, top level first, without the album itself. */
  | { kind: "album"; album: AlbumSummary; breadcrumbs: AlbumCrumb[]; children: AlbumSummary[] }
  /** An old slug: redirect to the current one. */
  | { kind: "moved"; slug: string };

/** Where a photo moves in the album's manual order. `after: null`: to the start; `before: null`: to the end; `position`: 0-based. */
export type AlbumMoveTarget = { after: string | null } | { before: string | null } | { position: number };

export interface AlbumInput {
  title: string;
  slug?: string;
  description?: string;
  visibility?: Visibility;
  parentId?: string | null;
  sort?: AlbumSort;
}

export type AlbumChanges = Partial<{
  title: string;
  slug: string;
  description: string;
  visibility: Visibility;
  parentId: string | null;
  sort: AlbumSort;
  coverPhotoId: string | null;
}>;

/** What a slug may look like: lower-case letters and digits in words joined by single hyphens. */
export const ALBUM_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_ALBUM_SLUG_LENGTH = 80;
