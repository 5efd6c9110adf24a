import "server-only";
import type { Viewer } from "@/src/access/viewer";
import type { DatabaseHandle } from "@/src/db/client";
import { cacheUntilPhotosChange } from "@/src/photos/cache-until-photos-change";
import { photoListAccessOf } from "@/src/photos/listable-photos";
import { effectivePrecision, placePartsAtPrecision } from "@/src/photos/location-precision";
import { listedPlacesOf } from "@/src/photos/metadata-policy";
import { getSiteSettings } from "@/src/settings/site-settings.service";
import { countryNameOf } from "@/src/places/country-name";
import { countPlacePhotos, type PlaceCountRow, type PlaceCountScope } from "./places.repository";

// Browsing by place: countries, their regions, their cities, with how many photos each. Every
// count goes through the one list access (src/photos/listable-photos.ts) and the metadata policy's
// rule for places (listedPlacesOf): a photo whose owner hides its location counts for nobody but
// its owner and admins, so a place known only from hidden photos does not exist for anyone else.
// A shown photo counts at its precision: in its country always, in its region from region
// precision up, in its town only from city precision up (the rest is "elsewhere" in the country or
// region), so /places never names more than the photo's own page does.

export interface PlaceCity {
  /** Null: photos of the region whose town is not known. */
  name: string | null;
  count: number;
}

export interface PlaceRegion {
  /** Null: photos of the country whose region is not known. */
  name: string | null;
  count: number;
  cities: PlaceCity[];
}

export interface PlaceCountry {
  code: string;
  name: string;
  count: number;
  regions: PlaceRegion[];
}

// Counts read every photo with a place in a scope, so they are remembered as browse's are: one
// entry per kind of viewer for what they all share, one per signed-in user for their own on top.
const remembered = cacheUntilPhotosChange<PlaceCountRow[]>({ lifetimeMs: 5_000, maxEntries: 1_000 });

async function countsFor(db: DatabaseHandle, viewer: Viewer): Promise<PlaceCountRow[]> {
  const access = photoListAccessOf(viewer);
  const allPlaces = listedPlacesOf(viewer) === "all";
  const scope = (part: PlaceCountScope["part"]): PlaceCountScope => ({ part, access, allPlaces });
  const kind = `${[...access.visibilities].sort().join(",")}:${allPlaces ? "all" : "shown"}`;
  const [shared, own] = await Promise.all([
    remembered.get(db, `places:shared:${kind}`, () => countPlacePhotos(db, scope("shared"))),
    access.viewerId !== null ? remembered.get(db, `places:own:${kind}:${access.viewerId}:${access.ownPhotos}`, () => countPlacePhotos(db, scope("own"))) : Promise.resolve([]),
  ]);
  if (allPlaces) return [...shared, ...own];
  // Admins learn every place exactly; anyone else learns the shared part at each photo's precision
  // but their own photos' places (in either part) exactly.
  const { locationPrecision: siteDefault } = await getSiteSettings(db);
  const atPrecision = shared.map((row) =>
    row.ownerId === access.viewerId ? row : { ...row, ...placePartsAtPrecision(row, effectivePrecision(row.precision, siteDefault)) },
  );
  return [...atPrecision, ...own];
}

function byName(left: string | null, right: string | null): number {
  // The unknown ("elsewhere") last.
  if (left === null || right === null) return Number(left === null) - Number(right === null);
  return left.localeCompare(right, "en", { sensitivity: "base", numeric: true });
}

/** Every country with a photo whose place this viewer may learn, by name, with its regions and cities. */
export async function listPlaces(db: DatabaseHandle, viewer: Viewer): Promise<PlaceCountry[]> {
  const countries = new Map<string, PlaceCountry>();
  for (const row of await countsFor(db, viewer)) {
    const country = countries.get(row.countryCode) ?? { code: row.countryCode, name: countryNameOf(row.countryCode) ?? row.countryCode, count: 0, regions: [] };
    countries.set(row.countryCode, country);
    country.count += row.count;
    let region = country.regions.find((each) => each.name === row.region);
    if (!region) country.regions.push((region = { name: row.region, count: 0, cities: [] }));
    region.count += row.count;
    const city = region.cities.find((each) => each.name === row.city);
    if (city) city.count += row.count;
    else region.cities.push({ name: row.city, count: row.count });
  }
  for (const country of countries.values()) {
    country.regions.sort((left, right) => byName(left.name, right.name));
    for (const region of country.regions) region.cities.sort((left, right) => byName(left.name, right.name));
  }
  return [...countries.values()].sort((left, right) => byName(left.name, right.name));
}
