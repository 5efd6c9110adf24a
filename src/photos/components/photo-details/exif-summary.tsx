import Link from "next/link";
import type { ReactNode } from "react";
import type { PhotoDetail } from "../../photos.service";
import { describeExposure, formatTakenAt } from "./photo-facts";

const UNKNOWN_DATE_TEXT = "Date unknown";

/**
 * The photo page's "Camera and exposure" card: camera, lens, the exposure settings and the date
 * taken, in photographers' words; nothing at all when there is none of it. The gallery's photo page
 * and a share link's (which passes null EXIF when the link hides it) both show it.
 *
 * `links` (the gallery's photo page only, never a share link's: its visitor is no gallery viewer):
 * where the camera, the lens and the date's year are browsed; each null where there is no page.
 *
 * `dateUnknown`: the photo has no date taken (none in its file, none set by hand), and the card
 * says so ("Date unknown") rather than saying nothing, which reads as if it were hidden, or giving
 * the upload date, which is not when it was taken. Not for a date the viewer is not shown.
 */
export function ExifSummary({
  exif,
  takenAt,
  dateUnknown = false,
  links,
}: {
  exif: PhotoDetail["exif"] | null;
  takenAt: string | null;
  dateUnknown?: boolean;
  links?: ExifLinks;
}) {
  const takenAtText = formatTakenAt(takenAt) ?? (dateUnknown && takenAt === null ? UNKNOWN_DATE_TEXT : null);
  const exposure = exif ? describeExposure(exif) : null;
  const hasExposure = exposure !== null && (exposure.camera !== null || exposure.lens !== null || exposure.settings.length > 0);
  if (!hasExposure && !takenAtText) return null;
  return (
    <section className="photo-exif" aria-label="Camera and exposure" data-testid="exif-summary">
      {exposure?.camera && (
        <p className="photo-exif-camera">
          <MaybeLink href={links?.camera} testId="exif-camera-link">
            {exposure.camera}
          </MaybeLink>
        </p>
      )}
      {exposure?.lens && (
        <p className="photo-exif-lens">
          <MaybeLink href={links?.lens} testId="exif-lens-link">
            {exposure.lens}
          </MaybeLink>
        </p>
      )}
      {exposure && exposure.settings.length > 0 && (
        <dl className="photo-exif-settings">
          {exposure.settings.map((setting) => (
            <div key={setting.label}>
              <dt className="visually-hidden">{setting.label}</dt>
              <dd>{setting.value}</dd>
            </div>
          ))}
        </dl>
      )}
      {takenAtText && (
        <p className="photo-exif-date" data-testid="exif-date">
          <MaybeLink href={links?.year} testId="exif-year-link">
            {takenAt ? <time dateTime={takenAt}>{takenAtText}</time> : takenAtText}
          </MaybeLink>
        </p>
      )}
    </section>
  );
}

/** Where the EXIF card's words lead: a browse page's path each, or null for none. */
export interface ExifLinks {
  camera: string | null;
  lens: string | null;
  year: string | null;
}

function MaybeLink({ href, testId, children }: { href: string | null | undefined; testId: string; children: ReactNode }) {
  if (!href) return children;
  return (
    <Link href={href} data-testid={testId}>
      {children}
    </Link>
  );
}
