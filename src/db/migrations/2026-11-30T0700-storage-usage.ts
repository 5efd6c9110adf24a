import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.
//
// Storage used per owner (the dashboard, issue 27): photos' originals and variants, in bytes, from
// the sizes recorded when each file was stored (photos.original_size, photo_variants.byte_size).
// Summing them on each dashboard view read every photo and variant row: 1.0 s and 3.7 s at 100,000
// photos and 900,000 variants in SQLite. So the database keeps one row per owner in step itself,
// with triggers on photos and photo_variants (whoever writes: the ingest, processing, a retry's new
// variants, the trash's purge, a user's removal), and the dashboard reads a row per user.
//
// A photo's deletion takes off its original and every variant it still has (BEFORE DELETE, while
// they can still be summed); the variants its cascade then deletes find no photo and change nothing.
// Photos never change owner (no code path does), so only a change of original_size is followed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

const OWNER_OF_VARIANT = (row: "new" | "old") => `(select owner_id from photos where id = ${row}.photo_id)`;

/** [name, timing and event, the statement (SQLite) or body (PostgreSQL) for the row]. */
const TRIGGERS: Array<[string, string, string]> = [
  [
    "storage_usage_photo_insert",
    "after insert on photos",
    `insert into storage_usage (owner_id, photo_count, original_bytes, variant_bytes) values (new.owner_id, 1, new.original_size, 0)
      on conflict (owner_id) do update set photo_count = storage_usage.photo_count + 1, original_bytes = storage_usage.original_bytes + excluded.original_bytes;`,
  ],
  [
    "storage_usage_photo_resize",
    "after update of original_size on photos",
    `update storage_usage set original_bytes = original_bytes - old.original_size + new.original_size where owner_id = new.owner_id;`,
  ],
  [
    "storage_usage_photo_delete",
    "before delete on photos",
    `update storage_usage set photo_count = photo_count - 1, original_bytes = original_bytes - old.original_size,
      variant_bytes = variant_bytes - coalesce((select sum(byte_size) from photo_variants where photo_id = old.id), 0)
      where owner_id = old.owner_id;`,
  ],
  ["storage_usage_variant_insert", "after insert on photo_variants", `update storage_usage set variant_bytes = variant_bytes + new.byte_size where owner_id = ${OWNER_OF_VARIANT("new")};`],
  [
    "storage_usage_variant_update",
    "after update of byte_size on photo_variants",
    `update storage_usage set variant_bytes = variant_bytes - old.byte_size + new.byte_size where owner_id = ${OWNER_OF_VARIANT("new")};`,
  ],
  ["storage_usage_variant_delete", "after delete on photo_variants", `update storage_usage set variant_bytes = variant_bytes - old.byte_size where owner_id = ${OWNER_OF_VARIANT("old")};`],
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  await db.schema
    .createTable("storage_usage")
    .addColumn("owner_id", "text", (column) => column.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("photo_count", "integer", (column) => column.notNull())
    .addColumn("original_bytes", postgres ? "bigint" : "integer", (column) => column.notNull())
    .addColumn("variant_bytes", postgres ? "bigint" : "integer", (column) => column.notNull())
    .execute();
  await sql`insert into storage_usage (owner_id, photo_count, original_bytes, variant_bytes)
    select p.owner_id, count(*), sum(p.original_size), coalesce(sum(v.bytes), 0)
    from photos p left join (select photo_id, sum(byte_size) as bytes from photo_variants group by photo_id) v on v.photo_id = p.id
    group by p.owner_id`.execute(db);
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
  for (const [name, event] of TRIGGERS) {
    const table = event.split(" on ")[1];
    await sql.raw(`drop trigger if exists ${name}${postgres ? ` on ${table}` : ""}`).execute(db);
    if (postgres) await sql.raw(`drop function if exists ${name}()`).execute(db);
  }
  await db.schema.dropTable("storage_usage").ifExists().execute();
}
