import "server-only";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import countries110m from "world-atlas/countries-110m.json";

/**
 * The map's only base layer: the countries' outlines from Natural Earth (public domain) at
 * 1:110 million, shipped in `world-atlas` as TopoJSON and turned into GeoJSON here once, served from
 * our own origin (no tiles, fonts or glyphs from elsewhere). The URL carries the data's version, so
 * the answer is cached for good; a new world-atlas release must change COUNTRY_SHAPES_VERSION.
 */
export const COUNTRY_SHAPES_VERSION = "110m-2.0.2";
export const COUNTRY_SHAPES_URL = `/api/map/countries/${COUNTRY_SHAPES_VERSION}`;

let converted: string | undefined;

/** The countries as GeoJSON text (about 800 KB, 200 KB compressed), converted on first use. */
export function countryShapesGeoJson(): string {
  if (converted === undefined) {
    const topology = countries110m as unknown as Topology<{ countries: GeometryCollection }>;
    converted = JSON.stringify(feature(topology, topology.objects.countries));
  }
  return converted;
}
