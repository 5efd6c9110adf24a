import "server-only";
import { generateJsonFeed, generateRssFeed } from "feedsmith";
import { findAlbumByOldSlug, findAlbumBySlug } from "@/src/albums/albums.repository";
import type { DatabaseHandle } from "@/src/db/client";
import type { PhotoRow } from "@/src/db/database";
import { AppError } from "@/src/errors/app-error";
import { photoAccessibleName } from "@/src/photos/photo-accessible-name";
import { toMediaUrl } from "@/src/photos/photo-publication";
import { listVariants } from "@/src/photos/photos.repository";
import { getSiteSettings } from "@/src/settings/site-settings.service";
import { findTagBySlug } from "@/src/tags/tags.service";
import { tagPath } from "@/src/tags/tag-name";
import { toFeedField } from "./feed-text";
import { listNewestPublicAlbumPhotos, listNewestPublicPhotos, listNewestPublicTagPhotos } from "./feeds.repository";
import { FEED_CONTENT_TYPES, type FeedFormat, feedPath } from "./feeds.service.types";
import { pickPublishedVariant } from "./published-variant";
import { siteUrl } from "@/src/config/site-url";

/**
 * The site's feeds: RSS 2.0 and JSON Feed 1.1 of the newest public photos, of one public album,
 * of one tag's public photos. Only what an anonymous visitor may list, whoever asks (a feed is
 * cached and shared), so a photo that stops being public drops out of the next answer. Built by
 * feedsmith, which escapes every title and caption (CDATA split at every `]]>`, JSON strings);
 * nothing here writes markup by hand. Every text, the site's, an album's, a tag's or a photo's,
 * enters its field through toFeedField (feed-text.ts), which knows which fields readers take as HTML.
 */

/** The language the site's pages declare (<html lang>, app/layout.tsx). */
const SITE_LANGUAGE = "en";

/** How many photos a feed carries, newest first. */
export const FEED_ITEM_LIMIT = 50;

export type FeedScope = { kind: "site" } | { kind: "album"; slug: string } | { kind: "tag"; tag: string };

export type FeedAnswer = { kind: "feed"; body: string; contentType: string } | { kind: "moved"; path: string };

interface FeedSource {
  title: string;
  description: string;
  /** The page the feed follows: /, /albums/<slug>, /tags/<key>. */
  pagePath: string;
  photos: PhotoRow[];
}

const NOT_FOUND_ALBUM = "No public album has that address.";
const NOT_FOUND_TAG = "No tag with public photos has that name.";

async function findSource(db: DatabaseHandle, scope: FeedScope): Promise<FeedSource | { moved: string }> {
  const settings = await getSiteSettings(db);
  if (scope.kind === "site") {
    return { title: settings.siteTitle, description: settings.siteDescription, pagePath: "/", photos: await listNewestPublicPhotos(db, FEED_ITEM_LIMIT) };
  }
  if (scope.kind === "album") {
    const current = await findAlbumBySlug(db, scope.slug);
    const album = current ?? (await findAlbumByOldSlug(db, scope.slug));
    // Only a public album has a feed: an unlisted, members-only or private one looks like no album at all.
    if (!album || album.visibility !== "public") throw new AppError("NOT_FOUND", NOT_FOUND_ALBUM);
    const pagePath = `/albums/${encodeURIComponent(album.slug)}`;
    if (!current) return { moved: pagePath };
    return {
      title: `${album.title} · ${settings.siteTitle}`,
      description: album.description || `The album “${album.title}” on ${settings.siteTitle}.`,
      pagePath,
      photos: await listNewestPublicAlbumPhotos(db, album.id, FEED_ITEM_LIMIT),
    };
  }
  const tag = await findTagBySlug(db, scope.tag);
  if (!tag) throw new AppError("NOT_FOUND", NOT_FOUND_TAG);
  const photos = await listNewestPublicTagPhotos(db, tag.id, FEED_ITEM_LIMIT);
  // A tag none of whose photos is public is not shown to the public at all: the same 404 as no tag.
  if (photos.length === 0) throw new AppError("NOT_FOUND", NOT_FOUND_TAG);
  const pagePath = tagPath(tag.key);
  if (scope.tag !== tag.key) return { moved: pagePath };
  return { title: `Tagged “${tag.name}” · ${settings.siteTitle}`, description: `Photos tagged “${tag.name}” on ${settings.siteTitle}.`, pagePath, photos };
}

/** A photo's texts as stored: each format puts them into its fields through toFeedField. */
interface FeedItem {
  /** The photo's canonical URL: its link and its stable id. */
  url: string;
  /** The title, else the alt text, else "Photo taken on 3 May 2019" (the name every image gets). */
  title: string;
  caption: string;
  altText: string;
  date: Date;
  image: { url: string; type: string; length: number; width: number; height: number } | null;
}

async function toItems(db: DatabaseHandle, photos: PhotoRow[]): Promise<FeedItem[]> {
  const variants = await listVariants(db, photos.map((photo) => photo.id));
  return photos.map((photo) => {
    const variant = pickPublishedVariant(variants.filter((each) => each.photo_id === photo.id));
    return {
      url: siteUrl(`/p/${photo.id}`),
      title: toFeedField(photo.title, "line") ? photo.title : photoAccessibleName({ title: "", altText: photo.alt_text, takenAt: photo.taken_at }),
      caption: photo.caption,
      altText: photo.alt_text,
      // Taken, or uploaded when the camera recorded no date: the gallery's own order.
      date: new Date(photo.sort_at),
      image: variant
        ? { url: siteUrl(toMediaUrl(photo.publication_key, variant.storage_key)), type: "image/jpeg", length: variant.byte_size, width: variant.width, height: variant.height }
        : null,
    };
  });
}

function toRss(source: FeedSource, items: FeedItem[], siteTitle: string): string {
  return generateRssFeed({
    title: toFeedField(source.title, "line"),
    link: siteUrl(source.pagePath),
    // Readers render it as HTML, like an item's: an album's or the site's words go in as text.
    description: toFeedField(source.description, "rss-html") || toFeedField(siteTitle, "rss-html"),
    language: SITE_LANGUAGE,
    // The newest item's date, not the time of the request: two fetches of an unchanged feed are the same bytes.
    lastBuildDate: items[0]?.date,
    atom: { links: [{ href: siteUrl(feedPath(source.pagePath, "rss")), rel: "self", type: "application/rss+xml" }] },
    items: items.map((item) => ({
      title: toFeedField(item.title, "line"),
      link: item.url,
      guid: { value: item.url, isPermaLink: true },
      pubDate: item.date,
      ...(toFeedField(item.caption, "text") ? { description: toFeedField(item.caption, "rss-html") } : {}),
      ...(item.image
        ? {
            enclosures: [{ url: item.image.url, type: item.image.type, length: item.image.length }],
            media: {
              contents: [
                { url: item.image.url, type: item.image.type, fileSize: item.image.length, medium: "image", width: item.image.width, height: item.image.height },
              ],
              ...(toFeedField(item.altText, "line") ? { description: { value: toFeedField(item.altText, "line"), type: "plain" } } : {}),
            },
          }
        : {}),
    })),
  });
}

function toJson(source: FeedSource, items: FeedItem[], siteTitle: string): string {
  const description = toFeedField(source.description, "line");
  const feed = generateJsonFeed({
    title: toFeedField(source.title, "line") || toFeedField(siteTitle, "line"),
    home_page_url: siteUrl(source.pagePath),
    feed_url: siteUrl(feedPath(source.pagePath, "json")),
    ...(description ? { description } : {}),
    // The app's own icons (public/): square, as the spec asks.
    icon: siteUrl("/icon-512.png"),
    favicon: siteUrl("/icon-192.png"),
    language: SITE_LANGUAGE,
    items: items.map((item) => ({
      id: item.url,
      url: item.url,
      title: toFeedField(item.title, "line"),
      // Plain text, never HTML: nothing a reader could mistake for markup.
      content_text: toFeedField(item.caption, "text") || toFeedField(item.title, "line"),
      date_published: item.date,
      ...(item.image
        ? {
            image: item.image.url,
            attachments: [
              { url: item.image.url, mime_type: item.image.type, size_in_bytes: item.image.length, title: toFeedField(item.altText, "line") || toFeedField(item.title, "line") },
            ],
          }
        : {}),
    })),
  });
  // JSON Feed 1.1 requires `items`; feedsmith leaves an empty list out (a public album with no
  // public photo yet). Its answer is typed unknown; it is the feed object built above.
  const document = feed as Record<string, unknown>;
  return JSON.stringify({ ...document, items: document.items ?? [] });
}

/**
 * A feed's body, or where the feed moved (an album's old slug, a tag's other spelling): 404 for an
 * album that is not public and for a tag with no public photo, the same answer as for none.
 */
export async function buildFeed(db: DatabaseHandle, scope: FeedScope, format: FeedFormat): Promise<FeedAnswer> {
  const source = await findSource(db, scope);
  if ("moved" in source) return { kind: "moved", path: feedPath(source.moved, format) };
  const [items, settings] = await Promise.all([toItems(db, source.photos), getSiteSettings(db)]);
  const body = format === "rss" ? toRss(source, items, settings.siteTitle) : toJson(source, items, settings.siteTitle);
  return { kind: "feed", body, contentType: FEED_CONTENT_TYPES[format] };
}
