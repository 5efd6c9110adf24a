import { cache } from "react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound, permanentRedirect } from "next/navigation";
import { findCurrentViewer } from "@/src/auth/current-user";
import { canonicalBrowseKey, findRenamedCamera, getBrowsePage } from "@/src/browse/browse.service";
import { type BrowseKind, browsePath, browseRoot, UNKNOWN_YEAR_KEY } from "@/src/browse/browse-paths";
import { describeCount } from "@/src/browse/components/browse-index";
import { getDb } from "@/src/db/client";
import { AppError } from "@/src/errors/app-error";
import { EndlessGallery } from "@/src/photos/components/endless-gallery";
import { toGalleryTiles } from "@/src/photos/gallery-tile";
import { loadMoreBrowsePhotos } from "./browse-actions";
import { decodedSegment, identifierFromSegment } from "@/src/http/route-segment";

// /cameras/[slug], /lenses/[slug] and /years/[year]: one page, three kinds. Each route file exports
// what browseDetailPage(kind) makes.

export interface BrowseDetailProps {
  params: Promise<{ key: string }>;
}

const KIND_WORDS: Record<BrowseKind, { index: string; title: (name: string, key: string) => string }> = {
  camera: { index: "Cameras", title: (name) => `Taken with ${name}` },
  lens: { index: "Lenses", title: (name) => `Taken with ${name}` },
  year: { index: "Years", title: (name, key) => (key === UNKNOWN_YEAR_KEY ? "Photos without a date taken" : `Photos from ${name}`) },
};

// Memoised per request: generateMetadata and the page both need it.
const findBrowsePage = cache(async (kind: BrowseKind, segment: string) => {
  const key = canonicalBrowseKey(kind, identifierFromSegment(segment) ?? notFound());
  if (key === null) notFound();
  try {
    return await getBrowsePage(getDb(), await findCurrentViewer(), kind, key, {});
  } catch (error) {
    if (!(error instanceof AppError && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST"))) throw error;
  }
  // A camera's URL name from before company words were dropped (old links): on to its address.
  const renamed = kind === "camera" ? await findRenamedCamera(getDb(), await findCurrentViewer(), key) : null;
  if (renamed !== null) permanentRedirect(browsePath(kind, renamed));
  // Nothing there, or nothing this viewer may see: the same 404.
  notFound();
});

export function browseDetailPage(kind: BrowseKind) {
  async function generateMetadata({ params }: BrowseDetailProps): Promise<Metadata> {
    const page = await findBrowsePage(kind, (await params).key);
    return { title: KIND_WORDS[kind].title(page.name, page.key), alternates: { canonical: page.path } };
  }

  async function BrowseDetailPage({ params }: BrowseDetailProps) {
    const segment = (await params).key;
    const page = await findBrowsePage(kind, segment);
    // Another spelling of the slug ("Canon-EOS-40D"): on to the one address.
    if (decodedSegment(segment) !== page.key) permanentRedirect(browsePath(kind, page.key));
    const viewer = await findCurrentViewer();
    const words = KIND_WORDS[kind];
    return (
      <section className="gallery browse-gallery" aria-labelledby="browse-gallery-title">
        <header className="browse-gallery-header">
          <p className="browse-gallery-kicker">
            <Link href={browseRoot(kind)}>{words.index}</Link>
          </p>
          <h1 id="browse-gallery-title">{page.name}</h1>
          <p className="browse-gallery-count muted" data-testid="browse-count">
            {describeCount(page.count)}
          </p>
        </header>
        <EndlessGallery key={`${kind}:${page.key}`} firstTiles={toGalleryTiles(page.photos, viewer)} firstCursor={page.nextCursor} loadMore={loadMoreBrowsePhotos.bind(null, kind, page.key)} />
      </section>
    );
  }

  return { generateMetadata, BrowseDetailPage };
}
