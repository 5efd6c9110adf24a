import type { Metadata } from "next";
import Link from "next/link";
import { hasRole } from "@/src/access/roles";
import { signedInUser } from "@/src/access/viewer";
import { findCurrentViewer } from "@/src/auth/current-user";
import { getDb } from "@/src/db/client";
import { feedLinkTypes } from "@/src/feeds/feed-links";
import { EndlessGallery } from "@/src/photos/components/endless-gallery";
import { toGalleryTiles } from "@/src/photos/gallery-tile";
import { listPhotosForViewer } from "@/src/photos/photos.service";
import { getSiteIdentity, getSiteSettings } from "@/src/settings/site-settings.service";
import { loadMorePhotos } from "./gallery-actions";

// The site's feed links; its og: and twitter: tags are the layout's (title, description, site name,
// and the site's collage at its one address). Planning the collage here instead read the newest
// photos late enough that Next.js streamed the metadata into the body, about 1 kB more per visit.
export async function generateMetadata(): Promise<Metadata> {
  const { siteTitle } = await getSiteIdentity(getDb());
  return { alternates: { types: feedLinkTypes("/", siteTitle) } };
}

// / – the gallery: public photos (and members-only ones for members), newest first by date taken.
export default async function GalleryPage() {
  const viewer = await findCurrentViewer();
  const [{ photos, nextCursor }, { siteTitle, siteDescription }] = await Promise.all([
    listPhotosForViewer(getDb(), viewer, { limit: 30 }),
    getSiteSettings(getDb()),
  ]);
  if (photos.length === 0) {
    const user = signedInUser(viewer);
    const canUpload = user !== null && hasRole(user.role, "editor");
    return (
      <section className="empty-gallery">
        <h1>{siteTitle}</h1>
        {canUpload ? (
          <>
            <p>No photos here yet.</p>
            <Link className="button" href="/admin/upload">
              Upload your first photos
            </Link>
          </>
        ) : (
          <>
            <p className="empty-gallery-lead">{siteDescription}</p>
            <p>{user ? "No photos to show yet." : "No public photos yet."}</p>
          </>
        )}
      </section>
    );
  }
  return (
    <section className="gallery" aria-label="Photos">
      <h1 className="visually-hidden">{siteTitle}</h1>
      <EndlessGallery firstTiles={toGalleryTiles(photos, viewer)} firstCursor={nextCursor} loadMore={loadMorePhotos} />
    </section>
  );
}
