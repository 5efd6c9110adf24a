import type { Metadata } from "next";
import Link from "next/link";
import { requirePageUser } from "@/src/auth/page-guard";
import { findCurrentViewer } from "@/src/auth/current-user";
import { getDb } from "@/src/db/client";
import { FaceConsentPanel } from "@/src/faces/components/face-consent-panel";
import { FaceCrop } from "@/src/faces/components/face-crop";
import { getFaceConsent } from "@/src/faces/face-consent.service";
import { listPeople } from "@/src/faces/people.service";

export const metadata: Metadata = { title: "People", robots: { index: false } };

interface PeoplePageProps {
  searchParams: Promise<{ hidden?: string }>;
}

// /people – the people the signed-in user may see (people-access.ts): their own, faces found in
// their photos and grouped; with "members see people" on, also others' named people in the photos
// they may list. While people is on, each user is asked once here whether their photos may be
// looked at (face-consent.service.ts), and may change their answer here later.
export default async function PeoplePage({ searchParams }: PeoplePageProps) {
  await requirePageUser("viewer", "/people");
  const showHidden = (await searchParams).hidden === "only";
  const viewer = await findCurrentViewer();
  const [people, hiddenPeople, consent] = await Promise.all([
    listPeople(getDb(), viewer, showHidden ? { hidden: "only" } : {}),
    showHidden ? Promise.resolve([]) : listPeople(getDb(), viewer, { hidden: "only" }),
    getFaceConsent(getDb(), viewer),
  ]);
  const named = people.filter((person) => person.name).length;
  const othersShown = people.some((person) => !person.isOwn);
  return (
    <section className="page people-page" aria-labelledby="people-title">
      <header className="people-header">
        {showHidden && (
          <p className="people-kicker">
            <Link href="/people">People</Link>
          </p>
        )}
        <h1 id="people-title">{showHidden ? "Hidden people" : "People"}</h1>
        <p className="muted">
          {people.length === 0
            ? showHidden
              ? "Nobody is hidden."
              : !consent.enabled
                ? "Finding faces is turned off for this site. An admin can turn it on in Settings."
                : consent.answer === "agreed"
                  ? "No faces found in your photos yet. Faces are looked for after each photo is ready."
                  : "Your photos are not looked at for faces unless you agree."
            : othersShown
              ? `${people.length} ${people.length === 1 ? "person" : "people"} in the photos you can see, ${named} named. Others see only the people their owners named.`
              : `${people.length} ${people.length === 1 ? "person" : "people"} in your photos, ${named} named. Only you see them.`}
        </p>
      </header>
      {consent.enabled && !showHidden && consent.answer === null && <FaceConsentPanel text={consent.text} textVersion={consent.textVersion} answer={null} textChanged={consent.textChanged} />}
      {people.length > 0 && (
        <ul className="people-grid" data-testid="people-list">
          {people.map((person) => (
            <li key={person.id}>
              <Link className="person-card" href={`/people/${person.id}`}>
                <FaceCrop cover={person.cover} size="small" />
                <span className={person.name ? "person-card-name" : "person-card-name is-unnamed"}>{person.name ?? "Unnamed"}</span>
                <span className="person-card-count">
                  {person.photoCount} {person.photoCount === 1 ? "photo" : "photos"}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {!showHidden && people.some((person) => person.isOwn && person.name === null) && (
        <p className="people-unnamed-link">
          <Link href="/people/unnamed" className="button secondary">
            Name faces
          </Link>
        </p>
      )}
      {hiddenPeople.length > 0 && (
        <p className="people-hidden-link">
          <Link href="/people?hidden=only">
            {hiddenPeople.length} hidden {hiddenPeople.length === 1 ? "person" : "people"}
          </Link>
        </p>
      )}
      {consent.enabled && !showHidden && consent.answer !== null && <FaceConsentPanel text={consent.text} textVersion={consent.textVersion} answer={consent.answer} />}
    </section>
  );
}
