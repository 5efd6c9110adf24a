import "server-only";
import type { Metadata } from "next";
import { getDb } from "@/src/db/client";
import { photoAccessibleName } from "@/src/photos/photo-accessible-name";
import { toMediaUrl } from "@/src/photos/photo-publication";
import { playableCopySize } from "@/src/video/playable-copy";
import { getSiteIdentity } from "@/src/settings/site-settings.service";
import { planOgImageOf } from "./og-images";
import { findPublicAlbumById, findPublicPhoto, findTag, listPublicAlbumPhotos, listPublicTagPhotos } from "./published-subjects";
import { siteUrl } from "@/src/config/site-url";
import type { PhotoRow } from "@/src/db/database";

/** Which page the tags are for. Pages name it by what they already hold; nothing here trusts the viewer. */
export type PublishedPage = { kind: "photo"; id: string } | { kind: "album"; id: string } | { kind: "tag"; key: string };

type AlternateTypes = NonNullable<NonNullable<Metadata["alternates"]>["types"]>;

interface Published {
  title: string;
  description: string;
  /** The page's own path (canonical). */
  path: string;
  type: "website" | "article";
  image: { path: string; width: number; height: number; alt: string } | null;
  /** Photos and albums: the oEmbed discovery link. */
  oembed: boolean;
  /** A public video's playable copy (no metadata), which anyone may fetch without a cookie; null otherwise. */
  video: { path: string; width: number; height: number } | null;
}

/** What the page publishes when it is public; null when it is not (or has nothing public to show). */
async function findPublished(page: PublishedPage, siteTitle: string): Promise<Published | null> {
  const db = getDb();
  switch (page.kind) {
    case "photo": {
      const photo = await findPublicPhoto(db, page.id);
      if (!photo) return null;
      const { row } = photo;
      const name = photoAccessibleName({ title: row.title, altText: row.alt_text, takenAt: row.taken_at });
      const plan = planOgImageOf({ kind: "photo", id: row.id }, [photo]);
      return {
        title: row.title || name,
        description: row.caption || name,
        path: `/p/${row.id}`,
        type: "article",
        image: plan && { path: plan.path, width: plan.width, height: plan.height, alt: row.alt_text || row.title || name },
        oembed: true,
        video: publicVideoOf(row),
      };
    }
    case "album": {
      const album = await findPublicAlbumById(db, page.id);
      if (!album) return null;
      const plan = planOgImageOf({ kind: "album", id: album.id }, await listPublicAlbumPhotos(db, album));
      return {
        title: album.title,
        description: album.description || `Photos from the album “${album.title}”.`,
        path: `/albums/${encodeURIComponent(album.slug)}`,
        type: "website",
        image: plan && { path: plan.path, width: plan.width, height: plan.height, alt: `Photos from the album “${album.title}”` },
        // An album without a public photo has nothing to embed (the endpoint answers 404).
        oembed: plan !== null,
        video: null,
      };
    }
    case "tag": {
      const tag = await findTag(db, { key: page.key });
      if (!tag) return null;
      const plan = planOgImageOf({ kind: "tag", id: tag.id }, await listPublicTagPhotos(db, tag.id));
      // A tag is public only through its public photos: with none, its name is nobody's business.
      if (!plan) return null;
      return {
        title: `Photos tagged “${tag.name}”`,
        description: `Photos tagged “${tag.name}” on ${siteTitle}.`,
        path: `/tags/${encodeURIComponent(tag.key)}`,
        type: "website",
        image: { path: plan.path, width: plan.width, height: plan.height, alt: `Photos tagged “${tag.name}”` },
        oembed: false,
        video: null,
      };
    }
  }
}

/**
 * og:video for a public video: its playable copy (H.264/AAC MP4, metadata stripped), served to
 * anyone without a cookie because the photo is public (findPublicPhoto), never the original.
 * Null until the copy is made, and for photos.
 */
function publicVideoOf(row: PhotoRow): Published["video"] {
  if (row.media_kind !== "video" || !row.playable_key || !row.width || !row.height) return null;
  return { path: toMediaUrl(row.publication_key, row.playable_key), ...playableCopySize(row.width, row.height) };
}

function oembedLink(published: Published): AlternateTypes {
  const href = `${siteUrl("/oembed")}?url=${encodeURIComponent(siteUrl(published.path))}&format=json`;
  return { "application/json+oembed": [{ url: href, title: published.title }] };
}

/**
 * A page's Open Graph and Twitter tags and its oEmbed discovery link, added to the metadata the page
 * made itself (`base`; its alternates.types are kept). Every page that publishes calls this once.
 *
 * Public photos, albums and tags (with public photos) get og:title, og:description,
 * an absolute og:url (from NEXTAUTH_URL, never the Host header), og:image with its size and alt,
 * og:type, og:site_name and twitter:card summary_large_image (X falls back to the og: tags); photos and albums also the
 * `application/json+oembed` link. Anything else (private, members-only, unlisted, or nothing public
 * in it) gets the site's own generic tags and description: nothing that names or shows it, whoever
 * is asking (the owner's own view of a private photo too: link previews are fetched by strangers).
 */
export async function publishPageMetadata(base: Metadata, page: PublishedPage): Promise<Metadata> {
  const { siteTitle, siteDescription } = await getSiteIdentity(getDb());
  const published = await findPublished(page, siteTitle);
  if (!published) {
    return {
      ...base,
      // The page's own description would be the photo's caption or the album's words.
      description: siteDescription || undefined,
      openGraph: { type: "website", siteName: siteTitle, title: siteTitle, description: siteDescription || undefined, url: siteUrl("/") },
      twitter: { card: "summary" },
    };
  }
  const url = siteUrl(published.path);
  const images = published.image
    ? [{ url: siteUrl(published.image.path), width: published.image.width, height: published.image.height, alt: published.image.alt }]
    : undefined;
  return {
    ...base,
    alternates: {
      ...base.alternates,
      ...(published.oembed ? { types: { ...base.alternates?.types, ...oembedLink(published) } } : {}),
    },
    openGraph: {
      type: published.type,
      siteName: siteTitle,
      title: published.title,
      description: published.description,
      url,
      images,
      ...(published.video && {
        videos: [{ url: siteUrl(published.video.path), type: "video/mp4", width: published.video.width, height: published.video.height }],
      }),
    },
    // The card and no images of its own: X reads the image from og:image when twitter:image is absent
    // (Next.js copies og:title and og:description into twitter: tags whatever is given here), and
    // every byte of these tags is sent twice (HTML and RSC payload), on the gallery's page too.
    twitter: { card: images ? "summary_large_image" : "summary", images: [] },
  };
}
