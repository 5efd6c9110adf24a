import type { LocationPrecision } from "@/src/db/database";

/**
 * How precisely someone other than the owner learns where a photo was taken, once its location is
 * shown at all (show_location). The coordinates are rounded here, on the server, before they leave
 * in any answer, so no client can recover more than the owner chose:
 *
 * - exact: the stored coordinates (and altitude);
 * - city: rounded to 0.1° (about 11 km north-south): the town, not the street;
 * - region: rounded to 1° (about 110 km): the province or state;
 * - country: no coordinates at all, only the country's name.
 *
 * Rounding (not a random offset) on purpose: the same photo always lands on the same point, so
 * asking again and averaging learns nothing more, and photos of one town cluster together.
 */
export type { LocationPrecision };

const DEGREES_PER_STEP: Record<Exclude<LocationPrecision, "country">, number | null> = { exact: null, city: 0.1, region: 1 };

/** The photo's own choice, else the site's default. */
export function effectivePrecision(photoPrecision: LocationPrecision | null, siteDefault: LocationPrecision): LocationPrecision {
  return photoPrecision ?? siteDefault;
}

function roundTo(value: number, step: number): number {
  // Whole steps first, then back to degrees: 41.9 stays 41.9 rather than 41.900000000000006.
  const steps = Math.round(value / step);
  return Number((steps * step).toFixed(step < 1 ? 1 : 0));
}

/** The coordinates a viewer at this precision receives; null at country precision. */
export function coordinatesAtPrecision(latitude: number, longitude: number, precision: LocationPrecision): { latitude: number; longitude: number } | null {
  if (precision === "country") return null;
  const step = DEGREES_PER_STEP[precision];
  if (step === null) return { latitude, longitude };
  // Rounding longitude 179.96 gives 180, which is the same meridian as -180: both are valid.
  return { latitude: Math.max(-90, Math.min(90, roundTo(latitude, step))), longitude: Math.max(-180, Math.min(180, roundTo(longitude, step))) };
}

/** Which parts of a stored place name a viewer at this precision learns. */
export function placePartsAtPrecision<Place extends { city: string | null; region: string | null }>(place: Place, precision: LocationPrecision): Place {
  if (precision === "country") return { ...place, city: null, region: null };
  if (precision === "region") return { ...place, city: null };
  return place;
}
