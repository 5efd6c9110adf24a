import type { Viewer } from "@/src/access/viewer";
import { formatDuration } from "@/src/video/video-duration";
import { photoAccessibleName } from "./photo-accessible-name";
import type { PhotoSummary } from "./photos.service";

/**
 * One tile of the gallery grid, as little as the browser needs to draw it. The grid is a client
 * component, so whatever is here travels twice (once as markup, once in the RSC payload that
 * hydrates it): no data URLs, no unused formats or widths, and variant URLs written relative to the
 * folder they share.
 */
export interface GalleryTile {
  id: string;
  /** Width over height (3 decimals): the tile's shape before a byte of the image arrives. */
  ratio: number;
  /** What a screen reader says for the photo (photoAccessibleName). */
  name: string;
  /** Painted at once; the thumbhash is painted over it in the browser. */
  color: string | null;
  /** The ~25-byte thumbhash (base64), decoded in the browser instead of a 4 kB PNG in the page. */
  thumbhash: string | null;
  /** "Private", "Members" or "Unlisted" for signed-in viewers; null when everyone may see it. */
  badge: string | null;
  /** The folder every variant of the photo lives in; the srcsets below are relative to it. */
  base: string;
  /** "<file> <width>w, …" relative to `base`, smallest first; "" when there is none yet. */
  avif: string;
  /** The same for JPEG; only one file (the fallback for browsers without AVIF) when there is AVIF. */
  jpeg: string;
  /**
   * The widest the tile may grow, in CSS pixels: the original's width (no variant is wider), set only when that is
   * narrower than the tile could get in the tallest row (a tiny original), so it is never upscaled.
   */
  maxWidth?: number;
  /** A video's length as players show it ("0:12"), drawn with a play badge on the tile; absent for photos. */
  duration?: string;
  /** A Live Photo or motion photo whose clip plays in the viewer: drawn with a LIVE badge on the tile; absent otherwise. */
  live?: true;
}

/** One page of the gallery: its tiles and the cursor of the next page (null at the end). */
export interface GalleryPage {
  tiles: GalleryTile[];
  nextCursor: string | null;
}

// The tallest a row gets in CSS pixels (a justified row grows past its target height to fill the
// line) times a 2x screen: widths beyond what that needs are never picked, so they are not sent.
const TALLEST_ROW_CSS_PX = 360;
const TALLEST_ROW_DEVICE_PX = TALLEST_ROW_CSS_PX * 2;
const FALLBACK_RATIO = 1.5;
// Browsers without AVIF (a few percent) get one JPEG this wide at most instead of a srcset.
const JPEG_FALLBACK_MAX_WIDTH = 800;

const BADGES: Record<PhotoSummary["visibility"], string | null> = { public: null, members: "Members", unlisted: "Unlisted", private: "Private" };

type TilePhoto = Omit<PhotoSummary, "video" | "motionUrl"> & { placeName?: string | null; video?: PhotoSummary["video"]; motionUrl?: string | null };

export function toGalleryTiles(photos: TilePhoto[], viewer: Viewer): GalleryTile[] {
  return photos.map((photo) => toGalleryTile(photo, viewer));
}

export function toGalleryTile(photo: TilePhoto, viewer: Viewer): GalleryTile {
  const ratio = photo.width && photo.height ? Math.round((photo.width / photo.height) * 1000) / 1000 : FALLBACK_RATIO;
  const neededWidth = ratio * TALLEST_ROW_DEVICE_PX;
  const avif = pickVariants(photo, "avif", neededWidth);
  const jpegs = pickVariants(photo, "jpeg", neededWidth);
  const jpeg = avif.length > 0 ? [jpegs.findLast((variant) => variant.width <= JPEG_FALLBACK_MAX_WIDTH) ?? jpegs[0]].filter(Boolean) : jpegs;
  const base = sharedFolder([...avif, ...jpeg].map((variant) => variant.url));
  const relativeSrcSet = (variants: PhotoSummary["variants"]) => variants.map((variant) => `${variant.url.slice(base.length)} ${variant.width}w`).join(", ");
  // The original's width, not the widest variant made so far: while a new photo's larger sizes are
  // still being made its only variant is small, and capping at that would leave rows unfilled.
  const largestWidth = photo.width ?? Math.max(0, ...photo.variants.map((variant) => variant.width));
  const duration = photo.video ? formatDuration(photo.video.durationMs ?? 0) : undefined;
  const isLive = !photo.video && Boolean(photo.motionUrl);
  return {
    id: photo.id,
    ratio,
    // A screen reader hears what a sighted reader sees on the tile: "…, video, 0:12".
    name: duration !== undefined ? `${photoAccessibleName(photo)}, video, ${duration}` : isLive ? `${photoAccessibleName(photo)}, Live Photo` : photoAccessibleName(photo),
    color: photo.dominantColor,
    thumbhash: photo.thumbhash,
    // Only a signed-in viewer can be shown a photo that is not public; the badge tells them why
    // a visitor will not see it.
    badge: viewer.kind === "user" ? BADGES[photo.visibility] : null,
    base,
    avif: relativeSrcSet(avif),
    jpeg: relativeSrcSet(jpeg),
    ...(largestWidth > 0 && largestWidth < ratio * TALLEST_ROW_CSS_PX ? { maxWidth: largestWidth } : {}),
    ...(duration !== undefined && { duration }),
    ...(isLive && { live: true as const }),
  };
}

/** The widths of one format up to the first that covers `neededWidth` (all of them if none does). */
function pickVariants(photo: Pick<PhotoSummary, "variants">, format: "avif" | "jpeg", neededWidth: number): PhotoSummary["variants"] {
  const sorted = photo.variants.filter((variant) => variant.format === format).sort((left, right) => left.width - right.width);
  const enough = sorted.findIndex((variant) => variant.width >= neededWidth);
  return enough === -1 ? sorted : sorted.slice(0, enough + 1);
}

/** The longest folder ("…/") all these URLs start with. */
function sharedFolder(urls: string[]): string {
  if (urls.length === 0) return "";
  let prefix = urls[0].slice(0, urls[0].lastIndexOf("/") + 1);
  for (const url of urls) {
    while (!url.startsWith(prefix)) prefix = prefix.slice(0, prefix.lastIndexOf("/", prefix.length - 2) + 1);
  }
  return prefix;
}
