import { sql } from "kysely";
import type { DatabaseHandle } from "@/src/db/client";
import type { LocationPrecision } from "@/src/db/database";
import { type PhotoListAccess, whereListablePart, whereListablePhotos } from "@/src/photos/listable-photos";

// SQL for browsing by place (/places), one statement per function, the handle first. No rules:
// which photos a viewer may list, and whose places they may learn, is the scope handed in, decided
// by src/browse/places.service.ts with the metadata policy (src/photos/metadata-policy.ts).

/**
 * Whose places a count covers, in two parts that never overlap:
 * - `shared`: what everyone of a kind lists (whereListablePart "shared"), with the place shown to
 *   them: the owner shows the location (show_location = 1), or every place for admins (`allPlaces`);
 * - `own`: the viewer's own photos they list (any visibility) beyond what the shared part counted.
 */
export type PlaceCountScope = { part: "shared" | "own"; access: PhotoListAccess; allPlaces: boolean };

/** One place of a count: a city of a region of a country (region and city may be unknown). */
export interface PlaceCountRow {
  countryCode: string;
  region: string | null;
  city: string | null;
  /** The photos' own location precision (null: the site's); the service names no more than it allows. */
  precision: LocationPrecision | null;
  /** Whose photos: their owner learns their own exactly, in the shared part too. */
  ownerId: string;
  count: number;
}

/**
 * How many photos of the scope each place has (read once per scope and remembered by the service:
 * this reads every photo of the scope that has a place).
 */
export async function countPlacePhotos(db: DatabaseHandle, scope: PlaceCountScope): Promise<PlaceCountRow[]> {
  const count = sql<string | number>`count(*)`.as("count");
  const rows = await db
    .selectFrom("photos")
    .where("photos.place_country_code", "is not", null)
    .where((eb) => {
      const shared = whereListablePart(eb, scope.access, "shared");
      const sharedCounted = scope.allPlaces ? shared : eb.and([shared, eb("photos.show_location", "=", 1)]);
      if (scope.part === "shared") return sharedCounted;
      // A viewer's own photo counts once: in the shared part when it was counted there, else here.
      return eb.and([eb("photos.owner_id", "=", scope.access.viewerId ?? ""), whereListablePhotos(eb, scope.access), eb.not(sharedCounted)]);
    })
    .select(["photos.place_country_code as countryCode", "photos.place_region as region", "photos.place_city as city", "photos.location_precision as precision", "photos.owner_id as ownerId", count])
    .groupBy(["photos.place_country_code", "photos.place_region", "photos.place_city", "photos.location_precision", "photos.owner_id"])
    .execute();
  return rows.map((row) => ({ countryCode: row.countryCode as string, region: row.region, city: row.city, precision: row.precision, ownerId: row.ownerId, count: Number(row.count) }));
}
