import type { Viewer } from "@/src/access/viewer";
import { photoAccessibleName } from "@/src/photos/photo-accessible-name";
import type { PhotoSummary } from "@/src/photos/photos.service";
import type { AlbumSummary } from "../albums.types";

/**
 * One album as its card shows it: only what the browser needs (the cards are a client component,
 * so this travels in the page twice), the cover's sizes as full srcsets.
 */
export interface AlbumCardData {
  id: string;
  slug: string;
  title: string;
  photoCount: number;
  /** Photos in its sub-albums, each once: what a parent without photos of its own shows. */
  subAlbumPhotoCount: number;
  /** "Private", "Members" or "Unlisted" for signed-in viewers; null when everyone may see it. */
  badge: string | null;
  cover: AlbumCover | null;
}

export interface AlbumCover {
  name: string;
  color: string | null;
  thumbhash: string | null;
  /** The smallest JPEG large enough for a card: the `<img src>`. */
  src: string;
  jpeg: string;
  avif: string;
}

const BADGES: Record<AlbumSummary["visibility"], string | null> = { public: null, members: "Members", unlisted: "Unlisted", private: "Private" };
// A card is at most ~26rem wide on a 2x screen; larger sizes are never picked, so are not sent.
const LARGEST_NEEDED_WIDTH = 900;

export function toAlbumCards(albums: AlbumSummary[], viewer: Viewer): AlbumCardData[] {
  return albums.map((album) => toAlbumCard(album, viewer));
}

export function toAlbumCard(album: AlbumSummary, viewer: Viewer): AlbumCardData {
  return {
    id: album.id,
    slug: album.slug,
    title: album.title,
    photoCount: album.photoCount,
    subAlbumPhotoCount: album.subAlbumPhotoCount,
    badge: viewer.kind === "user" ? BADGES[album.visibility] : null,
    cover: album.cover ? toAlbumCover(album.cover) : null,
  };
}

function srcSet(photo: PhotoSummary, format: "jpeg" | "avif"): Array<{ url: string; width: number }> {
  const sorted = photo.variants.filter((variant) => variant.format === format).sort((left, right) => left.width - right.width);
  const enough = sorted.findIndex((variant) => variant.width >= LARGEST_NEEDED_WIDTH);
  return enough === -1 ? sorted : sorted.slice(0, enough + 1);
}

export function toAlbumCover(photo: PhotoSummary): AlbumCover | null {
  const jpeg = srcSet(photo, "jpeg");
  if (jpeg.length === 0) return null;
  const write = (variants: Array<{ url: string; width: number }>) => variants.map((variant) => `${variant.url} ${variant.width}w`).join(", ");
  return {
    name: photoAccessibleName(photo),
    color: photo.dominantColor,
    thumbhash: photo.thumbhash,
    src: (jpeg.find((variant) => variant.width >= 400) ?? jpeg.at(-1) ?? jpeg[0]).url,
    jpeg: write(jpeg),
    avif: write(srcSet(photo, "avif")),
  };
}

/** "1 photo", "24 photos", "No photos yet". */
export function describePhotoCount(count: number): string {
  if (count === 0) return "No photos yet";
  return `${count.toLocaleString("en-GB")} ${count === 1 ? "photo" : "photos"}`;
}

/**
 * An album's photos in words, its sub-albums' too: "24 photos", "40 photos in sub-albums" (a parent
 * without photos of its own), "24 photos · 40 in sub-albums", "No photos yet".
 */
export function describeAlbumPhotos(album: { photoCount: number; subAlbumPhotoCount: number }): string {
  const { photoCount, subAlbumPhotoCount } = album;
  if (subAlbumPhotoCount === 0) return describePhotoCount(photoCount);
  const below = subAlbumPhotoCount.toLocaleString("en-GB");
  if (photoCount === 0) return `${below} ${subAlbumPhotoCount === 1 ? "photo" : "photos"} in sub-albums`;
  return `${describePhotoCount(photoCount)} · ${below} in sub-albums`;
}
