import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.
//
// Which photos changed in a way the map can show, whoever changed them (issue 31). Each app process
// keeps the map's cluster indexes in memory and patches them for the photos its own changes name;
// another process's changes were followed by reading every geotagged photo again every 10 s (2-3 s
// of work at 100,000 photos, on every instance with the map open), because some writes do not
// touch photos.updated_at and a deletion leaves no row to find. So the database logs them itself,
// with triggers on photos, as photo_slug_groups and storage_usage are kept (whoever writes: the
// API, the worker, a cascade from a user's removal, an operator's SQL), and each process reads the
// log from where it last stood and patches its indexes for those photos only
// (src/map/photo-map-changes.repository.ts, src/map/refreshing-map-indexes.ts).
//
// One row per photo row written: inserted, deleted, or updated in a column the map reads (the list
// rule's owner, visibility, status and trash; whether and how precisely its location is shown; the
// coordinates; the place's names), and only when one of them really changed, so processing's many
// other updates log nothing. `changed_at` is in seconds since 1970 on both databases.
//
// Where a reader stands:
// - SQLite has one writer at a time, so the order of `seq` (AUTOINCREMENT: never reused, even once
//   the newest rows are pruned) is the order of commits: a reader stands at the last seq it read.
// - PostgreSQL hands out sequence numbers before commit, so a row with a lower seq may become
//   visible after a higher one. Rows carry their transaction's id (`xact_id`, 64-bit, no
//   wraparound) instead, and a reader stands at its snapshot's xmin: every transaction below it has
//   ended, so every row it will ever see again comes from a transaction at or above it.
//
// Pruned by age without a job: every 1,000th row deletes the rows older than a day. A process that
// has not read the log for an hour builds its indexes again instead of trusting it.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The columns of photos the map's indexes are built from (src/map/map-points.repository.ts, the list rule). */
const MAP_COLUMNS = [
  "owner_id",
  "visibility",
  "status",
  "trashed_at",
  "show_location",
  "location_precision",
  "gps_latitude",
  "gps_longitude",
  "place_city",
  "place_region",
  "place_country_code",
];

const KEPT_SECONDS = 24 * 60 * 60;
const PRUNE_EVERY_ROWS = 1_000;

function logRow(row: "new" | "old", postgres: boolean): string {
  return postgres
    ? `insert into photo_map_changes (photo_id, changed_at, xact_id) values (${row}.id, extract(epoch from now())::bigint, pg_current_xact_id()::text::bigint);`
    : `insert into photo_map_changes (photo_id, changed_at) values (${row}.id, cast(strftime('%s', 'now') as integer));`;
}

/** Only a real change of a column the map reads: both databases fire `update of` for a column merely set. */
function anyMapColumnChanged(postgres: boolean): string {
  return MAP_COLUMNS.map((column) => (postgres ? `old.${column} is distinct from new.${column}` : `old.${column} is not new.${column}`)).join(" or ");
}

/** [name, table, timing and event, condition or null, the statement for the row]. */
function triggers(postgres: boolean): Array<[string, string, string, string | null, string]> {
  return [
    ["photo_map_changes_insert", "photos", "after insert on photos", null, logRow("new", postgres)],
    ["photo_map_changes_update", "photos", `after update of ${MAP_COLUMNS.join(", ")} on photos`, anyMapColumnChanged(postgres), logRow("new", postgres)],
    ["photo_map_changes_delete", "photos", "after delete on photos", null, logRow("old", postgres)],
    [
      "photo_map_changes_prune",
      "photo_map_changes",
      "after insert on photo_map_changes",
      `new.seq % ${PRUNE_EVERY_ROWS} = 0`,
      `delete from photo_map_changes where changed_at < new.changed_at - ${KEPT_SECONDS};`,
    ],
  ];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  if (postgres) {
    await sql`create table photo_map_changes (
      seq bigint generated always as identity primary key,
      photo_id text not null,
      changed_at bigint not null,
      xact_id bigint not null
    )`.execute(db);
    await sql`create index photo_map_changes_xact_id on photo_map_changes (xact_id)`.execute(db);
  } else {
    await sql`create table photo_map_changes (
      seq integer primary key autoincrement,
      photo_id text not null,
      changed_at integer not null
    )`.execute(db);
  }
  await sql`create index photo_map_changes_changed_at on photo_map_changes (changed_at)`.execute(db);
  for (const [name, , event, condition, statement] of triggers(postgres)) {
    const when = condition === null ? "" : `when (${condition})`;
    if (postgres) {
      const row = event.includes("delete") ? "old" : "new";
      await sql.raw(`create function ${name}() returns trigger language plpgsql as $$ begin ${statement} return ${row}; end $$`).execute(db);
      await sql.raw(`create trigger ${name} ${event} for each row ${when} execute function ${name}()`).execute(db);
    } else {
      await sql.raw(`create trigger ${name} ${event} for each row ${when} begin ${statement} end`).execute(db);
    }
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  for (const [name, table] of triggers(postgres)) {
    await sql.raw(`drop trigger if exists ${name}${postgres ? ` on ${table}` : ""}`).execute(db);
    if (postgres) await sql.raw(`drop function if exists ${name}()`).execute(db);
  }
  await db.schema.dropTable("photo_map_changes").ifExists().execute();
}
