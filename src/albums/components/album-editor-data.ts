import { type PhotoNameContext, photoAccessibleName } from "@/src/photos/photo-accessible-name";
import type { PhotoSummary } from "@/src/photos/photos.service";
import { type AlbumPickerChoice, albumPickerChoices } from "../album-tree";
import type { AlbumSort, AlbumSummary } from "../albums.types";
import { type AlbumCover, toAlbumCover } from "./album-card-data";

/** A photo as the album editor and the photo picker show it: a small square thumbnail and its name. */
export interface EditorPhoto {
  id: string;
  name: string;
  color: string | null;
  /** The smallest JPEG or WebP at least thumbnail-sized, or null while it is being processed. */
  thumbnail: string | null;
  /** "Private", "Members", "Unlisted", or null for a public photo. */
  badge: string | null;
}

const THUMBNAIL_WIDTH = 320;
const BADGES: Record<PhotoSummary["visibility"], string | null> = { public: null, members: "Members", unlisted: "Unlisted", private: "Private" };

/**
 * `fileName`: the uploaded file's name, given only where this user may learn it (their own photos,
 * or any for an admin), so untitled photos can be told apart when choosing a cover or reordering.
 */
export function toEditorPhoto(photo: PhotoSummary, fileName?: string): EditorPhoto {
  const context: PhotoNameContext | undefined = fileName ? { audience: "owner", fileName } : undefined;
  const usable = photo.variants.filter((variant) => variant.format === "jpeg" || variant.format === "webp").sort((left, right) => left.width - right.width);
  return {
    id: photo.id,
    name: photoAccessibleName(photo, context),
    color: photo.dominantColor,
    thumbnail: (usable.find((variant) => variant.width >= THUMBNAIL_WIDTH) ?? usable.at(-1))?.url ?? null,
    badge: BADGES[photo.visibility],
  };
}

/** An album as the admin pages list and edit it (no photo lists: those are separate). */
export interface EditorAlbum {
  id: string;
  slug: string;
  title: string;
  description: string;
  visibility: AlbumSummary["visibility"];
  parentId: string | null;
  sort: AlbumSort;
  photoCount: number;
  subAlbumPhotoCount: number;
  coverPhotoId: string | null;
  cover: AlbumCover | null;
  updatedAt: string;
}

export function toEditorAlbum(album: AlbumSummary): EditorAlbum {
  return {
    id: album.id,
    slug: album.slug,
    title: album.title,
    description: album.description,
    visibility: album.visibility,
    parentId: album.parentId,
    sort: album.sort,
    photoCount: album.photoCount,
    subAlbumPhotoCount: album.subAlbumPhotoCount,
    coverPhotoId: album.coverPhotoId,
    cover: album.cover ? toAlbumCover(album.cover) : null,
    updatedAt: album.updatedAt,
  };
}

export const SORT_CHOICES: Array<{ value: AlbumSort; label: string; short: string }> = [
  { value: "manual", label: "Manual", short: "in your own order" },
  { value: "taken-desc", label: "Taken, newest first", short: "by date taken, newest first" },
  { value: "taken-asc", label: "Taken, oldest first", short: "by date taken, oldest first" },
  { value: "uploaded-desc", label: "Uploaded, newest first", short: "by upload, newest first" },
  { value: "uploaded-asc", label: "Uploaded, oldest first", short: "by upload, oldest first" },
];

export const VISIBILITY_CHOICES: Array<{ value: AlbumSummary["visibility"]; label: string }> = [
  { value: "private", label: "Private" },
  { value: "members", label: "Members" },
  { value: "unlisted", label: "Unlisted" },
  { value: "public", label: "Public" },
];

/** Said under the visibility picker: who may see an album of each kind. */
export const VISIBILITY_HINT = "Private: you and admins. Members: anyone signed in. Unlisted: anyone with the link. Public: everyone.";

/** Albums as the parent picker lists them: the tree helper's order and labels, without `exclude` and everything under it. */
export function parentChoices(albums: EditorAlbum[], exclude: string | null): AlbumPickerChoice[] {
  return albumPickerChoices(albums, { exclude });
}
