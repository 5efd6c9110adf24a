import type { Metadata } from "next";
import "@/app/styles/map.css";
import { BrowseNav } from "@/src/browse/components/browse-nav";
import { COUNTRY_SHAPES_URL } from "@/src/map/country-shapes";
import { PhotoMap } from "@/src/map/components/photo-map";

export const metadata: Metadata = { title: "Map" };

// /map – where the photos this viewer may see were taken, as precisely as each owner lets them
// know (the markers come from /api/map/clusters, which asks the list rule and the metadata policy).
export default function MapPage() {
  return (
    <section className="page browse-page map-page" aria-labelledby="browse-title">
      <BrowseNav current="/map" />
      <header className="browse-header">
        <h1 id="browse-title">Map</h1>
      </header>
      <PhotoMap countriesUrl={COUNTRY_SHAPES_URL} />
    </section>
  );
}
