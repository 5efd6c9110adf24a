import type { Metadata } from "next";
import Link from "next/link";
import { notFound, permanentRedirect } from "next/navigation";
import { cache } from "react";
import { findAlbumPage } from "@/src/albums/album-pages";
import { listAlbumPhotosForViewer } from "@/src/albums/albums.service";
import type { AlbumLookup } from "@/src/albums/albums.types";
import { describeAlbumPhotos, toAlbumCards } from "@/src/albums/components/album-card-data";
import { AlbumGrid } from "@/src/albums/components/album-grid";
import { findCurrentViewer } from "@/src/auth/current-user";
import { getDb } from "@/src/db/client";
import { feedLinkTypes } from "@/src/feeds/feed-links";
import { EndlessGallery } from "@/src/photos/components/endless-gallery";
import { toGalleryTiles } from "@/src/photos/gallery-tile";
import { publishPageMetadata } from "@/src/publish/page-metadata";
import { loadMoreAlbumPhotos } from "./album-actions";
import { identifierFromSegment } from "@/src/http/route-segment";

interface AlbumPageProps {
  params: Promise<{ slug: string }>;
}

type FoundAlbum = Extract<AlbumLookup, { kind: "album" }>;

// Memoised per request (and so per viewer): the metadata and the page read the album once. An old
// slug answers a permanent redirect to the current one; a missing album, or one this viewer may not
// see, is the same 404 page (whether it exists is not told).
const findAlbum = cache(async (slug: string): Promise<FoundAlbum> => {
  // A slug that cannot name an album (a NUL, a control character) is the same 404, asked of no database.
  const decoded = identifierFromSegment(slug) ?? notFound();
  const found = await findAlbumPage(getDb(), await findCurrentViewer(), decoded);
  if (!found) notFound();
  if (found.kind === "moved") permanentRedirect(`/albums/${encodeURIComponent(found.slug)}`);
  return found;
});

export async function generateMetadata({ params }: AlbumPageProps): Promise<Metadata> {
  const { album } = await findAlbum((await params).slug);
  const isPublic = album.visibility === "public";
  // Open Graph, Twitter and oEmbed tags only for a public album (publishPageMetadata decides, whoever asks).
  return publishPageMetadata(
    {
      title: album.title,
      description: album.description || `${album.title}: ${describeAlbumPhotos(album).toLowerCase()}.`,
      robots: isPublic ? undefined : { index: false },
      alternates: { types: feedLinkTypes(`/albums/${encodeURIComponent(album.slug)}`, album.title, isPublic) },
    },
    { kind: "album", id: album.id },
  );
}

// /albums/[slug] – one album: where it sits (breadcrumbs), its words, its sub-albums, then its
// photos in the album's order in the gallery's grid, each linking to its page in this album's order.
// A parent's page lists its sub-albums first, as cards with their covers and counts, and says how
// many photos they hold ("40 photos in sub-albums"), but shows only its own photos, as Lychee
// does: each album has its own order (manual or by date) that a merged list could not keep, a photo
// in several sub-albums would show twice, and the sub-albums' pages are where their photos live.
export default async function AlbumPage({ params }: AlbumPageProps) {
  const { album, breadcrumbs, children } = await findAlbum((await params).slug);
  const viewer = await findCurrentViewer();
  const { photos, nextCursor } = await listAlbumPhotosForViewer(getDb(), viewer, album.id, { limit: 30 });
  const ancestors = breadcrumbs.filter((crumb) => crumb.slug !== album.slug);
  const linkQuery = `?album=${encodeURIComponent(album.slug)}`;
  return (
    <article className="album-page">
      <header className="album-header">
        <nav className="album-breadcrumbs" aria-label="Breadcrumbs">
          <ol>
            <li>
              <Link href="/albums">Albums</Link>
            </li>
            {ancestors.map((crumb) => (
              <li key={crumb.slug}>
                <Link href={`/albums/${encodeURIComponent(crumb.slug)}`}>{crumb.title}</Link>
              </li>
            ))}
            <li>
              <span aria-current="page">{album.title}</span>
            </li>
          </ol>
        </nav>
        <h1 data-testid="album-title">{album.title}</h1>
        {album.description && <p className="album-description">{album.description}</p>}
        <p className="album-meta">
          <span data-testid="album-photo-count">{describeAlbumPhotos(album)}</span>
          {children.length > 0 && <span>{children.length === 1 ? "1 album" : `${children.length} albums`}</span>}
          {album.canEdit && (
            // In a span: the dot before it is the span's, so it is never part of the link.
            <span>
              <a href={`/admin/albums/${encodeURIComponent(album.id)}`} className="album-edit-link">
                Edit album
              </a>
            </span>
          )}
        </p>
      </header>

      {children.length > 0 && (
        // A parent without photos of its own ends with its sub-albums: no rule under them.
        <section className={photos.length > 0 ? "album-children" : "album-children album-children-last"} aria-labelledby="album-children-title">
          <h2 id="album-children-title" className="album-section-title">
            Albums
          </h2>
          <AlbumGrid albums={toAlbumCards(children, viewer)} label={`Albums in ${album.title}`} />
        </section>
      )}

      {photos.length > 0 ? (
        <section className="gallery album-photos" aria-label={`Photos in ${album.title}`}>
          {children.length > 0 && (
            <h2 className="album-section-title" aria-hidden="true">
              Photos
            </h2>
          )}
          <EndlessGallery
            firstTiles={toGalleryTiles(photos, viewer)}
            firstCursor={nextCursor}
            loadMore={loadMoreAlbumPhotos.bind(null, album.id)}
            linkQuery={linkQuery}
          />
        </section>
      ) : (
        children.length === 0 && <p className="albums-empty">This album has no photos yet.</p>
      )}
    </article>
  );
}
