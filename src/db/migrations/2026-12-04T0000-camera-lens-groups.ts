import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.
//
// The cameras and lenses of photos outside the trash, one row per spelling and per who may list
// them (visibility, owner, state), with how many photos each has. Search resolves `camera:` and
// `lens:` against this set and suggests from it (src/search/search.service.ts). Grouping the photos
// themselves read every photo: 430 ms at 100,000 photos in SQLite, blocking the event loop every
// few seconds when the remembered copy ran out (bench:search's p99 of 430-530 ms on camera rows).
// So the database keeps the groups in step itself, with triggers on photos, as storage_usage does,
// and search reads a few hundred rows.
//
// A missing make or label is stored as '' (a primary key column cannot be null); readers turn it
// back into null. A group whose count reaches 0 is deleted.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

const GROUP_KEY = "(kind, slug, make, label, visibility, owner_id, status)";

/** The camera and lens groups a photo row counts in, as (kind, slug, make, label) selects; none when it is in the trash. */
function groupsOf(row: "new" | "old"): Array<{ kind: string; slug: string; make: string; label: string }> {
  return [
    { kind: "'camera'", slug: `${row}.camera_slug`, make: `coalesce(${row}.camera_make, '')`, label: `coalesce(${row}.camera_model, '')` },
    { kind: "'lens'", slug: `${row}.lens_slug`, make: "''", label: `coalesce(${row}.lens, '')` },
  ];
}

function counted(row: "new" | "old", slug: string): string {
  return `${slug} is not null and ${row}.trashed_at is null`;
}

function addTo(row: "new"): string {
  return groupsOf(row)
    .map(
      (group) => `insert into photo_slug_groups ${GROUP_KEY.replace(")", ", photo_count)")}
      select ${group.kind}, ${group.slug}, ${group.make}, ${group.label}, new.visibility, new.owner_id, new.status, 1 where ${counted(row, group.slug)}
      on conflict ${GROUP_KEY} do update set photo_count = photo_slug_groups.photo_count + 1;`,
    )
    .join("\n");
}

function takeFrom(row: "old"): string {
  return groupsOf(row)
    .map(
      (group) => `update photo_slug_groups set photo_count = photo_count - 1
      where ${counted(row, group.slug)} and kind = ${group.kind} and slug = ${group.slug} and make = ${group.make} and label = ${group.label}
        and visibility = old.visibility and owner_id = old.owner_id and status = old.status;
      delete from photo_slug_groups where kind = ${group.kind} and slug = ${group.slug} and photo_count <= 0;`,
    )
    .join("\n");
}

/** The columns a group is made of: only an update of one of them can move a photo between groups. */
const GROUP_COLUMNS = "camera_slug, camera_make, camera_model, lens_slug, lens, visibility, owner_id, status, trashed_at";

/** [name, timing and event, the statements (SQLite) or body (PostgreSQL) for the row]. */
const TRIGGERS: Array<[string, string, string]> = [
  ["photo_slug_groups_insert", "after insert on photos", addTo("new")],
  ["photo_slug_groups_update", `after update of ${GROUP_COLUMNS} on photos`, `${takeFrom("old")}\n${addTo("new")}`],
  ["photo_slug_groups_delete", "after delete on photos", takeFrom("old")],
];

/** Every group as the triggers keep it, worked out from the photos at once (this migration's backfill; the benches' seeding). */
export const FILL_PHOTO_SLUG_GROUPS = `insert into photo_slug_groups ${GROUP_KEY.replace(")", ", photo_count)")}
  select 'camera', camera_slug, coalesce(camera_make, ''), coalesce(camera_model, ''), visibility, owner_id, status, count(*)
    from photos where camera_slug is not null and trashed_at is null
    group by camera_slug, coalesce(camera_make, ''), coalesce(camera_model, ''), visibility, owner_id, status
  union all
  select 'lens', lens_slug, '', coalesce(lens, ''), visibility, owner_id, status, count(*)
    from photos where lens_slug is not null and trashed_at is null
    group by lens_slug, coalesce(lens, ''), visibility, owner_id, status`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  await db.schema
    .createTable("photo_slug_groups")
    .addColumn("kind", "text", (column) => column.notNull())
    .addColumn("slug", "text", (column) => column.notNull())
    .addColumn("make", "text", (column) => column.notNull())
    .addColumn("label", "text", (column) => column.notNull())
    .addColumn("visibility", "text", (column) => column.notNull())
    .addColumn("owner_id", "text", (column) => column.notNull())
    .addColumn("status", "text", (column) => column.notNull())
    .addColumn("photo_count", "integer", (column) => column.notNull())
    .addPrimaryKeyConstraint("photo_slug_groups_pkey", ["kind", "slug", "make", "label", "visibility", "owner_id", "status"])
    .execute();
  await sql.raw(FILL_PHOTO_SLUG_GROUPS).execute(db);
  for (const [name, event, statements] of TRIGGERS) {
    if (postgres) {
      const row = event.includes("delete") ? "old" : "new";
      await sql.raw(`create function ${name}() returns trigger language plpgsql as $$ begin ${statements} return ${row}; end $$`).execute(db);
      await sql.raw(`create trigger ${name} ${event} for each row execute function ${name}()`).execute(db);
    } else {
      await sql.raw(`create trigger ${name} ${event} for each row begin ${statements} end`).execute(db);
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
  await db.schema.dropTable("photo_slug_groups").ifExists().execute();
}
