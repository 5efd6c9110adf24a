import type { DatabaseHandle } from "@/src/db/client";
import type { PhotoRow } from "@/src/db/database";

export type PhotoPlaceColumns = Pick<
  PhotoRow,
  "gps_latitude" | "gps_longitude" | "gps_altitude" | "place_city" | "place_region" | "place_country_code" | "place_time_zone" | "place_source"
>;

/**
 * Writes what processing read of a photo's place, unless its owner set the place by hand: the
 * condition is in the statement, so a correction saved while the photo was being processed wins.
 */
export async function updatePlaceUnlessManual(db: DatabaseHandle, id: string, columns: Partial<PhotoPlaceColumns>): Promise<void> {
  // Nothing to write (placeColumnsFromFile's answer for a place set by hand, e.g. by an import's
  // PATCH that landed before processing read the row): an UPDATE with an empty SET is a syntax
  // error on both databases, which failed the photo's processing on every try.
  if (Object.keys(columns).length === 0) return;
  await db
    .updateTable("photos")
    .set(columns)
    .where("id", "=", id)
    .where((eb) => eb.or([eb("place_source", "is", null), eb("place_source", "!=", "manual")]))
    .execute();
}

/**
 * Writes a place worked out from these coordinates, only while the photo still has them (a newer
 * correction wins) and, for the names, only while none has been typed since (`namesOnlyIfEmpty`).
 */
export async function updatePlaceAtCoordinates(
  db: DatabaseHandle,
  id: string,
  coordinates: { latitude: number; longitude: number },
  timeZone: string | null,
  names: Pick<PhotoPlaceColumns, "place_city" | "place_region" | "place_country_code"> | null,
): Promise<void> {
  const base = db.updateTable("photos").where("id", "=", id).where("gps_latitude", "=", coordinates.latitude).where("gps_longitude", "=", coordinates.longitude);
  await base.set({ place_time_zone: timeZone }).execute();
  if (names) {
    await base.set(names).where("place_city", "is", null).where("place_region", "is", null).where("place_country_code", "is", null).execute();
  }
}

/** A photo with coordinates that were never named (processed before places were stored). */
export interface UnnamedPlaceRow {
  id: string;
  gps_latitude: number;
  gps_longitude: number;
}

/**
 * Up to `limit` photos, by id after `afterId`, that have coordinates and no place at all
 * (place_source null: never named, and never set by hand), the trash included.
 */
export async function listPhotosWithUnnamedPlace(db: DatabaseHandle, afterId: string | null, limit: number): Promise<UnnamedPlaceRow[]> {
  const rows = await db
    .selectFrom("photos")
    .select(["id", "gps_latitude", "gps_longitude"])
    .where("gps_latitude", "is not", null)
    .where("gps_longitude", "is not", null)
    .where("place_source", "is", null)
    .$if(afterId !== null, (query) => query.where("id", ">", afterId as string))
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ id: row.id, gps_latitude: row.gps_latitude as number, gps_longitude: row.gps_longitude as number }));
}

/** How many photos have coordinates and no place (what the backfill has left to look at). */
export async function countPhotosWithUnnamedPlace(db: DatabaseHandle): Promise<number> {
  const row = await db
    .selectFrom("photos")
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .where("gps_latitude", "is not", null)
    .where("gps_longitude", "is not", null)
    .where("place_source", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Names a photo's place worked out from these coordinates, only while it still has them and still
 * has no place (a place set by hand, or named by processing meanwhile, wins). Answers whether it wrote.
 */
export async function nameUnnamedPlace(
  db: DatabaseHandle,
  photo: UnnamedPlaceRow,
  columns: Pick<PhotoPlaceColumns, "place_city" | "place_region" | "place_country_code" | "place_time_zone">,
): Promise<boolean> {
  const result = await db
    .updateTable("photos")
    .set({ ...columns, place_source: "automatic" })
    .where("id", "=", photo.id)
    .where("place_source", "is", null)
    .where("gps_latitude", "=", photo.gps_latitude)
    .where("gps_longitude", "=", photo.gps_longitude)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
