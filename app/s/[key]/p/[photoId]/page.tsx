import type { CSSProperties } from "react";
import { cache } from "react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getDb } from "@/src/db/client";
import type { ShareRow } from "@/src/db/database";
import { AppError } from "@/src/errors/app-error";
import { runActionWithOrigin } from "@/src/http/request-origin";
import { ArrowKeyNavigation } from "@/src/photos/components/arrow-key-navigation";
import { PhotoNavLink } from "@/src/photos/components/photo-details/photo-nav-link";
import { ExifSummary } from "@/src/photos/components/photo-details/exif-summary";
import { PhotoStagePicture } from "@/src/photos/components/photo-details/photo-stage-picture";
import { mapUrl } from "@/src/photos/components/photo-details/photo-facts";
import { CommentBox, PickToggle } from "@/src/shares/components/proofing";
import { ShareViewerStage } from "@/src/shares/components/share-viewer-stage";
import { toShareViewerSlide } from "@/src/shares/share-viewer-slides";
import { getSharePhoto } from "@/src/shares/share-gallery.service";
import { sharePath } from "@/src/shares/share-key";
import { noteSharePhotoView } from "@/src/shares/share-visits.service";
import { findSharePageAccess, requireSharePage } from "../../share-page-access";
import { identifierFromSegment } from "@/src/http/route-segment";

interface SharePhotoPageProps {
  params: Promise<{ key: string; photoId: string }>;
}

// Memoised per request: the metadata and the page read the photo once.
const findSharePhoto = cache(async (share: ShareRow, photoId: string) => {
  try {
    return await getSharePhoto(getDb(), share, identifierFromSegment(photoId) ?? notFound());
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
});

export async function generateMetadata({ params }: SharePhotoPageProps): Promise<Metadata> {
  const { key, photoId } = await params;
  const access = await findSharePageAccess(key);
  if (access.kind !== "granted") return {};
  const { photo } = await findSharePhoto(access.share, photoId);
  return { title: `${photo.title || photo.name} · ${access.share.title}`, robots: { index: false, follow: false } };
}

// /s/[key]/p/[photoId] – one photo of a share link: as large as the screen allows, its words, its
// camera (when the link shows EXIF) and place (when it shows location), previous and next in the
// link's order, and a download under the link's right.
export default async function SharePhotoPage({ params }: SharePhotoPageProps) {
  const { key, photoId } = await params;
  const base = sharePath(key);
  const share = await requireSharePage(key);
  const { photo, previousId, nextId } = await findSharePhoto(share, photoId);
  await runActionWithOrigin(() => noteSharePhotoView(getDb(), share, photo.id, new Date()));

  const previousHref = previousId ? `${base}/p/${previousId}` : null;
  const nextHref = nextId ? `${base}/p/${nextId}` : null;
  const jpeg = photo.variants.filter((variant) => variant.format === "jpeg");
  const largest = jpeg.at(-1);
  const slide = toShareViewerSlide(photo);
  const name = photo.name;
  const ratio = photo.width && photo.height ? photo.width / photo.height : 3 / 2;
  const stage = { "--photo-ratio": ratio.toFixed(5), "--photo-max-width": `${largest?.width ?? photo.width ?? 2048}px` } as CSSProperties;

  return (
    <article className="photo-page share-photo-page" data-testid="share-photo-page">
      <ArrowKeyNavigation previousHref={previousHref} nextHref={nextHref} />
      <div className="photo-stage" style={stage}>
        {largest && slide ? (
          // Opens the gallery's full-screen viewer: a video plays there, a Live Photo moves there.
          <ShareViewerStage shareKey={share.key} slide={slide}>
            <PhotoStagePicture photo={photo} name={name} ratio={ratio} />
          </ShareViewerStage>
        ) : (
          <p className="photo-stage-notice">This photo is not available right now.</p>
        )}
      </div>

      <div className="photo-info">
        <div className="photo-toolbar">
          <nav className="photo-nav" aria-label={`Photos in ${share.title}`}>
            <PhotoNavLink href={previousHref} direction="previous" />
            <PhotoNavLink href={nextHref} direction="next" />
            <Link className="photo-nav-album" href={base} data-testid="share-back">
              <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                <rect x="3.5" y="3.5" width="7" height="7" rx="1" />
                <rect x="13.5" y="3.5" width="7" height="7" rx="1" />
                <rect x="3.5" y="13.5" width="7" height="7" rx="1" />
                <rect x="13.5" y="13.5" width="7" height="7" rx="1" />
              </svg>
              <span className="visually-hidden">Back to </span>
              <span className="photo-nav-album-title">{share.title}</span>
            </Link>
          </nav>
          <div className="photo-actions">
            <PickToggle photoId={photo.id} photoName={name} variant="page" />
            {photo.downloadUrl && (
              <a className="button secondary photo-action" href={photo.downloadUrl} download data-testid="photo-download">
                <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                  <path d="M12 4v11M7 10l5 5 5-5M5 20h14" />
                </svg>
                <span>Download</span>
              </a>
            )}
          </div>
        </div>

        <div className="photo-columns">
          <header className="photo-heading">
            <h1 data-testid="photo-title" className={photo.title ? undefined : "photo-title-untitled"}>
              {photo.title || name}
            </h1>
            {(photo.location || photo.placeName) && (
              <p className="photo-where" data-testid="share-photo-location">
                <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                  <path d="M12 21s-6.5-5.6-6.5-11a6.5 6.5 0 0 1 13 0c0 5.4-6.5 11-6.5 11z" />
                  <circle cx="12" cy="10" r="2.3" />
                </svg>
                {/* The stored place (a name set by hand may come without coordinates), else the coordinates. */}
                <span>{photo.placeName ?? (photo.location && `${photo.location.latitude.toFixed(4)}, ${photo.location.longitude.toFixed(4)}`)}</span>
                {photo.location && (
                  <a href={mapUrl(photo.location)} rel="noopener noreferrer" referrerPolicy="no-referrer" target="_blank">
                    Map<span className="visually-hidden"> of where it was taken, on OpenStreetMap (new tab)</span>
                  </a>
                )}
              </p>
            )}
            {photo.caption && <p className="photo-caption">{photo.caption}</p>}
            <CommentBox photoId={photo.id} />
          </header>

          {/* The card shows EXIF only when the link does (exif null otherwise): only then is a missing date unknown. */}
          <ExifSummary exif={photo.exif} takenAt={photo.takenAt} dateUnknown={photo.exif !== null} />
        </div>
      </div>
    </article>
  );
}
