import { cache } from "react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound, permanentRedirect } from "next/navigation";
import { findCurrentViewer } from "@/src/auth/current-user";
import { getDb } from "@/src/db/client";
import { feedLinkTypes } from "@/src/feeds/feed-links";
import { AppError } from "@/src/errors/app-error";
import { EndlessGallery } from "@/src/photos/components/endless-gallery";
import { toGalleryTiles } from "@/src/photos/gallery-tile";
import { publishPageMetadata } from "@/src/publish/page-metadata";
import { listTagPhotosForViewer } from "@/src/tags/tags.service";
import { loadMoreTagPhotos } from "./tag-actions";
import { decodedSegment, identifierFromSegment } from "@/src/http/route-segment";

interface TagPageProps {
  params: Promise<{ tag: string }>;
}

// Memoised per request: generateMetadata and the page both need it.
const findTagPage = cache(async (segment: string) => {
  try {
    return await listTagPhotosForViewer(getDb(), await findCurrentViewer(), identifierFromSegment(segment) ?? notFound(), { limit: 30 });
  } catch (error) {
    // No such tag, or none of its photos is this viewer's to see: the same 404.
    if (error instanceof AppError && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST")) notFound();
    throw error;
  }
});

export async function generateMetadata({ params }: TagPageProps): Promise<Metadata> {
  const { tag, photos } = await findTagPage((await params).tag);
  const hasPublicPhoto = photos.some((photo) => photo.visibility === "public");
  return publishPageMetadata(
    { title: `Tagged “${tag.name}”`, alternates: { canonical: tag.path, types: feedLinkTypes(tag.path, `Tagged “${tag.name}”`, hasPublicPhoto) } },
    { kind: "tag", key: tag.key },
  );
}

// /tags/[tag] – the photos with this tag that the viewer may see, in the gallery's grid. Any spelling
// of the name works (case, accents composed or not); the page sends it on to the tag's own address.
export default async function TagPage({ params }: TagPageProps) {
  const segment = (await params).tag;
  const { tag, photos, nextCursor } = await findTagPage(segment);
  if (decodedSegment(segment) !== tag.key) permanentRedirect(tag.path);
  const viewer = await findCurrentViewer();
  return (
    <section className="gallery tag-gallery" aria-labelledby="tag-title">
      <header className="tag-gallery-header">
        <p className="tag-gallery-kicker">
          <Link href="/tags">Tags</Link>
        </p>
        <h1 id="tag-title">{tag.name}</h1>
      </header>
      <EndlessGallery key={tag.id} firstTiles={toGalleryTiles(photos, viewer)} firstCursor={nextCursor} loadMore={loadMoreTagPhotos.bind(null, tag.key)} />
    </section>
  );
}
