// The database at each earlier schema, for the upgrade test (tests/upgrades.test.ts): a migration's
// exact schema (Kysely's migrateTo), what its tables and columns are, representative rows valid at
// it, and a snapshot of them to compare after the upgrade.
//
// The rows are written once, for the newest schema, and each is inserted with only the columns its
// table has at the schema under test; a required column they do not name (a table or column a
// later migration brings) is filled by type, and a reference by the first row of the table it
// points at. So a new migration is covered without editing this file, unless its table has a check
// a filler cannot guess: then its insert fails, naming the table.
import fs from "node:fs";
import path from "node:path";
import { type Kysely, Migrator, sql } from "kysely";
import type { Database } from "@/src/db/database";
import { migrationProvider } from "@/src/db/migrations";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDatabase = Kysely<any>;
export type DatabaseKind = "sqlite" | "postgres";
export type Row = Record<string, unknown>;

const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, "../../src/db/migrations");

/** Every migration the index registers, in the order they run. */
export async function migrationHistory(): Promise<string[]> {
  return Object.keys(await migrationProvider.getMigrations()).sort();
}

/** Every migration file on disk (so one left out of the index is noticed). */
export function migrationFiles(): string[] {
  return fs
    .readdirSync(MIGRATIONS_FOLDER)
    .filter((name) => /^\d{4}-\d{2}-\d{2}T\d{4}-.+\.ts$/.test(name) && !name.endsWith(".test.ts"))
    .map((name) => name.replace(/\.ts$/, ""))
    .sort();
}

/** Runs one migration's `up` on `db` (a transaction's handle, for the ladder of tests/upgrades.test.ts). */
export async function runMigrationUp(db: AnyDatabase, migration: string): Promise<void> {
  const found = (await migrationProvider.getMigrations())[migration];
  if (!found) throw new Error(`No migration ${migration}`);
  await found.up(db);
}

export async function migrateExactlyTo(db: AnyDatabase, migration: string): Promise<void> {
  const { error } = await new Migrator({ db, provider: migrationProvider }).migrateTo(migration);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

export interface ColumnInfo {
  name: string;
  /** Lower-case type as the database names it: text, integer, real, bigint, blob, bytea, … */
  type: string;
  notNull: boolean;
  /** The default as the database spells it (null: none). */
  defaultText: string | null;
  generated: boolean;
}

export interface TableInfo {
  name: string;
  columns: ColumnInfo[];
  primaryKey: string[];
  foreignKeys: Array<{ column: string; table: string; to: string }>;
}

/**
 * Tables the database keeps itself, by triggers, from the others: their rows are derived (and, for
 * SQLite's search index, renumbered by a migration), so they are not filled or compared row by row
 * but checked by what they must hold (`derivedTablesProblems`). Kysely's own tables are left alone.
 */
export function isDerivedTable(name: string): boolean {
  return (
    name.startsWith("photo_search") ||
    name === "storage_usage" ||
    name === "photo_slug_groups" ||
    name === "person_centroids" ||
    // The map's log of photos changed: rows by triggers only, read from where each process stood (migration 2026-12-05T0200).
    name === "photo_map_changes" ||
    name.startsWith("kysely_")
  );
}

/** The tables at the database's current schema, with their columns, keys and references. */
export async function describeTables(db: AnyDatabase, kind: DatabaseKind): Promise<TableInfo[]> {
  return kind === "sqlite" ? describeSqliteTables(db) : describePostgresTables(db);
}

async function describeSqliteTables(db: AnyDatabase): Promise<TableInfo[]> {
  // Two statements for all tables (the pragmas as table-valued functions), not two per table.
  const { rows: columns } = await sql<{ table_name: string; name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>`
    select m.name as table_name, c.name, c.type, c."notnull", c.dflt_value, c.pk
    from sqlite_master m join pragma_table_info(m.name) c
    where m.type = 'table' and m.name not like 'sqlite_%' order by m.name, c.cid`.execute(db);
  const { rows: references } = await sql<{ table_name: string; table: string; from: string; to: string }>`
    select m.name as table_name, f."table", f."from", f."to"
    from sqlite_master m join pragma_foreign_key_list(m.name) f
    where m.type = 'table' and m.name not like 'sqlite_%'`.execute(db);
  const tables = new Map<string, TableInfo>();
  for (const column of columns) {
    const table = tables.get(column.table_name) ?? { name: column.table_name, columns: [], primaryKey: [], foreignKeys: [] };
    table.columns.push({ name: column.name, type: column.type.toLowerCase(), notNull: column.notnull === 1 || column.pk > 0, defaultText: column.dflt_value, generated: false });
    tables.set(column.table_name, table);
  }
  for (const table of tables.values()) {
    const keyed = columns.filter((column) => column.table_name === table.name && column.pk > 0).sort((a, b) => a.pk - b.pk);
    table.primaryKey = keyed.map((column) => column.name);
    table.foreignKeys = references.filter((reference) => reference.table_name === table.name).map((reference) => ({ column: reference.from, table: reference.table, to: reference.to }));
  }
  return [...tables.values()];
}

async function describePostgresTables(db: AnyDatabase): Promise<TableInfo[]> {
  // pg_catalog rather than information_schema: the same facts, in a tenth of the time.
  const { rows: columns } = await sql<{ table_name: string; column_name: string; data_type: string; not_null: boolean; column_default: string | null; generated: boolean }>`
    select cl.relname as table_name, a.attname as column_name, format_type(a.atttypid, a.atttypmod) as data_type, a.attnotnull as not_null,
      case when a.attgenerated = '' then pg_get_expr(d.adbin, d.adrelid) end as column_default, a.attgenerated <> '' as generated
    from pg_attribute a
    join pg_class cl on cl.oid = a.attrelid
    left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where cl.relnamespace = current_schema()::regnamespace and cl.relkind = 'r' and a.attnum > 0 and not a.attisdropped
    order by cl.relname, a.attnum`.execute(db);
  const { rows: keys } = await sql<{ table_name: string; column_name: string; kind: string; target_table: string | null; target_column: string | null }>`
    select cl.relname as table_name, a.attname as column_name, c.contype as kind, tcl.relname as target_table, ta.attname as target_column
    from pg_constraint c
    join pg_class cl on cl.oid = c.conrelid
    cross join lateral unnest(c.conkey, coalesce(c.confkey, c.conkey)) with ordinality as k(attnum, target_attnum, position)
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum
    left join pg_class tcl on tcl.oid = c.confrelid
    left join pg_attribute ta on ta.attrelid = c.confrelid and ta.attnum = k.target_attnum
    where c.connamespace = current_schema()::regnamespace and c.contype in ('p', 'f')
    order by cl.relname, c.conname, k.position`.execute(db);
  const tables = new Map<string, TableInfo>();
  for (const column of columns) {
    const table = tables.get(column.table_name) ?? { name: column.table_name, columns: [], primaryKey: [], foreignKeys: [] };
    table.columns.push({
      name: column.column_name,
      type: column.data_type.toLowerCase(),
      notNull: column.not_null,
      defaultText: column.column_default,
      generated: column.generated,
    });
    tables.set(column.table_name, table);
  }
  for (const key of keys) {
    const table = tables.get(key.table_name);
    if (!table) continue;
    if (key.kind === "p") table.primaryKey.push(key.column_name);
    else table.foreignKeys.push({ column: key.column_name, table: key.target_table ?? "", to: key.target_column ?? "" });
  }
  return [...tables.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * A column's default when it is a plain literal (a number or a quoted string), in the form rows are
 * read back in; undefined when it is an expression (or there is none: then null is what old rows get).
 */
export function literalDefault(column: ColumnInfo): { value: unknown } | undefined {
  const text = column.defaultText;
  if (text === null) return column.notNull ? undefined : { value: null };
  const number = /^\(?(-?\d+(?:\.\d+)?)\)?(?:::[\w ]+)?$/.exec(text);
  if (number) return { value: Number(number[1]) };
  const quoted = /^'((?:[^']|'')*)'(?:::[\w ]+)?$/.exec(text);
  if (quoted) {
    const value = quoted[1].replaceAll("''", "'");
    // A number stored in a text literal on an integer column (PostgreSQL's '0'::integer) reads back as a number.
    return { value: /int|real|double|numeric/.test(column.type) && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value };
  }
  if (/^null(::[\w ]+)?$/i.test(text)) return { value: null };
  return undefined;
}

/** A value of the column's type for a required column a hand-written row does not name. */
function fillerValue(column: ColumnInfo, table: string, index: number): unknown {
  if (/int|real|double|numeric|float/.test(column.type)) return index;
  if (/blob|bytea/.test(column.type)) return Buffer.from([index, 1, 2, 3]);
  if (/bool/.test(column.type)) return false;
  if (/time|date/.test(column.type)) return "2026-11-20T10:00:00.000Z";
  return `${table}.${column.name}.${index}`;
}

/**
 * Inserts `rows` into `table` with only the columns it has now, filling the required ones they
 * leave out; rows naming the same columns go in one statement (round trips are most of the cost).
 */
async function insertRows(db: AnyDatabase, table: TableInfo, rows: Row[], set: number): Promise<void> {
  const groups: Row[][] = [];
  for (const [index, row] of rows.entries()) {
    const values: Row = {};
    for (const column of table.columns) {
      if (column.generated) continue;
      if (column.name in row) values[column.name] = row[column.name];
      else if (column.notNull && column.defaultText === null) {
        const reference = table.foreignKeys.find((key) => key.column === column.name);
        values[column.name] = reference ? await firstValue(db, reference.table, reference.to) : fillerValue(column, table.name, set * 10 + index + 1);
      }
    }
    const last = groups.at(-1);
    if (last && Object.keys(last[0]).join() === Object.keys(values).join()) last.push(values);
    else groups.push([values]);
  }
  for (const group of groups) {
    try {
      await db.insertInto(table.name).values(group).execute();
    } catch (error) {
      throw new Error(
        `Could not insert representative rows into ${table.name} (${JSON.stringify(group)}): ${error instanceof Error ? error.message : String(error)}. ` +
          "Give the table hand-written rows in tests/helpers/schema-history.ts's representativeRows.",
      );
    }
  }
}

async function firstValue(db: AnyDatabase, table: string, column: string): Promise<unknown> {
  const row = (await db.selectFrom(table).select(column).limit(1).executeTakeFirst()) as Row | undefined;
  if (!row) throw new Error(`The filler needs a row in ${table} to point at; give ${table} hand-written rows first`);
  return row[column];
}

const OWNER = "upgrade-admin";
const EDITOR = "upgrade-editor";
const VIEWER = "upgrade-viewer";
export const UPGRADE_PASSWORD = "upgrade-password-1";
const T = (day: number, hour = 10) => `2026-11-${String(day).padStart(2, "0")}T${String(hour).padStart(2, "0")}:00:00.000Z`;

/** The users a test signs in as, by id. */
export const UPGRADE_USERS = {
  admin: { id: OWNER, email: "upgrade-admin@example.test" },
  editor: { id: EDITOR, email: "upgrade-editor@example.test" },
};

/** The photos, by what they are, for tests to ask the API about. */
export const UPGRADE_PHOTOS = {
  publicReady: "upg-photo-public",
  privateReady: "upg-photo-private",
  processing: "upg-photo-processing",
  failed: "upg-photo-failed",
  trashed: "upg-photo-trashed",
  membersOfEditor: "upg-photo-members",
};
export const UPGRADE_ALBUMS = { parent: "upg-album-parent", child: "upg-album-child", editors: "upg-album-editor" };

function photo(id: string, owner: string, day: number, fields: Row): Row {
  return {
    id, owner_id: owner, sha256: `sha-${id}`, status: "ready", failure_reason: null, visibility: "private",
    original_key: `originals/${id}`, original_name: `${id}.jpg`, original_type: "image/jpeg", original_size: 1000 + day, width: 1200, height: 800,
    title: "", caption: "", alt_text: "", sort_at: T(day), created_at: T(day, 12), updated_at: T(day, 12), publication_key: `pub-${day}`,
    ...fields,
  };
}

function variants(photoId: string): Row[] {
  return [
    { photo_id: photoId, format: "jpeg", width: 400, height: 267, storage_key: `variants/${photoId}/400.jpg`, byte_size: 4000 },
    { photo_id: photoId, format: "webp", width: 400, height: 267, storage_key: `variants/${photoId}/400.webp`, byte_size: 3000 },
    { photo_id: photoId, format: "avif", width: 1200, height: 800, storage_key: `variants/${photoId}/1200.avif`, byte_size: 9000 },
  ];
}

/**
 * Hand-written rows for the tables as they are now, in the order their references need. A table a
 * schema does not have yet is skipped; so is a column.
 */
export function representativeRows(passwordHash: string, tag = ""): Array<[string, Row[]]> {
  const rows = untaggedRows(passwordHash);
  return tag ? rows.map(([table, each]) => [table, each.map((row) => tagRow(row, tag))]) : rows;
}

/** Columns that name a row or must be unique: a tag makes them another set of rows' own. */
const IDENTIFYING = /^(id|.+_id|email|slug|key|token_hash|storage_key|sha256|original_key|provider_account_id)$/;

function tagRow(row: Row, tag: string): Row {
  return Object.fromEntries(Object.entries(row).map(([column, value]) => [column, typeof value === "string" && IDENTIFYING.test(column) ? `${value}${tag}` : value]));
}

function untaggedRows(passwordHash: string): Array<[string, Row[]]> {
  const P = UPGRADE_PHOTOS;
  const A = UPGRADE_ALBUMS;
  return [
    ["users", [
      { id: OWNER, email: UPGRADE_USERS.admin.email, name: "Ulla Upgrade", role: "admin", password_hash: passwordHash, disabled_at: null, session_version: 3, created_at: T(1), updated_at: T(2) },
      { id: EDITOR, email: UPGRADE_USERS.editor.email, name: "Eddie Editor", role: "editor", password_hash: passwordHash, disabled_at: null, session_version: 1, created_at: T(1), updated_at: T(1) },
      { id: VIEWER, email: "upgrade-viewer@example.test", name: "Vera Viewer", role: "viewer", password_hash: null, disabled_at: T(3), session_version: 2, created_at: T(1), updated_at: T(3) },
    ]],
    ["oauth_accounts", [{ provider: "oidc", provider_account_id: "sub-123", user_id: VIEWER, created_at: T(2) }]],
    ["revoked_sessions", [{ session_id: "upg-session", user_id: EDITOR, expires_at: "2027-01-01T00:00:00.000Z" }]],
    ["settings", [
      { key: "site.title", value: "Upgraded Gallery" },
      { key: "site.allow_downloads", value: "true" },
    ]],
    ["audit_log", [{ id: "upg-audit", actor_id: OWNER, action: "user.created", target_id: EDITOR, details: '{"role":"editor"}', created_at: T(1), address: "203.0.113.9", user_agent: "curl/8", target_type: "user" }]],
    ["photos", [
      photo(P.publicReady, OWNER, 10, {
        visibility: "public", title: "Harbour at dawn", caption: "Boats, fog", alt_text: "Fishing boats", taken_at: "2026-11-10T07:30:00",
        camera_make: "Canon", camera_model: "Canon EOS 40D", camera_slug: "canon-eos-40d", lens: "EF 50mm f/1.8", lens_slug: "ef-50mm-f-1-8",
        focal_length: 50, aperture: 1.8, exposure_time: "1/250", iso: 200, gps_latitude: 59.91, gps_longitude: 10.75, gps_altitude: 12.5, show_location: 1,
        thumbhash: "1QcSHQRnh493V4dIh4eXh1h4kJUI", dominant_color: "#335577", allow_download: 1, rotation: 90, rating: 4, label: "green",
      }),
      // Company words in the maker: the camera names migration (2026-11-29T0000) gives it a new URL name.
      photo(P.privateReady, OWNER, 11, { title: "Kitchen", camera_make: "OLYMPUS IMAGING CORP.", camera_model: "E-P3", camera_slug: "olympus-imaging-corp-e-p3", taken_at: "2026-11-11T18:00:00" }),
      photo(P.processing, OWNER, 12, { status: "processing", width: null, height: null }),
      photo(P.failed, OWNER, 13, { status: "failed", failure_reason: "The file is not an image this server can read.", caption: "From the old phone", original_type: "application/octet-stream" }),
      photo(P.trashed, OWNER, 14, { visibility: "unlisted", trashed_at: T(20) }),
      photo(P.membersOfEditor, EDITOR, 15, { visibility: "members", title: "Team lunch", taken_at: null }),
    ]],
    ["photo_variants", [...variants(P.publicReady), ...variants(P.privateReady), ...variants(P.membersOfEditor), ...variants(P.trashed)]],
    ["jobs", [
      { id: "upg-job-queued", kind: "photo.process", photo_id: P.processing, priority: 10, status: "queued", attempts: 0, lease_expires_at: null, last_error: null, created_at: T(12), updated_at: T(12) },
      { id: "upg-job-failed", kind: "photo.process", photo_id: P.failed, priority: 10, status: "failed", attempts: 3, lease_expires_at: null, last_error: "unreadable", created_at: T(13), updated_at: T(13, 11) },
      { id: "upg-job-done", kind: "photo.process", photo_id: P.publicReady, priority: 10, status: "done", attempts: 1, lease_expires_at: null, last_error: null, created_at: T(10), updated_at: T(10, 11) },
    ]],
    ["api_tokens", [{ id: "upg-token", user_id: OWNER, name: "Laptop import", token_hash: "ab".repeat(32), token_hint: "cs_ab12", scopes: "upload photos:read", created_at: T(4), last_used_at: T(5), expires_at: null }]],
    ["upload_locks", [{ upload_id: "upg-upload", holder: "request-1", expires_at: T(16), release_requested: 0 }]],
    ["rate_limits", [{ key: "signin:address:203.0.113.7", count: 3, resets_at: T(16) }]],
    // Past PostgreSQL's 2 GiB integer: the column is bigint.
    ["pending_uploads", [{ upload_id: "upg-upload", owner_id: OWNER, declared_bytes: 3_000_000_000, created_at: T(16) }]],
    ["tags", [
      { id: "upg-tag-sea", name: "Sea", key: "sea", created_at: T(10) },
      { id: "upg-tag-home", name: "Home", key: "home", created_at: T(11) },
    ]],
    ["photo_tags", [
      { photo_id: P.publicReady, tag_id: "upg-tag-sea", sort_at: T(10) },
      { photo_id: P.privateReady, tag_id: "upg-tag-home", sort_at: T(11) },
    ]],
    ["albums", [
      { id: A.parent, owner_id: OWNER, slug: "trips", title: "Trips", description: "Everywhere we went", visibility: "public", parent_id: null, sort: "taken-desc", cover_photo_id: P.publicReady, created_at: T(10), updated_at: T(10) },
      { id: A.child, owner_id: OWNER, slug: "trips-oslo", title: "Oslo", description: "", visibility: "members", parent_id: A.parent, sort: "manual", cover_photo_id: null, created_at: T(11), updated_at: T(11) },
      { id: A.editors, owner_id: EDITOR, slug: "lunches", title: "Lunches", description: "", visibility: "private", parent_id: null, sort: "uploaded-asc", cover_photo_id: null, created_at: T(15), updated_at: T(15) },
    ]],
    ["album_photos", [
      { album_id: A.parent, photo_id: P.publicReady, order_key: "a0", photo_sort_at: T(10), photo_created_at: T(10, 12), added_at: T(10) },
      { album_id: A.child, photo_id: P.privateReady, order_key: "a0", photo_sort_at: T(11), photo_created_at: T(11, 12), added_at: T(11) },
      { album_id: A.editors, photo_id: P.membersOfEditor, order_key: "a0", photo_sort_at: T(15), photo_created_at: T(15, 12), added_at: T(15) },
    ]],
    ["album_slugs", [{ slug: "old-trips", album_id: A.parent, created_at: T(9) }]],
    ["shares", [
      {
        id: "upg-share", key: "upgradeShareKey123456789", owner_id: OWNER, title: "For the family", message: "Pick your favourites", album_id: null,
        password_hash: passwordHash, grant_version: 2, expires_at: "2027-06-01T00:00:00.000Z", max_views: 50, view_count: 4, download_count: 1,
        last_visited_at: T(17), download: "copy", allow_zip: 1, show_exif: 0, show_location: 0, allow_picks: 1, pick_limit: 3,
        selection_locked_at: null, revoked_at: null, created_at: T(16), updated_at: T(17),
      },
      { id: "upg-share-album", key: "upgradeAlbumShareKey1234", owner_id: OWNER, title: "Trips", album_id: A.parent, revoked_at: T(18), created_at: T(16), updated_at: T(18) },
    ]],
    ["share_photos", [
      { share_id: "upg-share", photo_id: P.publicReady, position: 0 },
      { share_id: "upg-share", photo_id: P.privateReady, position: 1 },
    ]],
    ["share_visitors", [{ id: "upg-visitor", share_id: "upg-share", token_hash: "cd".repeat(32), name: "Grandma", email: "gran@example.test", sent_at: T(17), owner_seen_at: null, created_at: T(17), updated_at: T(17), visit_id: "visit-1" }]],
    ["share_feedback", [{ visitor_id: "upg-visitor", photo_id: P.privateReady, share_id: "upg-share", is_picked: 1, comment: "This one!", updated_at: T(17) }]],
    ["share_access_log", [{ id: "upg-access", share_id: "upg-share", created_at: T(17), event: "view", photo_id: null, address: "198.51.100.4", address_is_hashed: 0, user_agent: "Firefox" }]],
    ["people", [{ id: "upg-person", owner_id: OWNER, name: "Ulla", is_hidden: 0, cover_face_id: "upg-face", created_at: T(18), updated_at: T(18) }]],
    ["faces", [{ id: "upg-face", photo_id: P.privateReady, person_id: "upg-person", box_left: 0.25, box_top: 0.1, box_width: 0.2, box_height: 0.3, score: 0.98, descriptor: Buffer.alloc(512, 7), source: "detected", created_at: T(18) }]],
    ["photo_face_scans", [{ photo_id: P.privateReady, face_count: 1, is_capped: 0, scanned_at: T(18) }]],
    ["person_suggestion_rejections", [{ person_id: "upg-person", suggested_person_id: "upg-person", created_at: T(18) }]],
    ["face_consents", [{ user_id: OWNER, agreed: 1, decided_at: T(18) }]],
  ];
}

/**
 * Fills every table the schema has: the hand-written rows where they exist, two filler rows in a
 * table they do not know (a later migration's), nothing in the derived ones. Answers what it filled.
 * `set` (0 for the first) makes the rows' ids and unique values their own, so several sets, written
 * at different schemas, live in one database.
 */
export async function fillRepresentativeRows(db: AnyDatabase, schema: TableInfo[], passwordHash: string, set = 0): Promise<string[]> {
  const tables = new Map(schema.map((table) => [table.name, table]));
  const planned = representativeRows(passwordHash, set === 0 ? "" : `-${set}`);
  const filled: string[] = [];
  for (const [name, rows] of planned) {
    const table = tables.get(name);
    if (!table) continue;
    await insertRows(db, table, rows, set);
    filled.push(name);
  }
  for (const table of tables.values()) {
    if (isDerivedTable(table.name) || filled.includes(table.name)) continue;
    // A table whose rows its migration made (media_access_version's one row) is kept as it is.
    const existing = set === 0 ? await db.selectFrom(table.name).select(sql`count(*)`.as("count")).executeTakeFirstOrThrow() : { count: 0 };
    if (Number((existing as Row).count) > 0) MADE_BY_MIGRATIONS.add(table.name);
    else if (!MADE_BY_MIGRATIONS.has(table.name)) await insertRows(db, table, [{}, {}], set);
    filled.push(table.name);
  }
  return filled;
}

/** Tables found holding rows their migration made; never filled, in any set. */
const MADE_BY_MIGRATIONS = new Set<string>(["media_access_version"]);

export type Snapshot = Map<string, { table: TableInfo; rows: Map<string, Row> }>;

/** Every row of `tables`, keyed by its primary key; `schema` is what describeTables answers for the database now. */
export async function snapshotRows(db: AnyDatabase, schema: TableInfo[], tables: string[]): Promise<Snapshot> {
  const described = new Map(schema.map((table) => [table.name, table]));
  const snapshot: Snapshot = new Map();
  for (const name of tables) {
    const table = described.get(name);
    if (!table) throw new Error(`No table ${name}`);
    const key = table.primaryKey.length > 0 ? table.primaryKey : table.columns.map((column) => column.name);
    const rows = (await db.selectFrom(name).selectAll().execute()) as Row[];
    snapshot.set(name, { table, rows: new Map(rows.map((row) => [JSON.stringify(key.map((column) => row[column])), row])) });
  }
  return snapshot;
}

/**
 * Old rows' values a migration changes on purpose, by table, column and row key: what they must
 * be afterwards whichever schema they started from.
 */
const CHANGED_ON_PURPOSE: Record<string, Record<string, { by: string; expected: (row: Row) => unknown }>> = {
  photos: {
    // The maker without company words.
    camera_slug: { by: "2026-11-29T0000-camera-display-names", expected: (row) => (row.camera_make === "OLYMPUS IMAGING CORP." ? "olympus-e-p3" : row.camera_slug) },
  },
};

/** What a photo's camera_slug is once both slug migrations have run over it. */
function cameraSlugOf(row: Row): string | null {
  if (row.camera_make === "Canon") return "canon-eos-40d";
  if (row.camera_make === "OLYMPUS IMAGING CORP.") return "olympus-e-p3";
  return null;
}

/**
 * New columns whose old rows are filled by their migration rather than by a literal default: what
 * each old row must hold (a function of the row after the upgrade).
 */
const BACKFILLED: Record<string, Record<string, (row: Row) => boolean>> = {
  photos: {
    // 2026-11-24T0200: a random key for every photo already there.
    publication_key: (row) => typeof row.publication_key === "string" && row.publication_key.length >= 12,
    // 2026-11-28T0000 and 2026-11-29T0000: from the camera and the lens.
    camera_slug: (row) => row.camera_slug === cameraSlugOf(row),
    lens_slug: (row) => row.lens_slug === (row.lens === "EF 50mm f/1.8" ? "ef-50mm-f-1-8" : null),
    // 2026-12-02T0400: a rating or label already there was set by its owner (nothing else could set one).
    rating_by_owner: (row) => Number(row.rating_by_owner) === (Number(row.rating ?? 0) !== 0 ? 1 : 0),
    label_by_owner: (row) => Number(row.label_by_owner) === (row.label !== null && row.label !== undefined ? 1 : 0),
    // 2026-12-03T0200: a title or caption already there was set by its owner (nothing else could set one).
    title_by_owner: (row) => Number(row.title_by_owner) === ((row.title ?? "") !== "" ? 1 : 0),
    caption_by_owner: (row) => Number(row.caption_by_owner) === ((row.caption ?? "") !== "" ? 1 : 0),
  },
  face_consents: {
    // 2026-12-05T0100: an answer already there was given to the words shown then (no admin's
    // words in these rows: the default, as that migration froze it), by their SHA-256.
    text_sha256: (row) => row.text_sha256 === "4b0c775e72ac8d3b6925517b73f1db35c581e5a2ed3975efb03b0cbe9b2325c8",
  },
};

/**
 * What is wrong with the rows after the upgrade, compared with before: a row lost or added, an
 * old value changed (other than on purpose by a migration after `from`, the schema the rows were
 * written at), a new column not at its default. Empty when all is well. A running server adds rows
 * of its own (the audit of a sign-in, the recurring jobs): `newRowsAllowedIn` names those tables.
 */
export function compareSnapshots(before: Snapshot, after: Snapshot, from: string, options: { newRowsAllowedIn?: string[] | "all" } = {}): string[] {
  const problems: string[] = [];
  for (const [name, { rows: oldRows }] of before) {
    const now = after.get(name);
    if (!now) {
      problems.push(`table ${name} is gone`);
      continue;
    }
    const oldColumns = new Set(before.get(name)?.table.columns.map((column) => column.name));
    if (options.newRowsAllowedIn !== "all" && !options.newRowsAllowedIn?.includes(name)) {
      for (const key of now.rows.keys()) if (!oldRows.has(key)) problems.push(`${name} ${key}: a row appeared`);
    }
    for (const [key, oldRow] of oldRows) {
      const newRow = now.rows.get(key);
      if (!newRow) {
        problems.push(`${name} ${key}: the row is gone`);
        continue;
      }
      for (const column of now.table.columns) {
        const value = newRow[column.name];
        const change = CHANGED_ON_PURPOSE[name]?.[column.name];
        if (oldColumns.has(column.name)) {
          const expected = change && from < change.by ? change.expected(oldRow) : oldRow[column.name];
          if (!sameValue(value, expected)) problems.push(`${name} ${key}.${column.name}: was ${show(oldRow[column.name])}, expected ${show(expected)}, now ${show(value)}`);
          continue;
        }
        const backfilled = BACKFILLED[name]?.[column.name];
        if (backfilled) {
          if (!backfilled(newRow)) problems.push(`${name} ${key}.${column.name}: backfilled as ${show(value)}`);
          continue;
        }
        const fallback = literalDefault(column);
        if (!fallback) {
          problems.push(`${name}.${column.name} is new and has no literal default (${column.defaultText}): say in tests/helpers/schema-history.ts's BACKFILLED what old rows get`);
          continue;
        }
        if (!sameValue(value, fallback.value)) problems.push(`${name} ${key}.${column.name}: new column should hold its default ${show(fallback.value)}, holds ${show(value)}`);
      }
    }
  }
  return problems;
}

function sameValue(actual: unknown, expected: unknown): boolean {
  if (Buffer.isBuffer(actual) || Buffer.isBuffer(expected) || actual instanceof Uint8Array) {
    return Buffer.from(actual as Uint8Array).equals(Buffer.from(expected as Uint8Array));
  }
  // PostgreSQL answers bigint as text.
  if (typeof actual === "string" && typeof expected === "number") return actual === String(expected);
  return actual === expected;
}

function show(value: unknown): string {
  return Buffer.isBuffer(value) ? `<${value.length} bytes>` : JSON.stringify(value);
}

/**
 * The tables the database keeps itself, checked by what they must hold for the old rows: every
 * photo has its search document (with its title and tags) and every owner's storage use adds up.
 */
export async function derivedTablesProblems(db: Kysely<Database>): Promise<string[]> {
  const problems: string[] = [];
  const photos = await db.selectFrom("photos").select(["id", "title", "owner_id", "original_size"]).execute();
  const documents = new Map((await db.selectFrom("photo_search").select(["photo_id", "document"]).execute()).map((row) => [row.photo_id, row.document]));
  const tagNames = await db.selectFrom("photo_tags").innerJoin("tags", "tags.id", "photo_tags.tag_id").select(["photo_tags.photo_id", "tags.name"]).execute();
  for (const each of photos) {
    const document = documents.get(each.id);
    if (document === undefined) {
      problems.push(`photo ${each.id} has no search document`);
      continue;
    }
    for (const word of [each.title, ...tagNames.filter((tag) => tag.photo_id === each.id).map((tag) => tag.name)]) {
      if (word && !document.includes(word)) problems.push(`photo ${each.id}'s search document ${JSON.stringify(document)} lacks ${JSON.stringify(word)}`);
    }
  }
  const variantBytes = await db.selectFrom("photo_variants").innerJoin("photos", "photos.id", "photo_variants.photo_id").select(["photos.owner_id", "photo_variants.byte_size"]).execute();
  const usage = await db.selectFrom("storage_usage").selectAll().execute();
  const owners = new Set(photos.map((each) => each.owner_id));
  for (const owner of owners) {
    const row = usage.find((each) => each.owner_id === owner);
    const own = photos.filter((each) => each.owner_id === owner);
    const expected = {
      photo_count: own.length,
      original_bytes: own.reduce((sum, each) => sum + Number(each.original_size), 0),
      variant_bytes: variantBytes.filter((each) => each.owner_id === owner).reduce((sum, each) => sum + Number(each.byte_size), 0),
    };
    const actual = row && { photo_count: Number(row.photo_count), original_bytes: Number(row.original_bytes), variant_bytes: Number(row.variant_bytes) };
    if (JSON.stringify(actual) !== JSON.stringify(expected)) problems.push(`storage use of ${owner}: ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
  }
  problems.push(...(await slugGroupsProblems(db)));
  return problems;
}

/**
 * What photo_slug_groups holds that the photos do not say, and the reverse: each camera spelling
 * and lens spelling of photos outside the trash, per visibility, owner and state, with its count,
 * worked out here from the photo rows (not by the migration's SQL). Empty when they agree.
 */
export async function slugGroupsProblems(db: Kysely<Database>): Promise<string[]> {
  const photos = await db
    .selectFrom("photos")
    .select(["camera_slug", "camera_make", "camera_model", "lens_slug", "lens", "visibility", "owner_id", "status"])
    .where("trashed_at", "is", null)
    .execute();
  const expected = new Map<string, number>();
  const count = (key: unknown[]) => expected.set(JSON.stringify(key), (expected.get(JSON.stringify(key)) ?? 0) + 1);
  for (const photo of photos) {
    const who = [photo.visibility, photo.owner_id, photo.status];
    if (photo.camera_slug !== null) count(["camera", photo.camera_slug, photo.camera_make ?? "", photo.camera_model ?? "", ...who]);
    if (photo.lens_slug !== null) count(["lens", photo.lens_slug, "", photo.lens ?? "", ...who]);
  }
  const stored = await db.selectFrom("photo_slug_groups").selectAll().execute();
  const actual = new Map(stored.map((row) => [JSON.stringify([row.kind, row.slug, row.make, row.label, row.visibility, row.owner_id, row.status]), Number(row.photo_count)]));
  const problems: string[] = [];
  for (const [key, photoCount] of expected) if (actual.get(key) !== photoCount) problems.push(`slug group ${key}: ${actual.get(key) ?? "missing"}, expected ${photoCount}`);
  for (const [key, photoCount] of actual) if (!expected.has(key)) problems.push(`slug group ${key}: ${photoCount}, expected none`);
  return problems;
}
