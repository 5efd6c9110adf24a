import "server-only";
import type { DatabaseHandle } from "@/src/db/client";
import type { PhotoVariantRow } from "@/src/db/database";
import { AppError } from "@/src/errors/app-error";
import { photoAccessibleName } from "@/src/photos/photo-accessible-name";
import { toMediaUrl } from "@/src/photos/photo-publication";
import { getSiteIdentity } from "@/src/settings/site-settings.service";
import { OG_HEIGHT, OG_WIDTH } from "./og-image-render";
import { planOgImageOf } from "./og-images";
import { MAX_OEMBED_URL_LENGTH, type OembedQuery, type OembedResponse } from "./oembed.schemas";
import { findPublicAlbumBySlug, findPublicPhoto, listPublicAlbumPhotos, type PublicPhoto } from "./published-subjects";
import { siteOrigin, siteUrl } from "@/src/config/site-url";

/** How long a consumer may keep an answer (seconds); the HTTP answer says the same. */
export const OEMBED_CACHE_AGE = 300;
/** Without a maxwidth: the widest variant an embed gets. */
const DEFAULT_PHOTO_WIDTH = 1600;
/** An album's embed: its collage at this width (or smaller, to fit). */
const ALBUM_EMBED_WIDTH = 600;
const PHOTO_PATH = /^\/p\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/?$/;
const ALBUM_PATH = /^\/albums\/([^/]+)\/?$/;
const SIZE = /^[1-9][0-9]{0,4}$/;

type Target = { kind: "photo"; id: string } | { kind: "album"; slug: string };

// One answer for everything that is not a public photo or album of this site (another origin, an
// unknown path, a private, members-only or unlisted photo, a share link): nothing tells them apart.
const NOT_FOUND = "There is no public photo or album at that URL.";

function parseSize(value: string | undefined, name: string): number | null {
  if (value === undefined || value === "") return null;
  if (!SIZE.test(value)) throw new AppError("BAD_REQUEST", `${name} must be a positive whole number of pixels.`);
  return Number(value);
}

/** What the url names: 400 when it is not an absolute URL at all, 404 when it names nothing public here. */
function parseTarget(value: string | undefined): Target {
  if (!value) throw new AppError("BAD_REQUEST", "Give the url of a photo or album page, e.g. ?url=" + encodeURIComponent(siteUrl("/p/…")));
  if (value.length > MAX_OEMBED_URL_LENGTH) throw new AppError("BAD_REQUEST", `The url is longer than ${MAX_OEMBED_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AppError("BAD_REQUEST", "The url is not an absolute URL.");
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.origin !== siteOrigin() || url.username || url.password) {
    throw new AppError("NOT_FOUND", NOT_FOUND);
  }
  const photo = PHOTO_PATH.exec(url.pathname);
  if (photo) return { kind: "photo", id: photo[1] };
  const album = ALBUM_PATH.exec(url.pathname);
  if (album) {
    try {
      return { kind: "album", slug: decodeURIComponent(album[1]) };
    } catch {
      throw new AppError("NOT_FOUND", NOT_FOUND);
    }
  }
  throw new AppError("NOT_FOUND", NOT_FOUND);
}

function fits(variant: { width: number; height: number }, maxWidth: number | null, maxHeight: number | null): boolean {
  return (maxWidth === null || variant.width <= maxWidth) && (maxHeight === null || variant.height <= maxHeight);
}

/** The largest JPEG variant within the limits (smallest first in `jpegs`), or null when none fits. */
function largestFitting(jpegs: PhotoVariantRow[], maxWidth: number | null, maxHeight: number | null): PhotoVariantRow | null {
  return jpegs.filter((variant) => fits(variant, maxWidth, maxHeight)).at(-1) ?? null;
}

/** An image of `width`x`height` scaled down to fit both limits (never up), whole pixels. */
function fitWithin(width: number, height: number, maxWidth: number | null, maxHeight: number | null): { width: number; height: number } {
  const scale = Math.min(1, maxWidth === null ? 1 : maxWidth / width, maxHeight === null ? 1 : maxHeight / height);
  return { width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.floor(height * scale)) };
}

/** The thumbnail fields: the photo's smallest JPEG variant, when it fits the limits (the spec asks it to). */
function thumbnailOf(photo: PublicPhoto, maxWidth: number | null, maxHeight: number | null) {
  const smallest = photo.jpegs[0];
  if (!fits(smallest, maxWidth, maxHeight)) return {};
  return {
    thumbnail_url: siteUrl(toMediaUrl(photo.row.publication_key, smallest.storage_key)),
    thumbnail_width: smallest.width,
    thumbnail_height: smallest.height,
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * GET /oembed (https://oembed.com, section 2): a public photo as `type: "photo"` (a JPEG variant that
 * fits maxwidth/maxheight), a public album as `type: "rich"` (a linked image of its collage). Read
 * with the public access rule only, whoever asks. 400 for a missing or malformed url or size, 501
 * for any format but JSON, 404 for everything else (also when no variant fits the limits).
 */
export async function answerOembed(db: DatabaseHandle, query: OembedQuery): Promise<OembedResponse> {
  const target = parseTarget(query.url);
  const maxWidth = parseSize(query.maxwidth, "maxwidth");
  const maxHeight = parseSize(query.maxheight, "maxheight");
  if (query.format !== undefined && query.format !== "" && query.format !== "json") {
    throw new AppError("NOT_IMPLEMENTED", "Only format=json is served.");
  }
  const { siteTitle } = await getSiteIdentity(db);
  const provider = { provider_name: siteTitle, provider_url: `${siteOrigin()}/`, author_name: siteTitle, author_url: `${siteOrigin()}/` };

  if (target.kind === "photo") {
    const photo = await findPublicPhoto(db, target.id);
    if (!photo) throw new AppError("NOT_FOUND", NOT_FOUND);
    const limitWidth = maxWidth ?? DEFAULT_PHOTO_WIDTH;
    const image = largestFitting(photo.jpegs, limitWidth, maxHeight) ?? (maxWidth === null && maxHeight === null ? photo.jpegs[0] : null);
    if (!image) throw new AppError("NOT_FOUND", "No size of this photo fits maxwidth and maxheight.");
    const mediaUrl = (variant: PhotoVariantRow) => siteUrl(toMediaUrl(photo.row.publication_key, variant.storage_key));
    return {
      version: "1.0",
      type: "photo",
      title: photo.row.title || photoAccessibleName({ title: photo.row.title, altText: photo.row.alt_text, takenAt: photo.row.taken_at }),
      ...provider,
      cache_age: OEMBED_CACHE_AGE,
      url: mediaUrl(image),
      width: image.width,
      height: image.height,
      ...thumbnailOf(photo, maxWidth, maxHeight),
    };
  }

  const album = await findPublicAlbumBySlug(db, target.slug);
  const photos = album ? await listPublicAlbumPhotos(db, album) : [];
  const plan = album ? planOgImageOf({ kind: "album", id: album.id }, photos) : null;
  if (!album || !plan) throw new AppError("NOT_FOUND", NOT_FOUND);
  const size = fitWithin(ALBUM_EMBED_WIDTH, Math.round((ALBUM_EMBED_WIDTH * OG_HEIGHT) / OG_WIDTH), maxWidth, maxHeight);
  const albumUrl = siteUrl(`/albums/${encodeURIComponent(album.slug)}`);
  const imageUrl = siteUrl(plan.path);
  const html =
    `<a href="${escapeHtml(albumUrl)}" title="${escapeHtml(album.title)}" style="display:inline-block;max-width:100%">` +
    `<img src="${escapeHtml(imageUrl)}" width="${size.width}" height="${size.height}" alt="${escapeHtml(`Photos from the album ${album.title}`)}" ` +
    `style="display:block;max-width:100%;height:auto;border:0" loading="lazy"></a>`;
  return {
    version: "1.0",
    type: "rich",
    title: album.title,
    ...provider,
    cache_age: OEMBED_CACHE_AGE,
    html,
    width: size.width,
    height: size.height,
    ...thumbnailOf(photos[0], maxWidth, maxHeight),
  };
}
