import { type Kysely, sql } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.
//
// The owner's rating (0-5 stars, 0 = none) and colour label (Lightroom's five, or none), set in
// the editor or brought in by the importer from XMP. They are the owner's own notes: only the owner
// and admins ever see or search them. No index: they filter the owner's own photos, which the
// library and search already walk by their own index ranges, stopping at the page.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("photos")
    .addColumn("rating", "integer", (column) => column.notNull().defaultTo(0).check(sql`rating between 0 and 5`))
    .execute();
  await db.schema
    .alterTable("photos")
    .addColumn("label", "text", (column) => column.check(sql`label in ('red', 'yellow', 'green', 'blue', 'purple')`))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("photos").dropColumn("label").execute();
  await db.schema.alterTable("photos").dropColumn("rating").execute();
}
