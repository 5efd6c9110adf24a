import type { Metadata } from "next";
import Link from "next/link";
import { findCurrentViewer } from "@/src/auth/current-user";
import { BrowseNav } from "@/src/browse/components/browse-nav";
import { PlacesIndex } from "@/src/browse/components/places-index";
import { listPlaces } from "@/src/browse/places.service";
import { getDb } from "@/src/db/client";
import { placeSearchHref } from "@/src/search/components/search-href";

export const metadata: Metadata = { title: "Places" };

// /places – every country, region and town with a photo this viewer may see and whose owner shows
// where it was taken (their own and, for admins, all), with how many.
export default async function PlacesPage() {
  const countries = await listPlaces(getDb(), await findCurrentViewer());
  const summary = countries.length === 0 ? "No photos with a place to show yet." : `${countries.length} ${countries.length === 1 ? "country" : "countries"}`;
  return (
    <section className="page browse-page places-page" aria-labelledby="browse-title">
      <BrowseNav current="/places" />
      <header className="browse-header">
        <h1 id="browse-title">Places</h1>
        <p className="muted" data-testid="places-summary">
          {summary}
        </p>
      </header>
      {countries.length > 0 && <PlacesIndex countries={countries} searchHrefOf={placeSearchHref} />}
      <p className="places-credit muted">
        Place names from GeoNames, worked out on this server. <Link href="/about">About and credits</Link>
      </p>
    </section>
  );
}
