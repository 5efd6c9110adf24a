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
