import type { Kysely } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.
//
// Processing now reads the title, caption and keywords written into the file (XMP, IPTC), as it
// reads the rating and label. title_by_owner and caption_by_owner say the photo's text is the
// owner's own (the editor, or the importer from a sidecar), which processing again (a retry, a
// reprocess) then keeps; until now only the owner could set either, so every title and caption
// already there is theirs. file_keywords_read says the file's keywords have been made its tags
// once: processing again never adds back a tag the owner took off. Photos already there have not
// had theirs read, so a reprocess reads them once.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("photos").addColumn("title_by_owner", "integer", (column) => column.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("photos").addColumn("caption_by_owner", "integer", (column) => column.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("photos").addColumn("file_keywords_read", "integer", (column) => column.notNull().defaultTo(0)).execute();
  await db.updateTable("photos").set({ title_by_owner: 1 }).where("title", "<>", "").execute();
  await db.updateTable("photos").set({ caption_by_owner: 1 }).where("caption", "<>", "").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("photos").dropColumn("file_keywords_read").execute();
  await db.schema.alterTable("photos").dropColumn("caption_by_owner").execute();
  await db.schema.alterTable("photos").dropColumn("title_by_owner").execute();
}
