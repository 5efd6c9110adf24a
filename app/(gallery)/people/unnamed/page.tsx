import type { Metadata } from "next";
import Link from "next/link";
import { requirePageUser } from "@/src/auth/page-guard";
import { findCurrentViewer } from "@/src/auth/current-user";
import { getDb } from "@/src/db/client";
import { UnnamedFacesGrid } from "@/src/faces/components/unnamed-faces-grid";
import { listPeople } from "@/src/faces/people.service";
import { listUnnamedFacesForViewer, UNNAMED_FACES_SHOWN } from "@/src/faces/person-suggestions.service";

export const metadata: Metadata = { title: "Name faces", robots: { index: false } };

// /people/unnamed – the signed-in user's faces that nobody has named yet, to name many at once
// (their own faces only: people are their owner's).
export default async function UnnamedFacesPage() {
  await requirePageUser("viewer", "/people/unnamed");
  const viewer = await findCurrentViewer();
  const [faces, people] = await Promise.all([listUnnamedFacesForViewer(getDb(), viewer), listPeople(getDb(), viewer)]);
  const named = people.flatMap((person) => (person.isOwn && person.name ? [{ id: person.id, name: person.name }] : []));
  return (
    <section className="page people-page" aria-labelledby="unnamed-title">
      <header className="people-header">
        <p className="people-kicker">
          <Link href="/people">People</Link>
        </p>
        <h1 id="unnamed-title">Name faces</h1>
        <p className="muted">
          {faces.length === 0
            ? "Every face in your photos has a name."
            : `${faces.length === UNNAMED_FACES_SHOWN ? `The ${faces.length} newest` : faces.length} unnamed ${faces.length === 1 ? "face" : "faces"} in your photos. Choose those of one person and name them together.`}
        </p>
      </header>
      {faces.length > 0 && <UnnamedFacesGrid faces={faces} people={named} />}
    </section>
  );
}
