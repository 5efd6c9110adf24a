import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { findCurrentViewer } from "@/src/auth/current-user";
import { getDb } from "@/src/db/client";
import { AppError } from "@/src/errors/app-error";
import { ArrowKeyNavigation } from "@/src/photos/components/arrow-key-navigation";
import { PhotoEditor } from "@/src/photos/components/photo-editor";
import { toSrcSet } from "@/src/photos/variant-srcset";
import { describeCamera } from "@/src/photos/describe-camera";
import { toPlaceholderUrl } from "@/src/photos/placeholder-image";
import { findNeighbourIds, getPhotoForViewer, type PhotoDetail } from "@/src/photos/photos.service";

interface PhotoPageProps {
  params: Promise<{ id: string }>;
}

async function findPhoto(id: string): Promise<PhotoDetail> {
  try {
    return await getPhotoForViewer(getDb(), await findCurrentViewer(), id);
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
}

export async function generateMetadata({ params }: PhotoPageProps): Promise<Metadata> {
  const photo = await findPhoto((await params).id);
  const largest = photo.variants.filter((variant) => variant.format === "jpeg").at(-1);
  const isPublic = photo.visibility === "public";
  return {
    title: photo.title || "Photo",
    description: photo.caption || photo.altText || undefined,
    // Open Graph images only for public photos: a preview card must not carry a private one.
    openGraph: isPublic && largest ? { images: [{ url: largest.url, width: largest.width, height: largest.height }] } : undefined,
    robots: isPublic ? undefined : { index: false },
  };
}

function formatExposure(photo: PhotoDetail): Array<[string, string]> {
  const { exif } = photo;
  const rows: Array<[string, string | null]> = [
    ["Camera", describeCamera(exif.cameraMake, exif.cameraModel)],
    ["Lens", exif.lens],
    ["Focal length", exif.focalLength ? `${exif.focalLength} mm` : null],
    ["Aperture", exif.aperture ? `ƒ/${exif.aperture}` : null],
    ["Shutter", exif.exposureTime ? `${exif.exposureTime} s` : null],
    ["ISO", exif.iso ? String(exif.iso) : null],
    ["Taken", photo.takenAt ? new Date(photo.takenAt).toUTCString().replace(" GMT", "") : null],
  ];
  return rows.filter((row): row is [string, string] => row[1] !== null);
}

// /p/[id] – one photo, large, with its details; arrow keys move to the previous and next photo.
export default async function PhotoPage({ params }: PhotoPageProps) {
  const { id } = await params;
  const viewer = await findCurrentViewer();
  const photo = await findPhoto(id);
  const { newerId, olderId } = await findNeighbourIds(getDb(), viewer, id);
  const previousHref = newerId ? `/p/${newerId}` : null;
  const nextHref = olderId ? `/p/${olderId}` : null;
  const jpeg = photo.variants.filter((variant) => variant.format === "jpeg");
  const placeholder = toPlaceholderUrl(photo.thumbhash);
  const sizes = "(max-width: 72rem) 100vw, 72rem";
  return (
    <article className="photo-view">
      <ArrowKeyNavigation previousHref={previousHref} nextHref={nextHref} />
      <div className="photo-stage">
        {photo.status !== "ready" || jpeg.length === 0 ? (
          <p className="notice">{photo.status === "failed" ? "This photo could not be processed." : "This photo is still being processed."}</p>
        ) : (
          <picture>
            <source type="image/avif" srcSet={toSrcSet(photo, "avif") || undefined} sizes={sizes} />
            <source type="image/webp" srcSet={toSrcSet(photo, "webp") || undefined} sizes={sizes} />
            {/* Our own variants, not /_next/image: private ones must never go through it. */}
            <img
              src={jpeg.at(-1)?.url}
              srcSet={toSrcSet(photo, "jpeg")}
              sizes={sizes}
              width={photo.width ?? undefined}
              height={photo.height ?? undefined}
              alt={photo.altText || photo.title || "Photo"}
              style={{ backgroundImage: placeholder ? `url(${placeholder})` : undefined, backgroundSize: "cover", backgroundColor: photo.dominantColor ?? undefined }}
              data-testid="photo-image"
            />
          </picture>
        )}
      </div>
      <nav className="photo-nav" aria-label="Photos">
        {previousHref ? <Link href={previousHref} rel="prev">← Previous</Link> : <span />}
        {nextHref ? <Link href={nextHref} rel="next">Next →</Link> : <span />}
      </nav>
      <header>
        <h1 data-testid="photo-title">{photo.title || "Untitled"}</h1>
        {photo.caption && <p>{photo.caption}</p>}
      </header>
      <dl className="exif" data-testid="exif-summary">
        {formatExposure(photo).map(([label, value]) => (
          <div key={label} style={{ display: "contents" }}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
        {photo.location && (
          <>
            <dt>Location</dt>
            <dd>
              {photo.location.latitude.toFixed(5)}, {photo.location.longitude.toFixed(5)}
            </dd>
          </>
        )}
      </dl>
      {photo.downloadUrl && (
        <p>
          <a href={photo.downloadUrl} download data-testid="photo-download">
            {photo.canEdit ? "Download original" : "Download"}
          </a>
        </p>
      )}
      {photo.canEdit && <PhotoEditor photo={photo} />}
    </article>
  );
}
