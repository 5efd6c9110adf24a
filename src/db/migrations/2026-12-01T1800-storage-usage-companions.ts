import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.
//
// Storage used counted a photo's original and variants only; the files issue 30 keeps beside a photo
// were missing from the dashboard: the RAW of a RAW+JPEG pair, a motion photo's or Live Photo's clip
// and the copy of it viewers play, and a video's playable copy (photos.raw_companion_size,
// motion_clip_size, motion_playable_size, playable_size). storage_usage gains
// companion_bytes, kept in step by triggers on those columns as 2026-11-30T0700 keeps the others.
//
// The insert trigger upserts, as storage_usage_photo_insert does: the two fire in an order that
// differs between the databases, and whichever comes first makes the owner's row.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The bytes of the files kept beside one photo row (`new`, `old`, or a table name). */
const COMPANION_BYTES = (row: string) => `(coalesce(${row}.raw_companion_size, 0) + coalesce(${row}.motion_clip_size, 0) + coalesce(${row}.motion_playable_size, 0) + coalesce(${row}.playable_size, 0))`;

/** [name, timing and event, the statement (SQLite) or body (PostgreSQL) for the row]. */
const TRIGGERS: Array<[string, string, string]> = [
  [
    "storage_usage_companion_insert",
    "after insert on photos",
    `insert into storage_usage (owner_id, photo_count, original_bytes, variant_bytes, companion_bytes) values (new.owner_id, 0, 0, 0, ${COMPANION_BYTES("new")})
      on conflict (owner_id) do update set companion_bytes = storage_usage.companion_bytes + excluded.companion_bytes;`,
  ],
  [
    "storage_usage_companion_update",
    "after update of raw_companion_size, motion_clip_size, motion_playable_size, playable_size on photos",
    `update storage_usage set companion_bytes = companion_bytes - ${COMPANION_BYTES("old")} + ${COMPANION_BYTES("new")} where owner_id = new.owner_id;`,
  ],
  ["storage_usage_companion_delete", "before delete on photos", `update storage_usage set companion_bytes = companion_bytes - ${COMPANION_BYTES("old")} where owner_id = old.owner_id;`],
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  await db.schema
    .alterTable("storage_usage")
    .addColumn("companion_bytes", postgres ? "bigint" : "integer", (column) => column.notNull().defaultTo(0))
    .execute();
  await sql
    .raw(`update storage_usage set companion_bytes = coalesce((select sum(${COMPANION_BYTES("photos")}) from photos where photos.owner_id = storage_usage.owner_id), 0)`)
    .execute(db);
  for (const [name, event, statement] of TRIGGERS) {
    if (postgres) {
      const row = event.includes("delete") ? "old" : "new";
      await sql.raw(`create function ${name}() returns trigger language plpgsql as $$ begin ${statement} return ${row}; end $$`).execute(db);
      await sql.raw(`create trigger ${name} ${event} for each row execute function ${name}()`).execute(db);
    } else {
      await sql.raw(`create trigger ${name} ${event} for each row begin ${statement} end`).execute(db);
    }
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  for (const [name] of TRIGGERS) {
    await sql.raw(`drop trigger if exists ${name}${postgres ? " on photos" : ""}`).execute(db);
    if (postgres) await sql.raw(`drop function if exists ${name}()`).execute(db);
  }
  await db.schema.alterTable("storage_usage").dropColumn("companion_bytes").execute();
}
