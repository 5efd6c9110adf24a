import type { Kysely } from "kysely";
import { sql } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>
// and no application types.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("users")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("email", "text", (column) => column.notNull().unique())
    .addColumn("name", "text", (column) => column.notNull())
    .addColumn("role", "text", (column) => column.notNull().check(sql`role in ('viewer', 'editor', 'admin')`))
    .addColumn("password_hash", "text")
    .addColumn("disabled_at", "text")
    .addColumn("session_version", "integer", (column) => column.notNull().defaultTo(1))
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("updated_at", "text", (column) => column.notNull())
    .execute();

  await db.schema
    .createTable("oauth_accounts")
    .addColumn("provider", "text", (column) => column.notNull())
    .addColumn("provider_account_id", "text", (column) => column.notNull())
    .addColumn("user_id", "text", (column) => column.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (column) => column.notNull())
    .addPrimaryKeyConstraint("oauth_accounts_pk", ["provider", "provider_account_id"])
    .execute();
  await db.schema.createIndex("oauth_accounts_user_id").on("oauth_accounts").column("user_id").execute();

  // Sessions signed out one by one (the token itself lives on in the browser until it expires).
  await db.schema
    .createTable("revoked_sessions")
    .addColumn("session_id", "text", (column) => column.primaryKey())
    .addColumn("user_id", "text", (column) => column.notNull())
    .addColumn("expires_at", "text", (column) => column.notNull())
    .execute();
  await db.schema.createIndex("revoked_sessions_expires_at").on("revoked_sessions").column("expires_at").execute();

  await db.schema
    .createTable("settings")
    .addColumn("key", "text", (column) => column.primaryKey())
    .addColumn("value", "text", (column) => column.notNull())
    .execute();

  await db.schema
    .createTable("audit_log")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("actor_id", "text")
    .addColumn("action", "text", (column) => column.notNull())
    .addColumn("target_id", "text")
    .addColumn("details", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .execute();
  await db.schema.createIndex("audit_log_created_at").on("audit_log").column("created_at").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("audit_log").execute();
  await db.schema.dropTable("settings").execute();
  await db.schema.dropTable("revoked_sessions").execute();
  await db.schema.dropTable("oauth_accounts").execute();
  await db.schema.dropTable("users").execute();
}
