import type { PhotoDetail } from "../../photos.service";
import { describeExposure, formatTakenAt } from "./photo-facts";

/**
 * The photo page's "Camera and exposure" card: camera, lens, the exposure settings and the date
 * taken, in photographers' words; nothing at all when there is none of it. The gallery's photo page
 * and a share link's (which passes null EXIF when the link hides it) both show it.
 */
export function ExifSummary({ exif, takenAt }: { exif: PhotoDetail["exif"] | null; takenAt: string | null }) {
  const takenAtText = formatTakenAt(takenAt);
  const exposure = exif ? describeExposure(exif) : null;
  const hasExposure = exposure !== null && (exposure.camera !== null || exposure.lens !== null || exposure.settings.length > 0);
  if (!hasExposure && !takenAtText) return null;
  return (
    <section className="photo-exif" aria-label="Camera and exposure" data-testid="exif-summary">
      {exposure?.camera && <p className="photo-exif-camera">{exposure.camera}</p>}
      {exposure?.lens && <p className="photo-exif-lens">{exposure.lens}</p>}
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
      {takenAtText && takenAt && (
        <p className="photo-exif-date">
          <time dateTime={takenAt}>{takenAtText}</time>
        </p>
      )}
    </section>
  );
}
