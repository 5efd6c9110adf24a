import { type Kysely, sql } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.
//
// The owner's turn of a photo, in degrees clockwise (0, 90, 180 or 270), on top of the
// orientation its file records (EXIF, or HEIF's own rotation). The original is never rewritten:
// every variant is made from it turned by this much, so a turn is undone by turning back.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("photos")
    .addColumn("rotation", "integer", (column) => column.notNull().defaultTo(0).check(sql`rotation in (0, 90, 180, 270)`))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("photos").dropColumn("rotation").execute();
}
