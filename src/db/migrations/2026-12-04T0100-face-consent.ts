import type { Kysely } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.
//
// People's per-user consent (issue 32): each user's answer to the admin's consent text. A user's
// photos are looked at for faces only while their row says agreed = 1; no row is "not asked yet",
// which counts as no. Existing users get no row: when people is (or already was) on, each is asked
// before anything more of theirs is looked at. The row goes with its user (cascade).

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("face_consents")
    .addColumn("user_id", "text", (column) => column.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("agreed", "integer", (column) => column.notNull())
    .addColumn("decided_at", "text", (column) => column.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("face_consents").ifExists().execute();
}
