import "server-only";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";

/**
 * The map's only base layer: the countries' outlines from Natural Earth (public domain), shipped in
 * `world-atlas` as TopoJSON and turned into GeoJSON here once, served from our own origin (no
 * tiles, fonts or glyphs from elsewhere). Two scales:
 *
 * - 1:110 million, what every map opens with: 215 KB of GeoJSON, 74 KB gzipped;
 * - 1:50 million, asked only once the reader zooms in past a country's width (photo-map.tsx), where
 *   the coarse coastlines miss whole bays and islands: 1.9 MB, 650 KB gzipped, 410 KB with brotli.
 *   (1:10 million would be 10.2 MB, 3.0 MB gzipped: too much for a phone on the way to one town.)
 *
 * Coordinates are kept to 4 decimals (about 11 m, far finer than either scale), which halves the
 * text. The URL carries the data's version, so the answer is cached for good; a new world-atlas
 * release must change the versions.
 */
export const COUNTRY_SHAPES_VERSION = "110m-2.0.2";
export const DETAILED_COUNTRY_SHAPES_VERSION = "50m-2.0.2";
export const COUNTRY_SHAPES_URL = `/api/map/countries/${COUNTRY_SHAPES_VERSION}`;
export const DETAILED_COUNTRY_SHAPES_URL = `/api/map/countries/${DETAILED_COUNTRY_SHAPES_VERSION}`;

type CountriesTopology = Topology<{ countries: GeometryCollection }>;

/** Each scale's TopoJSON, imported only when first asked (the 1:50m file is 756 KB). */
const TOPOLOGIES: Record<string, () => Promise<CountriesTopology>> = {
  [COUNTRY_SHAPES_VERSION]: async () => (await import("world-atlas/countries-110m.json")).default as unknown as CountriesTopology,
  [DETAILED_COUNTRY_SHAPES_VERSION]: async () => (await import("world-atlas/countries-50m.json")).default as unknown as CountriesTopology,
};

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

const DECIMALS = 1e4;

function toGeoJsonText(topology: CountriesTopology): string {
  const countries = feature(topology, topology.objects.countries);
  return JSON.stringify(
    { ...countries, features: countries.features.map((country) => ({ ...country, geometry: continuousGeometry(country.geometry) })) },
    (_key, value: unknown) => (typeof value === "number" ? Math.round(value * DECIMALS) / DECIMALS : value),
  );
}

const converted = new Map<string, Promise<string>>();

/** The countries at this version's scale as GeoJSON text, converted on first use; null for a version this site does not have. */
export function countryShapesGeoJson(version: string): Promise<string> | null {
  const topology = Object.hasOwn(TOPOLOGIES, version) ? TOPOLOGIES[version] : undefined;
  if (topology === undefined) return null;
  let text = converted.get(version);
  if (text === undefined) {
    text = topology().then(toGeoJsonText);
    // A failed conversion is not remembered: the next request tries again.
    text.catch(() => converted.delete(version));
    converted.set(version, text);
  }
  return text;
}
