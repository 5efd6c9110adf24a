import { photoAccessibleName } from "../../photo-accessible-name";
import type { PhotoSummary, PhotoViewerInfo } from "../../photos.service";

/** One photo as the full-screen viewer shows it: what PhotoSwipe needs, and the photo's id for the URL. */
export interface ViewerSlide {
  id: string;
  /** The largest JPEG: the fallback where srcset is not understood. */
  src: string;
  /** Every size of one format; PhotoSwipe raises `sizes` as the reader zooms, so the browser fetches a larger one. */
  srcset: string;
  /** A small size shown at once while the right one loads. */
  msrc: string;
  /** The largest variant's size: 100 % zoom is that variant's own pixels. */
  width: number;
  height: number;
  alt: string;
  /** The caption under the photo: its title and caption as the owner wrote them (text, never markup). */
  title: string;
  caption: string;
  /** A video's playable copy: the slide is a `<video controls>` with the poster (`src`) until it plays. */
  video?: { src: string };
  /** A Live Photo's or motion photo's clip (muted, no metadata): played over the still on hover or press (live-slide.ts). */
  motion?: { src: string };
  /**
   * PhotoSwipe's content type: "video" tells it the slide is not an image (no decode(), no srcset;
   * video-slide.ts makes the element). Absent: an image.
   */
  type?: "video";
}

type SlidePhoto = Pick<PhotoSummary, "id" | "variants" | "altText" | "title" | "takenAt"> & {
  placeName?: string | null;
  caption?: string;
  video?: PhotoSummary["video"];
  motionUrl?: string | null;
};

/** The viewer's slide for a photo, or null when it has nothing to show yet (still processing). */
export function toViewerSlide(photo: SlidePhoto): ViewerSlide | null {
  const jpeg = photo.variants.filter((variant) => variant.format === "jpeg");
  const webp = photo.variants.filter((variant) => variant.format === "webp");
  // WebP where it was made (every browser PhotoSwipe supports decodes it): smaller at each size.
  const sizes = webp.length > 0 ? webp : jpeg;
  const largest = sizes.at(-1);
  const fallback = jpeg.at(-1) ?? largest;
  if (!largest || !fallback) return null;
  return {
    id: photo.id,
    src: fallback.url,
    srcset: sizes.map((variant) => `${variant.url} ${variant.width}w`).join(", "),
    msrc: sizes[0].url,
    width: largest.width,
    height: largest.height,
    alt: photoAccessibleName(photo),
    title: photo.title,
    caption: photo.caption ?? "",
    ...(photo.video?.playableUrl && { type: "video" as const, video: { src: photo.video.playableUrl } }),
    ...(!photo.video && photo.motionUrl && { motion: { src: photo.motionUrl } }),
  };
}

/** The photos either side of one in the viewer's gallery order, nearest first. */
export interface ViewerNeighbours {
  /** Towards the newest: "previous" on the page, leftwards in the viewer. */
  newer: ViewerSlide[];
  /** Towards the oldest: "next" on the page, rightwards in the viewer. */
  older: ViewerSlide[];
}

/** Fetches a photo's neighbours for whoever is looking (a server action, checked on every call). */
export type LoadViewerNeighbours = (photoId: string) => Promise<ViewerNeighbours>;

/** Where the opening photo stands in the order the viewer walks (the 3rd of 24), or null when it has no count. */
export type LoadViewerPosition = (photoId: string) => Promise<{ index: number; total: number } | null>;

/** Fetches what the info panel shows of a photo, under the metadata policy; null when it may not be seen. */
export type LoadViewerInfo = (photoId: string) => Promise<PhotoViewerInfo | null>;
