import "server-only";
import { XMLBuilder } from "fast-xml-parser";
import { ANONYMOUS_VIEWER } from "@/src/access/viewer";
import type { DatabaseHandle } from "@/src/db/client";
import { AppError } from "@/src/errors/app-error";
import { pickPublishedVariant } from "@/src/feeds/published-variant";
import { siteUrl } from "@/src/config/site-url";
import { cacheUntilPhotosChange } from "@/src/photos/cache-until-photos-change";
import { toMediaUrl } from "@/src/photos/photo-publication";
import { listVariants } from "@/src/photos/photos.repository";
import { listTagsForViewer } from "@/src/tags/tags.service";
import { type PlanKey, planSitemapParts, type SitemapPart } from "./sitemap-plan";
import { listPublicAlbums, listPublicCovers, listPublicPhotosAfter, type SitemapPhotoRow } from "./sitemap.repository";

/**
 * /sitemap.xml and its parts: the site's public pages (/, /albums, /tags), every public album, every
 * tag with a public photo, and every public photo with an image entry of a public JPEG variant.
 * Only what an anonymous visitor may list, whoever asks. Up to SITEMAP_URL_LIMIT URLs it is one
 * urlset; past that, /sitemap.xml is an index of /sitemaps/1.xml, /sitemaps/2.xml… Written by
 * fast-xml-parser's builder, which escapes every value.
 */

/** The sitemaps.org limit of URLs per file. */
export const SITEMAP_URL_LIMIT = 50_000;

const SITEMAP_NAMESPACE = "http://www.sitemaps.org/schemas/sitemap/0.9";
const IMAGE_NAMESPACE = "http://www.google.com/schemas/sitemap-image/1.1";
/** Photos read per query while writing a part (and their variants with them). */
const PHOTO_BATCH = 1000;
/** Albums whose covers are looked up per query. */
const COVER_BATCH = 200;

export interface SitemapOptions {
  /** URLs per part: SITEMAP_URL_LIMIT, smaller in tests. */
  limit?: number;
}

interface SitemapUrl {
  loc: string;
  lastmod?: string;
  images: string[];
}

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: "@_", format: false, suppressEmptyNode: true });

function toW3cDate(value: string): string {
  return new Date(value).toISOString();
}

/** The pages, albums and tags, read whole on every request (an album that stops being public leaves at once). */
async function listFixedUrls(db: DatabaseHandle): Promise<SitemapUrl[]> {
  const albums = await listPublicAlbums(db);
  const withCover = albums.filter((album) => album.cover_photo_id !== null).map((album) => ({ id: album.id, coverPhotoId: album.cover_photo_id as string }));
  const covers = new Map<string, { id: string; publication_key: string }>();
  for (let start = 0; start < withCover.length; start += COVER_BATCH) {
    for (const [albumId, cover] of await listPublicCovers(db, withCover.slice(start, start + COVER_BATCH))) covers.set(albumId, cover);
  }
  const coverVariants = await listVariants(db, [...new Set([...covers.values()].map((cover) => cover.id))]);
  const coverImage = (albumId: string): string[] => {
    const cover = covers.get(albumId);
    const variant = cover ? pickPublishedVariant(coverVariants.filter((each) => each.photo_id === cover.id)) : null;
    return cover && variant ? [siteUrl(toMediaUrl(cover.publication_key, variant.storage_key))] : [];
  };
  const tags = await listTagsForViewer(db, ANONYMOUS_VIEWER);
  return [
    { loc: siteUrl("/"), images: [] },
    { loc: siteUrl("/albums"), images: [] },
    { loc: siteUrl("/tags"), images: [] },
    ...albums.map((album) => ({ loc: siteUrl(`/albums/${encodeURIComponent(album.slug)}`), lastmod: toW3cDate(album.updated_at), images: coverImage(album.id) })),
    ...tags.map((tag) => ({ loc: siteUrl(tag.path), images: [] })),
  ];
}

// The parts' photo boundaries, remembered per limit for a minute and dropped when photos change in
// this process: finding them walks every public photo's key. They are positions only: what a part
// lists is read, with the access rule, when it is asked for.
const REMEMBER_MS = 60_000;
// One plan per limit asked for (the sitemap index and its parts ask with the same one).
const rememberedPlans = cacheUntilPhotosChange<SitemapPart[]>({ lifetimeMs: REMEMBER_MS, maxEntries: 16 });

function planFor(db: DatabaseHandle, fixedCount: number, limit: number): Promise<SitemapPart[]> {
  const readKeys = async (after: PlanKey | undefined, take: number) =>
    (await listPublicPhotosAfter(db, { after, limit: take })).map((row) => ({ sortAt: row.sort_at, id: row.id }));
  return rememberedPlans.get(db, `${fixedCount}:${limit}`, () => planSitemapParts(fixedCount, limit, readKeys));
}

async function photoUrls(db: DatabaseHandle, photos: NonNullable<SitemapPart["photos"]>): Promise<SitemapUrl[]> {
  const urls: SitemapUrl[] = [];
  let after = photos.after;
  while (urls.length < photos.take) {
    const rows: SitemapPhotoRow[] = await listPublicPhotosAfter(db, { after, limit: Math.min(PHOTO_BATCH, photos.take - urls.length) });
    if (rows.length === 0) break;
    const variants = await listVariants(db, rows.map((row) => row.id));
    for (const row of rows) {
      const variant = pickPublishedVariant(variants.filter((each) => each.photo_id === row.id));
      urls.push({
        loc: siteUrl(`/p/${row.id}`),
        lastmod: toW3cDate(row.updated_at),
        images: variant ? [siteUrl(toMediaUrl(row.publication_key, variant.storage_key))] : [],
      });
    }
    const last = rows[rows.length - 1];
    after = { sortAt: last.sort_at, id: last.id };
  }
  return urls;
}

function urlsetXml(urls: SitemapUrl[]): string {
  return builder.build({
    "?xml": { "@_version": "1.0", "@_encoding": "UTF-8" },
    urlset: {
      "@_xmlns": SITEMAP_NAMESPACE,
      "@_xmlns:image": IMAGE_NAMESPACE,
      url: urls.map((url) => ({
        loc: url.loc,
        ...(url.lastmod ? { lastmod: url.lastmod } : {}),
        ...(url.images.length > 0 ? { "image:image": url.images.map((image) => ({ "image:loc": image })) } : {}),
      })),
    },
  });
}

function indexXml(partCount: number): string {
  return builder.build({
    "?xml": { "@_version": "1.0", "@_encoding": "UTF-8" },
    sitemapindex: {
      "@_xmlns": SITEMAP_NAMESPACE,
      sitemap: Array.from({ length: partCount }, (_, index) => ({ loc: siteUrl(sitemapPartPath(index + 1)) })),
    },
  });
}

/** Where part `number` (from 1) is served. */
export function sitemapPartPath(number: number): string {
  return `/sitemaps/${number}.xml`;
}

async function partXml(db: DatabaseHandle, fixed: SitemapUrl[], part: SitemapPart): Promise<string> {
  const photos = part.photos ? await photoUrls(db, part.photos) : [];
  return urlsetXml([...fixed.slice(part.fixed.from, part.fixed.to), ...photos]);
}

/** /sitemap.xml: the one urlset, or past the limit the index of its parts. */
export async function buildSitemap(db: DatabaseHandle, options: SitemapOptions = {}): Promise<string> {
  const limit = options.limit ?? SITEMAP_URL_LIMIT;
  const fixed = await listFixedUrls(db);
  const parts = await planFor(db, fixed.length, limit);
  return parts.length === 1 ? partXml(db, fixed, parts[0]) : indexXml(parts.length);
}

/** /sitemaps/[n].xml: one part (from 1); 404 past the last. */
export async function buildSitemapPart(db: DatabaseHandle, number: number, options: SitemapOptions = {}): Promise<string> {
  const limit = options.limit ?? SITEMAP_URL_LIMIT;
  const fixed = await listFixedUrls(db);
  const parts = await planFor(db, fixed.length, limit);
  const part = Number.isInteger(number) && number >= 1 ? parts[number - 1] : undefined;
  if (!part) throw new AppError("NOT_FOUND", "The sitemap has no such part.");
  return partXml(db, fixed, part);
}

/**
 * robots.txt: crawl the public site; never the admin, the API, share links (each is a private
 * invitation), sign-in, setup or search results (endless combinations of one gallery); the sitemap
 * named by its absolute URL from NEXTAUTH_URL.
 */
export function buildRobotsTxt(): string {
  return [
    "User-agent: *",
    "Allow: /",
    "Disallow: /admin",
    "Disallow: /api",
    "Disallow: /s/",
    "Disallow: /signin",
    "Disallow: /setup",
    "Disallow: /search",
    "",
    `Sitemap: ${siteUrl("/sitemap.xml")}`,
    "",
  ].join("\n");
}
