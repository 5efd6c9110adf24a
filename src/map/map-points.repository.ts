import type { ExpressionBuilder } from "kysely";
import type { DatabaseHandle } from "@/src/db/client";
import type { Database, PhotoRow } from "@/src/db/database";
import { mayList, type PhotoListAccess, whereListablePhotos } from "@/src/photos/listable-photos";

// SQL for the map, one statement per function, the handle first. No rules: which photos a viewer
// may list is the access handed in (the one list rule), and whose location they may learn is
// `shownOnly`, decided by src/map/map-clusters.service.ts with the metadata policy.

/** Listable by the access, and (`shownOnly`) located where the owner shows it or the viewer's own. */
function whereOnTheMap(eb: ExpressionBuilder<Database, "photos">, access: PhotoListAccess, shownOnly: boolean) {
  const listable = whereListablePhotos(eb, access);
  if (!shownOnly) return listable;
  const shownOrOwn = [eb("photos.show_location", "=", 1)];
  if (access.viewerId !== null) shownOrOwn.push(eb("photos.owner_id", "=", access.viewerId));
  return eb.and([listable, eb.or(shownOrOwn)]);
}

export type MapPointRow = Pick<
  PhotoRow,
  "id" | "owner_id" | "gps_latitude" | "gps_longitude" | "location_precision" | "place_city" | "place_region" | "place_country_code"
>;

const MAP_POINT_COLUMNS = [
  "photos.id",
  "photos.owner_id",
  "photos.gps_latitude",
  "photos.gps_longitude",
  "photos.location_precision",
  "photos.place_city",
  "photos.place_region",
  "photos.place_country_code",
] as const;

/** A geotagged photo with what the list rule and `shownOnly` read, for deciding in TypeScript (`isOnTheMap`). */
export type GeotaggedRow = MapPointRow & Pick<PhotoRow, "visibility" | "status" | "trashed_at" | "show_location">;

/**
 * A page of every geotagged photo, by id: the `limit` after `afterId` (null: from the first), for a
 * full build of a viewer's map, which keeps those `isOnTheMap` says. Read once per kind of viewer,
 * page after page, and remembered by the service; a few dozen bytes a photo. Pages, because
 * better-sqlite3 reads synchronously: one statement for every photo held the event loop about a
 * second at 100,000. And no access condition here: with the list rule in the statement, SQLite
 * walks the rule's index ranges (its OR) and sorts every match by id again for each page (6 s a
 * build at 100,000, a page blocking 0.6-2.3 s); by the primary key alone a page is a short range.
 */
export function listGeotaggedPage(db: DatabaseHandle, afterId: string | null, limit: number): Promise<GeotaggedRow[]> {
  return db
    .selectFrom("photos")
    .$if(afterId !== null, (query) => query.where("photos.id", ">", afterId as string))
    .where("photos.gps_latitude", "is not", null)
    .where("photos.gps_longitude", "is not", null)
    .select([...MAP_POINT_COLUMNS, "photos.visibility", "photos.status", "photos.trashed_at", "photos.show_location"])
    .orderBy("photos.id")
    .limit(limit)
    .execute();
}

/**
 * `whereOnTheMap` for a row already read: listable by the access (mayList, the list rule's own
 * TypeScript form, which tests/photo-list-access.test.ts holds to the SQL one) and located where
 * its owner shows it or the viewer's own (`shownOnly`).
 */
export function isOnTheMap(row: GeotaggedRow, access: PhotoListAccess, shownOnly: boolean): boolean {
  if (!mayList(access, row)) return false;
  return !shownOnly || row.show_location === 1 || (access.viewerId !== null && row.owner_id === access.viewerId);
}

/**
 * The same, only for `ids` (the few that just changed: at most 2,000, well within either
 * database's bound parameters).
 */
export function listMapPoints(db: DatabaseHandle, access: PhotoListAccess, shownOnly: boolean, ids: readonly string[]): Promise<MapPointRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("photos")
    .where("photos.id", "in", [...ids])
    .where("photos.gps_latitude", "is not", null)
    .where("photos.gps_longitude", "is not", null)
    .where((eb) => whereOnTheMap(eb, access, shownOnly))
    .select(MAP_POINT_COLUMNS)
    .execute();
}

/** The photos the map shows one by one (a handful in view), with what a marker needs, under the same rule. */
export async function findMapPhotos(db: DatabaseHandle, access: PhotoListAccess, shownOnly: boolean, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom("photos")
    .where("photos.id", "in", ids)
    .where("photos.gps_latitude", "is not", null)
    .where((eb) => whereOnTheMap(eb, access, shownOnly))
    .select(["photos.id", "photos.title", "photos.alt_text", "photos.taken_at", "photos.publication_key"])
    .execute();
}
