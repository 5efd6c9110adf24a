import type { Kysely } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.
//
// "Is this X?" (issue 32): the owner's answer "no" to a suggestion that one of their unnamed people
// is a named one, remembered so it is never suggested again. A row goes with either person
// (cascade): a merged-away or deleted person's answers mean nothing any more.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("person_suggestion_rejections")
    .addColumn("person_id", "text", (column) => column.notNull().references("people.id").onDelete("cascade"))
    .addColumn("suggested_person_id", "text", (column) => column.notNull().references("people.id").onDelete("cascade"))
    .addColumn("created_at", "text", (column) => column.notNull())
    .addPrimaryKeyConstraint("person_suggestion_rejections_pk", ["person_id", "suggested_person_id"])
    .execute();
  // Deleting the suggested person cascades through this index, not a scan.
  await db.schema.createIndex("person_suggestion_rejections_suggested").on("person_suggestion_rejections").column("suggested_person_id").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("person_suggestion_rejections").ifExists().execute();
}
