import { countryNameOf } from "@/src/places/country-name";
import { foldSearchText } from "./fold-search-text";
import type { PlaceNames } from "./search-query-builder";

// `place:` (issue 31) against the stored places: which stored towns, regions and countries a value
// names, and which names to suggest for what is being typed. Names are compared here, folded by the
// one function search uses everywhere (accents, case, runs of white space), never in SQL: SQLite has
// no accent folding of its own, and doing it once in TypeScript gives both databases the same answers.
// The query then compares the stored values exactly (`=`), so `%` and `_` are plain characters.

/** One stored place (a town of a region of a country; any part may be unknown). */
export interface StoredPlace {
  city: string | null;
  region: string | null;
  country_code: string | null;
}

/** A name as place: compares it: folded, white space closed up. */
export function foldPlaceName(name: string): string {
  return foldSearchText(name).replace(/\s+/gu, " ").trim();
}

/**
 * The stored towns, regions and countries `value` names: its whole name folded alike ("zurich" is
 * Zürich, "new york" New York), or a country's ISO code in any case ("it" is Italy).
 */
export function resolvePlaceNames(value: string, places: Iterable<StoredPlace>): PlaceNames {
  const wanted = foldPlaceName(value);
  const code = /^[a-z]{2}$/iu.test(value.trim()) ? value.trim().toUpperCase() : null;
  const cities = new Set<string>();
  const regions = new Set<string>();
  const countryCodes = new Set<string>();
  if (wanted === "") return { cities: [], regions: [], countryCodes: [] };
  for (const place of places) {
    if (place.city !== null && foldPlaceName(place.city) === wanted) cities.add(place.city);
    if (place.region !== null && foldPlaceName(place.region) === wanted) regions.add(place.region);
    if (place.country_code !== null && !countryCodes.has(place.country_code)) {
      const name = countryNameOf(place.country_code);
      if (place.country_code === code || (name !== null && foldPlaceName(name) === wanted)) countryCodes.add(place.country_code);
    }
  }
  return { cities: [...cities].sort(), regions: [...regions].sort(), countryCodes: [...countryCodes].sort() };
}

/**
 * Names of the given places (towns, regions, countries) whose folded name starts with the folded
 * prefix, each once, in alphabetical order, at most `limit`. The caller hands in only places the
 * viewer may learn.
 */
export function placeNamesStartingWith(prefix: string, places: Iterable<StoredPlace>, limit: number): string[] {
  const wanted = foldPlaceName(prefix);
  if (wanted === "") return [];
  const found = new Map<string, string>();
  const consider = (name: string | null) => {
    if (name === null) return;
    const folded = foldPlaceName(name);
    // One entry per folded name ("Zürich" the town, "Zurich" the canton): the smaller spelling,
    // whatever order the places come in, so both databases suggest the same.
    const seen = found.get(folded);
    if (folded.startsWith(wanted) && (seen === undefined || name < seen)) found.set(folded, name);
  };
  for (const place of places) {
    consider(place.city);
    consider(place.region);
    if (place.country_code !== null) consider(countryNameOf(place.country_code));
  }
  return [...found.entries()]
    .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
    .slice(0, limit)
    .map(([, name]) => name);
}
