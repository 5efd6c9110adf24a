import type { Kysely } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.
//
// A search of only `place:` (issue 31) walked the whole gallery in order, testing each photo's
// place: at 100,000 photos a town with a handful of photos read every one of them. A town's, a
// region's or a country's photos of one visibility in gallery order, one index range per visibility
// the viewer may list, as photos_camera_slug does for camera:. Partial: photos without a place (no
// GPS) stay out, so each index holds only the geotagged photos.
const INDEXES = [
  ["photos_place_city", "place_city"],
  ["photos_place_region", "place_region"],
  ["photos_place_country", "place_country_code"],
] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, column] of INDEXES) {
    await db.schema.createIndex(name).on("photos").columns([column, "visibility", "sort_at", "id"]).where(column, "is not", null).execute();
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of INDEXES) await db.schema.dropIndex(name).execute();
}
