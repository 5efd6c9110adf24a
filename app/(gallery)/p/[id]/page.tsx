import { cache, type CSSProperties } from "react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { type AlbumContext, findAlbumContext } from "@/src/albums/album-pages";
import { listAlbumsHoldingPhoto } from "@/src/albums/albums.service";
import { findCurrentViewer } from "@/src/auth/current-user";
import { browsePath, UNKNOWN_YEAR_KEY, yearOfDate } from "@/src/browse/browse-paths";
import { getDb } from "@/src/db/client";
import { AppError } from "@/src/errors/app-error";
import { FaceBoxEditor } from "@/src/faces/components/face-box-editor";
import { PhotoPeople } from "@/src/faces/components/photo-people";
import { listPeople, listPhotoFacesForViewer } from "@/src/faces/people.service";
import { ArrowKeyNavigation } from "@/src/photos/components/arrow-key-navigation";
import { CopyLinkButton } from "@/src/photos/components/photo-details/copy-link-button";
import { DeletePhotoButton } from "@/src/photos/components/photo-details/delete-photo-button";
import { PhotoNavLink } from "@/src/photos/components/photo-details/photo-nav-link";
import { type ExifLinks, ExifSummary } from "@/src/photos/components/photo-details/exif-summary";
import { PhotoStagePicture } from "@/src/photos/components/photo-details/photo-stage-picture";
import { PhotoPlace } from "@/src/photos/components/photo-details/photo-place";
import { PhotoEditor } from "@/src/photos/components/photo-editor";
import { PhotoViewerStage } from "@/src/photos/components/viewer/photo-viewer-stage";
import { toViewerSlide } from "@/src/photos/components/viewer/viewer-slide";
import { photoAccessibleName } from "@/src/photos/photo-accessible-name";
import { getPhotoPageForViewer, type PhotoPage } from "@/src/photos/photos.service";
import { publishPageMetadata } from "@/src/publish/page-metadata";
import { placeSearchHref } from "@/src/search/components/search-href";
import { PhotoTagsField } from "@/src/tags/components/photo-tags-field";
import { listTagsForPhoto } from "@/src/tags/tags.service";
import { loadAlbumViewerNeighbours, loadViewerNeighbours } from "./viewer-neighbours.action";
import { loadAlbumViewerPosition, loadViewerPhotoInfo, loadViewerPosition } from "./viewer-details.action";
import { identifierFromSegment } from "@/src/http/route-segment";
import { parseIdentifierSegment } from "@/src/validation/input-text";

interface PhotoPageProps {
  params: Promise<{ id: string }>;
  /** `album`: the slug of the album the reader came from; previous and next then follow its order. */
  searchParams: Promise<{ album?: string | string[] }>;
}

// Memoised per request: generateMetadata and the page both need the photo, and read it once.
const findPhotoPage = cache(async (id: string): Promise<PhotoPage> => {
  try {
    return await getPhotoPageForViewer(getDb(), await findCurrentViewer(), identifierFromSegment(id) ?? notFound());
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
});

/**
 * Where the photo sits in the album named by `?album=`, for this request's viewer only (memoised per
 * request, keyed by album and photo, never shared between requests): null when no album is named,
 * or it is not one this viewer may see, or the photo is not among its photos they may see.
 */
const findPhotoAlbumContext = cache(async (albumSlug: string | null, photoId: string): Promise<AlbumContext | null> => {
  if (!albumSlug) return null;
  return findAlbumContext(getDb(), await findCurrentViewer(), albumSlug, photoId);
});

function albumSlugOf(album: string | string[] | undefined): string | null {
  const slug = Array.isArray(album) ? album[0] : album;
  // A value that cannot be a slug names no album: the gallery's order, as for an album not seen.
  return slug ? parseIdentifierSegment(slug) : null;
}

/**
 * Where the EXIF card's camera, lens and year lead. None for an unlisted photo the viewer does not
 * own: it is in no list they may see, so its camera's page may well have nothing of theirs (a 404).
 */
function browseLinksOf(photo: PhotoPage["photo"]): ExifLinks | undefined {
  if (photo.visibility === "unlisted" && !photo.canEdit) return undefined;
  const year = yearOfDate(photo.takenAt);
  return {
    camera: photo.cameraSlug ? browsePath("camera", photo.cameraSlug) : null,
    lens: photo.lensSlug ? browsePath("lens", photo.lensSlug) : null,
    // No date taken: /years lists it under "Date unknown", so the card leads there.
    year: year !== null ? browsePath("year", String(year)) : photo.takenAt === null ? browsePath("year", UNKNOWN_YEAR_KEY) : null,
  };
}

export async function generateMetadata({ params }: PhotoPageProps): Promise<Metadata> {
  const { photo } = await findPhotoPage((await params).id);
  const isPublic = photo.visibility === "public";
  // Open Graph, Twitter and oEmbed tags only for a public photo (publishPageMetadata decides, whoever asks).
  return publishPageMetadata(
    {
      title: photo.title || photoAccessibleName(photo),
      // Never empty: search engines show it (a photo without words gets its date and place).
      description: photo.caption || photoAccessibleName(photo),
      robots: isPublic ? undefined : { index: false },
    },
    { kind: "photo", id: photo.id },
  );
}

/**
 * The photo's box on the stage, worked out in CSS from its own proportions: as wide as the stage,
 * as tall as the viewport below the header, never larger than its largest size. The box always has
 * the photo's exact shape, so the placeholder painted in it is exactly the photo's box (no bars
 * beside a portrait photo), before and after it loads.
 */
function stageBox(ratio: number, largestWidth: number): CSSProperties {
  return { "--photo-ratio": ratio.toFixed(5), "--photo-max-width": `${largestWidth}px` } as CSSProperties;
}

/** The face editor's image: a JPEG about 1024 px wide (sharp enough to draw on, light to load), else the widest. */
function faceEditorImageOf(variants: Array<{ url: string; width: number; format: string }>): string | null {
  const jpegs = variants.filter((variant) => variant.format === "jpeg").sort((a, b) => a.width - b.width);
  return (jpegs.find((variant) => variant.width >= 1000) ?? jpegs.at(-1))?.url ?? null;
}

// /p/[id] – one photo, as large as the screen allows, then its words, its camera and its actions.
// Clicking the photo opens the full-screen viewer; arrow keys move to the previous and next photo.
export default async function PhotoPage({ params, searchParams }: PhotoPageProps) {
  const { id } = await params;
  const { photo, newerId, olderId } = await findPhotoPage(id);
  const viewer = await findCurrentViewer();
  const [albumContext, holdingAlbums, tags, faces] = await Promise.all([
    findPhotoAlbumContext(albumSlugOf((await searchParams).album), photo.id),
    listAlbumsHoldingPhoto(getDb(), viewer, photo.id),
    listTagsForPhoto(getDb(), viewer, photo.id),
    listPhotoFacesForViewer(getDb(), viewer, photo.id),
  ]);
  // The owner draws faces by hand and gives them to one of their named people (or a new one).
  const namedPeople = faces.mayAddFaces
    ? (await listPeople(getDb(), viewer)).flatMap((person) => (person.isOwn && person.name ? [{ id: person.id, name: person.name }] : []))
    : [];
  const faceImage = faces.mayAddFaces ? faceEditorImageOf(photo.variants) : null;
  // Came from an album this viewer may see: previous and next walk the album's order, and keep
  // saying so in their links. Otherwise (none named, or one they may not see): the gallery's order.
  const albumQuery = albumContext ? `?album=${encodeURIComponent(albumContext.slug)}` : "";
  const previousId = albumContext ? albumContext.previousId : newerId;
  const nextId = albumContext ? albumContext.nextId : olderId;
  const previousHref = previousId ? `/p/${previousId}${albumQuery}` : null;
  const nextHref = nextId ? `/p/${nextId}${albumQuery}` : null;
  const jpeg = photo.variants.filter((variant) => variant.format === "jpeg");
  const largest = jpeg.at(-1);
  const slide = photo.status === "ready" ? toViewerSlide(photo) : null;
  const name = photoAccessibleName(photo);
  const ratio = photo.width && photo.height ? photo.width / photo.height : 3 / 2;

  const picture = <PhotoStagePicture photo={photo} name={name} ratio={ratio} />;

  return (
    <article className="photo-page">
      <ArrowKeyNavigation previousHref={previousHref} nextHref={nextHref} />
      <div className="photo-stage" style={stageBox(ratio, largest?.width ?? photo.width ?? 2048)}>
        {!largest ? (
          <p className="photo-stage-notice">{photo.status === "failed" ? "This photo could not be processed." : "This photo is still being processed."}</p>
        ) : slide ? (
          <PhotoViewerStage
            slide={slide}
            loadNeighbours={albumContext ? loadAlbumViewerNeighbours.bind(null, albumContext.slug) : loadViewerNeighbours}
            loadPosition={albumContext ? loadAlbumViewerPosition.bind(null, albumContext.slug) : loadViewerPosition}
            loadInfo={loadViewerPhotoInfo}
            pageQuery={albumQuery}
          >
            {picture}
          </PhotoViewerStage>
        ) : (
          picture
        )}
      </div>

      <div className="photo-info">
        <div className="photo-toolbar">
          <nav className="photo-nav" aria-label={albumContext ? `Photos in ${albumContext.title}` : "Photos"}>
            <PhotoNavLink href={previousHref} direction="previous" />
            <PhotoNavLink href={nextHref} direction="next" />
            {albumContext && (
              <Link className="photo-nav-album" href={`/albums/${encodeURIComponent(albumContext.slug)}`} data-testid="photo-album-context">
                <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                  <rect x="3.5" y="3.5" width="7" height="7" rx="1" />
                  <rect x="13.5" y="3.5" width="7" height="7" rx="1" />
                  <rect x="3.5" y="13.5" width="7" height="7" rx="1" />
                  <rect x="13.5" y="13.5" width="7" height="7" rx="1" />
                </svg>
                <span className="visually-hidden">Back to the album </span>
                <span className="photo-nav-album-title">{albumContext.title}</span>
              </Link>
            )}
          </nav>
          <div className="photo-actions">
            <CopyLinkButton path={`/p/${photo.id}`} />
            {photo.downloadUrl && (
              <a className="button secondary photo-action" href={photo.downloadUrl} download data-testid="photo-download">
                <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                  <path d="M12 4v11M7 10l5 5 5-5M5 20h14" />
                </svg>
                <span>{photo.canEdit ? "Download original" : "Download"}</span>
              </a>
            )}
            {photo.rawDownloadUrl && (
              <a className="button secondary photo-action" href={photo.rawDownloadUrl} download data-testid="photo-download-raw">
                <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                  <path d="M12 4v11M7 10l5 5 5-5M5 20h14" />
                </svg>
                <span>Download RAW</span>
                {/* On a phone the actions are icons: this one says which file it is. */}
                <b className="photo-action-badge" aria-hidden="true">
                  RAW
                </b>
              </a>
            )}
            {photo.canEdit && <DeletePhotoButton photoId={photo.id} name={photo.title || name} />}
          </div>
        </div>

        <div className="photo-columns">
          <header className="photo-heading">
            <h1 data-testid="photo-title" className={photo.title ? undefined : "photo-title-untitled"}>
              {/* Untitled: what the photo is named by otherwise (alt text, or when and where), set quieter. */}
              {photo.title || name}
            </h1>
            <PhotoPlace location={photo.location} placeName={photo.placeName} searchHref={placeSearchTarget(photo.place)} />
            {photo.caption && <p className="photo-caption">{photo.caption}</p>}
            {tags.length > 0 && (
              <ul className="photo-tags" aria-label="Tags" data-testid="photo-tags">
                {tags.map((tag) => (
                  <li key={tag.id}>
                    <Link className="tag-link" href={tag.path}>
                      {tag.name}
                    </Link>
                  </li>
                ))}
              </ul>
            )}
            {holdingAlbums.length > 0 && (
              <nav className="photo-albums" aria-label="Albums with this photo" data-testid="photo-albums">
                <h2 className="photo-albums-title">In {holdingAlbums.length === 1 ? "album" : "albums"}</h2>
                <ul>
                  {holdingAlbums.map((album) => (
                    <li key={album.slug}>
                      <Link href={`/albums/${encodeURIComponent(album.slug)}`}>{album.title}</Link>
                    </li>
                  ))}
                </ul>
              </nav>
            )}
            <PhotoPeople {...faces} />
            {faces.mayAddFaces && faceImage && photo.width && photo.height && (
              <FaceBoxEditor photoId={photo.id} imageUrl={faceImage} aspectRatio={photo.width / photo.height} faces={faces.faces} people={namedPeople} />
            )}
          </header>

          {/* "Date unknown" once processing has read the file and found no date (until then nobody knows). */}
          <ExifSummary exif={photo.exif} takenAt={photo.takenAt} dateUnknown={photo.status === "ready"} links={browseLinksOf(photo)} />
        </div>

        {photo.canEdit && (
          <section id="details" className="photo-owner" aria-labelledby="photo-owner-title">
            <h2 id="photo-owner-title">Details</h2>
            <PhotoEditor photo={photo} tagsField={<PhotoTagsField photoId={photo.id} savedTags={tags.map((tag) => tag.name)} />} />
          </section>
        )}
      </div>
    </article>
  );
}

/** The search for photos of this one's place: its town, else its region, else its country (only a place the viewer was shown). */
function placeSearchTarget(place: PhotoPage["photo"]["place"]): string | null {
  const name = place?.city ?? place?.region ?? place?.country ?? null;
  return name === null ? null : placeSearchHref(name);
}
