import type { Kysely } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // Who asked, from where: the client address (src/http/client-address.ts rules) and user agent of
  // the request that made the change; null for changes without a request (jobs, the CLI, startup).
  await db.schema.alterTable("audit_log").addColumn("address", "text").execute();
  await db.schema.alterTable("audit_log").addColumn("user_agent", "text").execute();
  // What kind of thing target_id names ("user", "photo", "token", "settings", ...), for the filter.
  await db.schema.alterTable("audit_log").addColumn("target_type", "text").execute();
  // The audit page reads newest first by the (created_at, id) keyset, alone or with one filter.
  await db.schema.dropIndex("audit_log_created_at").execute();
  await db.schema.createIndex("audit_log_created_at_id").on("audit_log").columns(["created_at", "id"]).execute();
  await db.schema.createIndex("audit_log_actor").on("audit_log").columns(["actor_id", "created_at", "id"]).execute();
  await db.schema.createIndex("audit_log_action").on("audit_log").columns(["action", "created_at", "id"]).execute();
  await db.schema.createIndex("audit_log_target").on("audit_log").columns(["target_id", "created_at", "id"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("audit_log_target").execute();
  await db.schema.dropIndex("audit_log_action").execute();
  await db.schema.dropIndex("audit_log_actor").execute();
  await db.schema.dropIndex("audit_log_created_at_id").execute();
  await db.schema.createIndex("audit_log_created_at").on("audit_log").column("created_at").execute();
  await db.schema.alterTable("audit_log").dropColumn("target_type").execute();
  await db.schema.alterTable("audit_log").dropColumn("user_agent").execute();
  await db.schema.alterTable("audit_log").dropColumn("address").execute();
}
