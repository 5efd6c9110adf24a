import type { Kysely } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // The admitted browser (its grant's visit id) that named this proofing visitor, so the visitors
  // one browser may create on a link can be capped (SECURITY.md 63). Null for visitors named before.
  await db.schema.alterTable("share_visitors").addColumn("visit_id", "text").execute();
  await db.schema.createIndex("share_visitors_share_visit").on("share_visitors").columns(["share_id", "visit_id"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("share_visitors_share_visit").execute();
  await db.schema.alterTable("share_visitors").dropColumn("visit_id").execute();
}
