import { iso1A2Code } from "@rapideditor/country-coder";
import tzLookup from "@photostructure/tz-lookup";
import { around, distance } from "geokdbush";
import type { PlaceGazetteer } from "./place-gazetteer";

/** Where a photo was taken, in the words stored with it; every part may be unknown. */
export interface GeocodedPlace {
  /** ISO 3166-1 alpha-2 of the territory whose border holds the point ("PR", not "US", for Puerto Rico). */
  countryCode: string | null;
  region: string | null;
  city: string | null;
  /** IANA zone at the point ("Europe/Rome"); at sea the nautical zone ("Etc/GMT+3"). */
  timeZone: string | null;
}

/** How far to look for a place, and how many of the nearest to weigh. */
const SEARCH_RADIUS_KM = 150;
const CANDIDATES = 40;
/** A place named farther than this from the point (and beyond its own reach) would mislead. */
const CITY_NAMING_LIMIT_KM = 40;

/**
 * How far a place of this many people reaches, roughly: its area grows with its population, so its
 * radius with the square root (1,000 people: 1.4 km; 100,000: 5 km; 3 million: 23 km).
 */
export function placeReachKm(population: number): number {
  return 1 + Math.sqrt(population) / 80;
}

/** Whether these are coordinates of a point on Earth that a camera really recorded. */
export function isRealFix(latitude: number, longitude: number): boolean {
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return false;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return false;
  // 0,0 is what a camera without a fix writes ("Null Island", in the Gulf of Guinea).
  return !(latitude === 0 && longitude === 0);
}

/**
 * The place at a point, offline: the country by its border (point in polygon, so a town across a
 * border is never chosen), then among the populated places INSIDE that country the one whose reach
 * covers the point best (distance divided by reach: a suburb is named after its city, not after
 * the hamlet whose centre happens to be nearer), its region, and the time zone at the point.
 *
 * Null for coordinates that are no real fix (out of range, NaN, exactly 0,0).
 */
export function reverseGeocode(gazetteer: PlaceGazetteer, latitude: number, longitude: number): GeocodedPlace | null {
  if (!isRealFix(latitude, longitude)) return null;
  // 180° E is 180° W; the borders' polygons end at -180, so the point is asked there.
  const countryCode = iso1A2Code([longitude === 180 ? -180 : longitude, latitude], { level: "territory" });
  const timeZone = timeZoneAt(latitude, longitude);
  if (!countryCode) return { countryCode: null, region: null, city: null, timeZone };
  const country = gazetteer.countries.get(countryCode);
  const nearest = country ? around(country.index, longitude, latitude, CANDIDATES, SEARCH_RADIUS_KM) : [];
  let best: { position: number; km: number; score: number } | null = null;
  for (const id of nearest) {
    const position = country!.positions[id];
    const km = distance(longitude, latitude, gazetteer.longitudes[position], gazetteer.latitudes[position]);
    const score = km / placeReachKm(gazetteer.populations[position]);
    if (!best || score < best.score) best = { position, km, score };
  }
  if (!best) return { countryCode, region: null, city: null, timeZone };
  const region = gazetteer.regionNames.get(`${countryCode}.${gazetteer.regionCodes[best.position]}`) ?? null;
  const reach = placeReachKm(gazetteer.populations[best.position]);
  const city = best.km <= Math.max(CITY_NAMING_LIMIT_KM, 2 * reach) ? gazetteer.names[best.position] : null;
  return { countryCode, region, city, timeZone };
}

function timeZoneAt(latitude: number, longitude: number): string | null {
  try {
    return tzLookup(latitude, longitude);
  } catch {
    return null;
  }
}
