import { type Kysely, sql } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.
//
// Where a photo was taken, in words (src/places): its city, region (GeoNames admin1 name),
// country (ISO 3166-1 alpha-2) and the time zone at the point, written by processing from the
// coordinates ("automatic") or by the owner ("manual", which processing never overwrites, nor the
// coordinates with it). All null for a photo without coordinates, as before. The date taken stays
// as the camera wrote it; its instant is read with this time zone (src/places/taken-instant.ts).

const COLUMNS = ["place_city", "place_region", "place_country_code", "place_time_zone"] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const column of COLUMNS) await db.schema.alterTable("photos").addColumn(column, "text").execute();
  await db.schema
    .alterTable("photos")
    .addColumn("place_source", "text", (column) => column.check(sql`place_source in ('automatic', 'manual')`))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ["place_source", ...COLUMNS]) await db.schema.alterTable("photos").dropColumn(column).execute();
}
