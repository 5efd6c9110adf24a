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

type Position = number[];

/**
 * A ring that crosses the date line (Russia's far east, Fiji) comes from TopoJSON jumping between
 * +180 and -180, which a map draws as a band across the whole world. Each jump is undone by
 * carrying the longitude on past ±180 (maplibre draws that on the next copy of the world). A ring
 * that goes right round the globe (Antarctica) is left as it is: it has no side to carry on to.
 */
function continuousRing(ring: Position[]): Position[] {
  const carried: Position[] = [];
  for (const [longitude, latitude] of ring) {
    let next = longitude;
    const previous = carried.at(-1)?.[0];
    if (previous !== undefined) {
      while (next - previous > 180) next -= 360;
      while (next - previous < -180) next += 360;
    }
    carried.push([next, latitude]);
  }
  const longitudes = carried.map(([longitude]) => longitude);
  return Math.max(...longitudes) - Math.min(...longitudes) >= 359 ? ring : carried;
}

function continuousGeometry(geometry: GeoJSON.Geometry | null): GeoJSON.Geometry | null {
  if (geometry?.type === "Polygon") return { ...geometry, coordinates: geometry.coordinates.map(continuousRing) };
  if (geometry?.type === "MultiPolygon") return { ...geometry, coordinates: geometry.coordinates.map((polygon) => polygon.map(continuousRing)) };
  return geometry;
}

let converted: string | undefined;

/** The countries as GeoJSON text (about 800 KB, 200 KB compressed), converted on first use. */
export function countryShapesGeoJson(): string {
  if (converted === undefined) {
    const topology = countries110m as unknown as Topology<{ countries: GeometryCollection }>;
    const countries = feature(topology, topology.objects.countries);
    converted = JSON.stringify({
      ...countries,
      features: countries.features.map((country) => ({ ...country, geometry: continuousGeometry(country.geometry) })),
    });
  }
  return converted;
}
