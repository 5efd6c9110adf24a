import { findCurrentViewer } from "@/src/auth/current-user";
import { getDb } from "@/src/db/client";
import { EndlessGallery } from "@/src/photos/components/endless-gallery";
import { PhotoGrid } from "@/src/photos/components/photo-grid";
import { listPhotosForViewer } from "@/src/photos/photos.service";
import { loadMorePhotos } from "./gallery-actions";

// / – the gallery: public photos (and members-only ones for members), newest first by date taken.
export default async function GalleryPage() {
  const viewer = await findCurrentViewer();
  const { photos, nextCursor } = await listPhotosForViewer(getDb(), viewer, { limit: 30 });
  if (photos.length === 0) {
    return (
      <section className="empty-gallery">
        <h1>Contact Sheet</h1>
        <p>No public photos yet.</p>
      </section>
    );
  }
  return (
    <section aria-label="Photos">
      <h1 className="visually-hidden">Contact Sheet</h1>
      <EndlessGallery firstPage={<PhotoGrid photos={photos} />} firstCursor={nextCursor} loadMore={loadMorePhotos} />
    </section>
  );
}
