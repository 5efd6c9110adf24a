import type { PhotoViewerInfo } from "../../photos.service";
import { ExifSummary } from "../photo-details/exif-summary";
import { describeExposure, formatTakenAt } from "../photo-details/photo-facts";
import { PhotoPlace } from "../photo-details/photo-place";

/** The panel's content for the photo shown: asked for, answered, or refused (gone, or not theirs to see). */
export type ViewerInfoState = { kind: "loading" } | { kind: "failed" } | { kind: "ready"; info: PhotoViewerInfo };

/**
 * The viewer's info panel: the photo page's place line and "Camera and exposure" card, the same
 * components fed from the same detail (under the metadata policy), without the browse links (the
 * viewer covers the page; its links would lead away under it).
 */
export function ViewerInfoPanel({ state, headingId }: { state: ViewerInfoState; headingId: string }) {
  return (
    <>
      <h2 id={headingId} className="viewer-info-title">
        Details
      </h2>
      {state.kind === "loading" && <p className="viewer-info-note">Loading the details…</p>}
      {state.kind === "failed" && <p className="viewer-info-note">The details could not be loaded.</p>}
      {state.kind === "ready" && <ViewerInfo info={state.info} />}
    </>
  );
}

function ViewerInfo({ info }: { info: PhotoViewerInfo }) {
  const exposure = describeExposure(info.exif);
  const hasCard = formatTakenAt(info.takenAt) !== null || exposure.camera !== null || exposure.lens !== null || exposure.settings.length > 0;
  if (!hasCard && !info.location) return <p className="viewer-info-note">No camera details or place for this photo.</p>;
  return (
    <>
      <PhotoPlace location={info.location} placeName={info.placeName} />
      <ExifSummary exif={info.exif} takenAt={info.takenAt} />
    </>
  );
}
