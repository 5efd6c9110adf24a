import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePageUser } from "@/src/auth/page-guard";
import { findCurrentViewer } from "@/src/auth/current-user";
import { getDb } from "@/src/db/client";
import { AppError } from "@/src/errors/app-error";
import { FaceCrop } from "@/src/faces/components/face-crop";
import { PersonEditor } from "@/src/faces/components/person-editor";
import { PersonSuggestions } from "@/src/faces/components/person-suggestions";
import { getPerson, getPersonPage, listPeople } from "@/src/faces/people.service";
import { suggestPeopleForPerson } from "@/src/faces/person-suggestions.service";
import { identifierFromSegment } from "@/src/http/route-segment";
import { PhotoGrid } from "@/src/photos/components/photo-grid";
import { toGalleryTiles } from "@/src/photos/gallery-tile";

export const metadata: Metadata = { title: "Person", robots: { index: false } };

interface PersonPageProps {
  params: Promise<{ id: string }>;
}

// /people/[id] – a person the signed-in user may see (people-access.ts): their own, to name, hide or
// merge, or (members see people) another owner's named person, to look at; and their photos (those
// the one photo access rule lets this viewer list). Anybody else's person is a 404.
export default async function PersonPage({ params }: PersonPageProps) {
  const id = identifierFromSegment((await params).id) ?? notFound();
  await requirePageUser("viewer", `/people/${id}`);
  const viewer = await findCurrentViewer();
  const page = await getPersonPage(getDb(), viewer, id).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    throw error;
  });
  const { person, photos } = page;
  // "Is this X?" only for the owner's unnamed people.
  const suggestions = person.isOwn && person.name === null ? await suggestPeopleForPerson(getDb(), viewer, id) : [];
  // The first suggestion's face beside the question: "is this X?" is answered by comparing two faces.
  const suggested = suggestions.length > 0 ? await getPerson(getDb(), viewer, suggestions[0].personId) : null;
  const others = (person.isOwn ? await listPeople(getDb(), viewer, { hidden: "include" }) : [])
    .filter((other) => other.id !== id && other.isOwn)
    .map((other) => ({ id: other.id, label: `${other.name ?? "Unnamed"} (${other.photoCount} ${other.photoCount === 1 ? "photo" : "photos"})` }));
  return (
    <section className="page person-page gallery" aria-labelledby="person-title">
      <header className="person-header">
        <FaceCrop cover={person.cover} size="large" />
        <div className="person-header-text">
          <p className="people-kicker">
            <Link href="/people">People</Link>
          </p>
          <h1 id="person-title" className={person.name ? undefined : "is-unnamed"}>
            {person.name ?? "Unnamed person"}
          </h1>
          <p className="muted">
            {person.photoCount} {person.photoCount === 1 ? "photo" : "photos"}
            {person.isHidden ? " · hidden from People" : ""}
            {person.isOwn ? "" : " you may see · named by the photos' owner"}
          </p>
        </div>
      </header>
      {suggestions.length > 0 && <PersonSuggestions key={suggestions[0].personId} personId={person.id} suggestions={suggestions} suggestedCover={suggested?.cover ?? null} />}
      {person.isOwn && <PersonEditor key={`${person.name}-${person.isHidden}`} personId={person.id} name={person.name} isHidden={person.isHidden} others={others} />}
      {photos.length > 0 ? <PhotoGrid tiles={toGalleryTiles(photos, viewer)} /> : <p className="muted">None of their photos is here any more.</p>}
    </section>
  );
}
