import type { Metadata } from "next";
import "@/app/styles/map.css";
import { findCurrentViewer } from "@/src/auth/current-user";
import { BrowseNav } from "@/src/browse/components/browse-nav";
import { getDb } from "@/src/db/client";
import { COUNTRY_SHAPES_URL, DETAILED_COUNTRY_SHAPES_URL } from "@/src/map/country-shapes";
import { PhotoMap } from "@/src/map/components/photo-map";
import { getMapBounds } from "@/src/map/map-clusters.service";

export const metadata: Metadata = { title: "Map" };

// /map – where the photos this viewer may see were taken, as precisely as each owner lets them
// know (the markers come from /api/map/clusters, which asks the list rule and the metadata policy).
// It opens fitted to the box around those photos, so a phone shows them rather than the Atlantic.
export default async function MapPage() {
  const bounds = await getMapBounds(getDb(), await findCurrentViewer());
  return (
    <section className="page browse-page map-page" aria-labelledby="browse-title">
      <BrowseNav current="/map" />
      <header className="browse-header">
        <h1 id="browse-title">Map</h1>
      </header>
      <PhotoMap countriesUrl={COUNTRY_SHAPES_URL} detailedCountriesUrl={DETAILED_COUNTRY_SHAPES_URL} initialBounds={bounds} />
    </section>
  );
}
