import type { Kysely } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.
//
// Whether the rating and the colour label are the owner's own (set in the editor, in bulk, or by
// the importer from a sidecar) rather than read from the file's embedded XMP: processing the photo
// again (a retry, a reprocess) then keeps them instead of reading the file's over them. Until now
// only the owner could set them, so every rating and label already there is theirs.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("photos").addColumn("rating_by_owner", "integer", (column) => column.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("photos").addColumn("label_by_owner", "integer", (column) => column.notNull().defaultTo(0)).execute();
  await db.updateTable("photos").set({ rating_by_owner: 1 }).where("rating", "<>", 0).execute();
  await db.updateTable("photos").set({ label_by_owner: 1 }).where("label", "is not", null).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("photos").dropColumn("label_by_owner").execute();
  await db.schema.alterTable("photos").dropColumn("rating_by_owner").execute();
}
