import Link from "next/link";
import type { PhotoFacesView } from "@/src/faces/people.service";
import { MAX_FACES_PER_PHOTO } from "../face-limits";

/**
 * Who is in the photo: for its owner every person, named first, then the unnamed; for a member
 * (when the site lets members see people) the named ones listPhotoFacesForViewer gives them. Each
 * a link to their page.
 */
export function PhotoPeople({ faces, isCapped }: PhotoFacesView) {
  const people = faces.filter((face) => face.personId);
  if (people.length === 0) return null;
  const named = people.filter((face) => face.personName).sort((a, b) => (a.personName ?? "").localeCompare(b.personName ?? ""));
  const unnamed = people.filter((face) => !face.personName);
  return (
    <nav className="photo-people" aria-label="People in this photo" data-testid="photo-people">
      <h2>People</h2>
      <ul>
        {named.map((face) => (
          <li key={face.id}>
            <Link href={`/people/${face.personId}`}>{face.personName}</Link>
          </li>
        ))}
        {unnamed.map((face, index) => (
          <li key={face.id}>
            <Link href={`/people/${face.personId}`}>{unnamed.length === 1 ? "Unnamed person" : `Unnamed person ${index + 1}`}</Link>
          </li>
        ))}
      </ul>
      {isCapped && <p className="muted">More faces were found; the {MAX_FACES_PER_PHOTO} clearest are kept.</p>}
    </nav>
  );
}
