import type { PhotoViewerInfo, ViewerPerson } from "../../photos.service";
import { ExifSummary } from "../photo-details/exif-summary";
import { describeExposure, formatTakenAt } from "../photo-details/photo-facts";
import { PhotoPlace } from "../photo-details/photo-place";

/** The panel's content for the photo shown: asked for, answered, or refused (gone, or not theirs to see). */
export type ViewerInfoState = { kind: "loading" } | { kind: "failed" } | { kind: "ready"; info: PhotoViewerInfo };

/**
 * The viewer's info panel: the people in the photo where the viewer may see them (the gallery only),
 * the photo page's place line and "Camera and exposure" card, the same components fed from the same
 * detail (under the metadata policy), without the browse links (the viewer covers the page; its
 * links would lead away under it).
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
  const people = info.people ?? [];
  return (
    <>
      {people.length > 0 && <ViewerPeople people={people} />}
      {!hasCard && !info.location ? (
        <p className="viewer-info-note">No camera details or place for this photo.</p>
      ) : (
        <>
          <PhotoPlace location={info.location} placeName={info.placeName} />
          <ExifSummary exif={info.exif} takenAt={info.takenAt} />
        </>
      )}
    </>
  );
}

/**
 * Who is in the photo, each a link to their page. Only the gallery's viewer gets people (never a
 * share link); the link leaves the viewer for the person's page, as the photo page's list does.
 */
function ViewerPeople({ people }: { people: ViewerPerson[] }) {
  const unnamed = people.filter((person) => person.name === null);
  return (
    <nav className="viewer-people" aria-label="People in this photo" data-testid="viewer-people">
      <h3 className="viewer-people-title">People</h3>
      <ul>
        {people.map((person) => (
          <li key={person.id}>
            <a href={`/people/${encodeURIComponent(person.id)}`}>{person.name ?? (unnamed.length === 1 ? "Unnamed person" : `Unnamed person ${unnamed.indexOf(person) + 1}`)}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
