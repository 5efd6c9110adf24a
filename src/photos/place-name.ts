import { feature, iso1A2Code } from "@rapideditor/country-coder";
import type { PhotoRow } from "@/src/db/database";
import { countryNameOf } from "@/src/places/country-name";
import { type LocationPrecision, placePartsAtPrecision } from "./location-precision";

type PlaceFields = Pick<PhotoRow, "gps_latitude" | "gps_longitude" | "place_city" | "place_region" | "place_country_code" | "place_source">;

/**
 * A photo's place in words, for anyone the caller has decided may learn it: the stored one
 * ("Arezzo, Tuscany, Italy", a name said once: "San Juan, Puerto Rico"; set by hand or worked out
 * by processing), else, for a photo not yet named (processed before places were stored, or just
 * moved by hand while the worker names it), the country from its coordinates alone. Null without either.
 * At the precision the viewer gets (location-precision.ts): below city the town is not named, at
 * country the region neither.
 */
export function photoPlaceName(photo: PlaceFields, precision: LocationPrecision): string | null {
  if (photo.place_source !== null) {
    const country = photo.place_country_code === null ? null : countryNameOf(photo.place_country_code);
    const { city, region } = placePartsAtPrecision({ city: photo.place_city, region: photo.place_region }, precision);
    const parts = [...new Set([city, region, country].filter((part) => part !== null))];
    if (parts.length > 0) return parts.join(", ");
  }
  if (photo.gps_latitude === null || photo.gps_longitude === null) return null;
  return placeNameAt(photo.gps_latitude, photo.gps_longitude);
}

/**
 * Where a photo was taken, in words ("Italy", "Madeira, Portugal", "Puerto Rico"), worked out on
 * this server from the coordinates alone: no request leaves for a geocoding service, so no third
 * party learns where anyone's photos were taken. `@rapideditor/country-coder` (the iD map
 * editor's) ships the world's borders, territorial waters included, in the package.
 *
 * Null out at sea, off every border, and for coordinates that are not a place on Earth.
 */
export function placeNameAt(latitude: number, longitude: number): string | null {
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude) || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  // 0,0 is what a camera without a fix writes ("Null Island", in the Gulf of Guinea): never a real place.
  if (latitude === 0 && longitude === 0) return null;
  const point: [number, number] = [longitude, latitude];
  const territory = feature(point, { level: "territory" })?.properties;
  if (!territory) return null;
  // A place with its own ISO code goes by its own name: "Greenland", "Hong Kong", "France".
  if (territory.iso1A2) return territory.nameEn;
  const countryCode = iso1A2Code(point);
  const country = countryCode ? feature(countryCode)?.properties.nameEn : undefined;
  if (!country) return territory.nameEn;
  // "Kingdom of the Netherlands" around "Netherlands": the part is the name people use.
  if (country.includes(territory.nameEn)) return territory.nameEn;
  const shortCountry = SHORT_COUNTRY_NAMES[country] ?? country;
  // "Mainland Portugal", "Contiguous United States": the country itself, in everyday words.
  if (MAIN_PART.test(territory.nameEn)) return shortCountry;
  return `${territory.nameEn}, ${shortCountry}`;
}

const MAIN_PART = /^(Mainland|Contiguous|Peninsular|Metropolitan|European|Asian)\b/;

/** The official names the package uses where everyday speech uses a shorter one. */
const SHORT_COUNTRY_NAMES: Record<string, string> = {
  "United States of America": "United States",
  "People's Republic of China": "China",
  "Kingdom of Denmark": "Denmark",
  "Kingdom of the Netherlands": "Netherlands",
};
