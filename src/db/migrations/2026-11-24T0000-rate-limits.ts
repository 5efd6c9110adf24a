import type { Kysely } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // Fixed-window counters for every rate limit (sign-in failures, failed API tokens), shared by all
  // app instances and kept across restarts (see src/auth/rate-limiter.ts).
  await db.schema
    .createTable("rate_limits")
    // What is counted, e.g. "signin:address:203.0.113.7"; e-mails in it are hashed.
    .addColumn("key", "text", (column) => column.primaryKey())
    .addColumn("count", "integer", (column) => column.notNull())
    // ISO 8601; when the window ends and the count starts again from zero.
    .addColumn("resets_at", "text", (column) => column.notNull())
    .execute();
  await db.schema.createIndex("rate_limits_resets_at").on("rate_limits").column("resets_at").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("rate_limits").execute();
}
