import type { Kysely } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.
//
// How precisely people other than the owner learn where a photo was taken, when its location is
// shown at all: 'exact', 'city', 'region' or 'country' (src/photos/location-precision.ts). Null:
// the site's default (the admin's settings), so changing that default moves every photo that never
// chose. No index: the map and /places read it beside the coordinates, never filter by it.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("photos").addColumn("location_precision", "text").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("photos").dropColumn("location_precision").execute();
}
