import type { Kysely } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.
//
// Whether the date taken is the owner's own (set or cleared in the photo editor, or by the
// importer from a sidecar) rather than the file's EXIF: processing the photo again (a retry, a
// reprocess) then keeps it instead of reading the file's date over it.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("photos").addColumn("taken_at_by_owner", "integer", (column) => column.notNull().defaultTo(0)).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("photos").dropColumn("taken_at_by_owner").execute();
}
