// bench:scale – a fresh, migrated database (SQLite file or PostgreSQL database) filled with `size`
// photos: users by insertUser, photos many rows a statement (insertPhotos, the rows insertPhoto
// would write), every processed photo's variant rows by insertVariants (many photos' rows per call),
// in a few big transactions (smaller ones on PostgreSQL, see PHOTOS_PER_TRANSACTION). Only the photos the benchmark requests get real files. Another benchmark may extend
// the rows (its own titles, cameras, sizes) and add rows of its own in the same transactions
// (SeedExtension: bench:search's tags and albums).
import { createHash, randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, sql, SqliteDialect } from "kysely";
import { Pool } from "pg";
import type { Role } from "@/src/access/roles";
import type { Database, NewPhotoRow, PhotoStatus, PhotoVariantRow, Visibility } from "@/src/db/database";
import { migrateToLatest } from "@/src/db/migrate";
import { migrationProvider } from "@/src/db/migrations";
import { FILL_PHOTO_SLUG_GROUPS } from "@/src/db/migrations/2026-12-04T0000-camera-lens-groups";
import { cameraSlug, lensSlug } from "@/src/photos/camera-slug";
import { newPublicationKey } from "@/src/photos/photo-publication";
import { insertVariants } from "@/src/photos/photos.repository";
import { hashPassword } from "@/src/users/password";
import { buildNewUser, insertUser } from "@/src/users/users.repository";
import { createFreshPostgresDatabase, dropPostgresDatabase as dropTestDatabase } from "../../tests/helpers/test-database";
import { makeTemporaryDirectory, onCleanup } from "./bench-app";
import type { SamplePhoto } from "./scale-sample";

export type DatabaseKind = "sqlite" | "postgres";

export interface BenchUser {
  id: string;
  email: string;
  password: string;
  role: Role;
}

/** One seeded photo, as the benchmark needs to find it again. */
export interface SeededPhoto {
  id: string;
  sortAt: string;
  visibility: Visibility;
  status: PhotoStatus;
  publicationKey: string;
  /** `${format}-${width}` → storage key. */
  variantKeys: Map<string, string>;
}

export interface SeededDatabase {
  kind: DatabaseKind;
  size: number;
  /** The app's DATA_DIR: the SQLite file (on SQLite) and the media files. */
  dataDirectory: string;
  /** Set on PostgreSQL. */
  databaseUrl?: string;
  users: { admin: BenchUser; editor: BenchUser; member: BenchUser };
  /** Every photo, newest first (sort_at, id descending: the gallery's order). */
  photos: SeededPhoto[];
  seedSeconds: number;
  /** Of seedSeconds, the migrations run after the rows (SeedExtension.seedBeforeMigration): their backfill. */
  laterMigrationSeconds: number;
}

const YEAR_MS = 365.25 * 24 * 3600 * 1000;
const SPAN_MS = 15 * YEAR_MS;
const PHOTOS_PER_TRANSACTION = 10_000;
// Photos are inserted many rows a statement: under SQLite's 32,766 bound parameters whatever the row's width.
const PHOTO_PARAMETERS_PER_INSERT = 30_000;
// 6 columns a row: 5,000 rows stay under SQLite's 32,766 and PostgreSQL's 65,535 bound parameters.
const VARIANT_ROWS_PER_INSERT = 5_000;
// "A few" unfinished photos, the same number at every size, so /admin's queue lists the same rows.
const PROCESSING_PHOTOS = 12;
const FAILED_PHOTOS = 5;
const FILE_EXTENSIONS = { jpeg: "jpg", webp: "webp", avif: "avif" } as const;

// The key shapes of src/photos/photo-files.ts (originalKey, variantPrefix), written out here
// because that module is "server-only", which only a Next.js build can import.
const originalKey = (photoId: string) => `originals/${photoId.slice(0, 2)}/${photoId}`;
const variantPrefix = (photoId: string) => `variants/${photoId.slice(0, 2)}/${photoId}/`;

/** A small deterministic generator (mulberry32), so both sizes get the same mix. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

function pickVisibility(random: number): Visibility {
  if (random < 0.8) return "public";
  if (random < 0.88) return "members";
  if (random < 0.95) return "private";
  return "unlisted";
}

const BENCH_DATABASE_PREFIX = "bench_scale_";

/** A fresh PostgreSQL database next to the one in `adminUrl`, named bench_scale_…; answers its URL. */
export function createPostgresDatabase(adminUrl: string, label: string): Promise<string> {
  return createFreshPostgresDatabase(adminUrl, `${BENCH_DATABASE_PREFIX}${label}`);
}

export async function dropPostgresDatabase(adminUrl: string, databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  if (!name.startsWith(BENCH_DATABASE_PREFIX)) throw new Error(`Refusing to drop ${name}: not a ${BENCH_DATABASE_PREFIX} database`);
  await dropTestDatabase(adminUrl, databaseUrl);
}

function openDatabase(kind: DatabaseKind, dataDirectory: string, databaseUrl?: string): Kysely<Database> {
  if (kind === "postgres") return new Kysely<Database>({ dialect: new PostgresDialect({ pool: new Pool({ connectionString: databaseUrl, max: 1 }) }) });
  const file = new SQLite(path.join(dataDirectory, "contact-sheet.sqlite"));
  // As the app opens it (WAL); no fsync while seeding: a crash here only loses a bench database.
  file.pragma("journal_mode = WAL");
  file.pragma("synchronous = OFF");
  file.pragma("foreign_keys = ON");
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) });
}

async function insertBenchUsers(db: Kysely<Database>, size: number): Promise<SeededDatabase["users"]> {
  const now = new Date().toISOString();
  const make = async (role: Role, label: string): Promise<BenchUser> => {
    const user = { email: `bench-${label}-${size}@example.test`, password: `bench-${label}-password-123`, role };
    const row = buildNewUser({ email: user.email, name: `Bench ${label}`, role, passwordHash: await hashPassword(user.password), now });
    await insertUser(db, row);
    return { id: row.id, ...user };
  };
  return { admin: await make("admin", "admin"), editor: await make("editor", "editor"), member: await make("viewer", "member") };
}

export type PlannedPhotoRow = NewPhotoRow & { id: string; publication_key: string; sort_at: string; status: PhotoStatus; visibility: Visibility };

interface PlannedPhoto {
  row: PlannedPhotoRow;
  variants: PhotoVariantRow[];
}

/** What another benchmark adds to these photos: fields of its own on each row, and rows that refer to them. */
export interface SeedExtension {
  /** Once, after the users and before any photo (albums, tags). */
  prepare?: (db: Kysely<Database>, users: SeededDatabase["users"]) => Promise<void>;
  /** Fields to change on one photo's row; `index` counts from the oldest (0) to the newest (size - 1). */
  describePhoto?: (row: Readonly<PlannedPhotoRow>, index: number) => Partial<NewPhotoRow> | undefined;
  /** In each transaction, after its photos and variants: rows that refer to those photos (tags, album members). */
  addRows?: (transaction: Kysely<Database>, rows: PlannedPhotoRow[]) => Promise<void>;
  /**
   * Seed into the schema as it was just before this migration, then migrate to the latest: the
   * migration fills what it builds from the rows in one statement (its backfill) instead of its
   * triggers doing it row by row while seeding.
   */
  seedBeforeMigration?: string;
}

/** Migrates to the migration just before `name`. */
async function migrateToJustBefore(db: Kysely<Database>, name: string): Promise<void> {
  const names = Object.keys(await migrationProvider.getMigrations()).sort();
  const index = names.indexOf(name);
  if (index <= 0) throw new Error(`No migration before ${name}`);
  const { error } = await new Migrator({ db, provider: migrationProvider }).migrateTo(names[index - 1]);
  if (error) throw error instanceof Error ? error : new Error(`Migration failed: ${String(error)}`);
}

/** The `size` photos, oldest first; the newest is a few hours old, the oldest 15 years. */
function planPhotos(size: number, sample: SamplePhoto, owners: string[], extension: SeedExtension): PlannedPhoto[] {
  const random = createRandom(16);
  const now = Date.now();
  const step = SPAN_MS / size;
  const unfinished = new Map<number, PhotoStatus>();
  for (let index = 0; index < PROCESSING_PHOTOS + FAILED_PHOTOS; index += 1) {
    unfinished.set(Math.floor(((index + 0.5) * size) / (PROCESSING_PHOTOS + FAILED_PHOTOS)), index < PROCESSING_PHOTOS ? "processing" : "failed");
  }
  const planned: PlannedPhoto[] = [];
  let previousSortAt = "";
  for (let index = 0; index < size; index += 1) {
    const id = randomUUID();
    const status = unfinished.get(index) ?? "ready";
    // Every 40th photo shares its date with the one before (a burst), so the keyset's id tiebreak is used.
    const takenMs = now - SPAN_MS + index * step + random() * step * 0.9;
    const takenAt = index % 40 === 1 && previousSortAt ? previousSortAt : new Date(takenMs).toISOString();
    previousSortAt = takenAt;
    const uploadedAt = new Date(Math.min(now - 60_000, Date.parse(takenAt) + 3_600_000)).toISOString();
    const isReady = status === "ready";
    const sortAt = isReady ? takenAt : uploadedAt;
    const row: PlannedPhotoRow = {
      id,
      owner_id: owners[random() < 0.7 ? 0 : 1],
      sha256: randomBytes(32).toString("hex"),
      status,
      failure_reason: status === "failed" ? "The image could not be decoded: the file is truncated or corrupt." : null,
      visibility: pickVisibility(random()),
      original_key: originalKey(id),
      original_name: `IMG_${String(index).padStart(6, "0")}.jpg`,
      original_type: "jpeg",
      original_size: 2_190_194,
      width: isReady ? sample.width : null,
      height: isReady ? sample.height : null,
      title: index % 3 === 0 ? `Photo ${index}` : "",
      alt_text: index % 2 === 0 ? `A seeded photo, number ${index}` : "",
      taken_at: isReady ? takenAt : null,
      camera_make: isReady ? sample.metadata.exif.cameraMake : null,
      camera_model: isReady ? sample.metadata.exif.cameraModel : null,
      lens: isReady ? sample.metadata.exif.lens : null,
      // As processing sets them with the EXIF summary (src/photos/camera-slug.ts).
      camera_slug: isReady ? cameraSlug(sample.metadata.exif.cameraMake, sample.metadata.exif.cameraModel) : null,
      lens_slug: isReady ? lensSlug(sample.metadata.exif.lens) : null,
      focal_length: isReady ? sample.metadata.exif.focalLength : null,
      aperture: isReady ? sample.metadata.exif.aperture : null,
      exposure_time: isReady ? sample.metadata.exif.exposureTime : null,
      iso: isReady ? sample.metadata.exif.iso : null,
      gps_latitude: null,
      gps_longitude: null,
      gps_altitude: null,
      thumbhash: isReady ? sample.placeholder.thumbhash : null,
      dominant_color: isReady ? sample.placeholder.dominantColor : null,
      publication_key: newPublicationKey(),
      allow_download: null,
      sort_at: sortAt,
      created_at: uploadedAt,
      updated_at: uploadedAt,
    };
    Object.assign(row, extension.describePhoto?.(row, index));
    // A processed photo's rows: the sample's formats, widths and sizes, under keys of the worker's shape.
    const variants = isReady
      ? sample.variants.map((variant) => {
          const digest = createHash("sha256").update(`${id}:${variant.format}:${variant.width}`).digest("hex").slice(0, 20);
          return {
            photo_id: id,
            format: variant.format,
            width: variant.width,
            height: variant.height,
            storage_key: `${variantPrefix(id)}${variant.format}-${variant.width}-${digest}.${FILE_EXTENSIONS[variant.format]}`,
            byte_size: variant.bytes.length,
          };
        })
      : [];
    planned.push({ row, variants });
  }
  return planned;
}

/** Sort order of the gallery: sort_at, then id, both descending. */
function newestFirst(left: SeededPhoto, right: SeededPhoto): number {
  if (left.sortAt !== right.sortAt) return left.sortAt < right.sortAt ? 1 : -1;
  return left.id < right.id ? 1 : left.id > right.id ? -1 : 0;
}

/**
 * On PostgreSQL the rows are written with triggers off (session_replication_role = replica on the
 * seed's one connection) and what the triggers keep is then worked out once for every row: row by
 * row, every photo and variant updated its owner's one storage_usage row and refreshed its search
 * document, 8 to 110 ms a photo (5,000 photos: 559 s in 10,000-photo transactions, where each
 * update of the same row walks the versions the ones before left; 41 s in 100-photo ones), so
 * 100,000 never finished. Here: storage_usage and photo_slug_groups as their migrations fill them,
 * the search documents by the app's own photo_search_refresh. The rows themselves are the same as on SQLite.
 */
async function refreshWhatTriggersKeep(db: Kysely<Database>): Promise<void> {
  await sql`set session_replication_role = default`.execute(db);
  await sql`delete from storage_usage`.execute(db);
  await sql`insert into storage_usage (owner_id, photo_count, original_bytes, variant_bytes, companion_bytes)
    select p.owner_id, count(*), sum(p.original_size), coalesce(sum(v.bytes), 0),
      sum(coalesce(p.raw_companion_size, 0) + coalesce(p.motion_clip_size, 0) + coalesce(p.motion_playable_size, 0) + coalesce(p.playable_size, 0))
    from photos p left join (select photo_id, sum(byte_size) as bytes from photo_variants group by photo_id) v on v.photo_id = p.id
    group by p.owner_id`.execute(db);
  await sql`delete from photo_slug_groups`.execute(db);
  await sql.raw(FILL_PHOTO_SLUG_GROUPS).execute(db);
  await sql`select photo_search_refresh(array(select id from photos))`.execute(db);
}

/**
 * Many photo rows in one statement, as insertPhoto (src/photos/photos.repository.ts) writes one:
 * every row here is complete (planPhotos gives each its publication key), so nothing is defaulted.
 */
async function insertPhotos(db: Kysely<Database>, rows: NewPhotoRow[]): Promise<void> {
  if (rows.length > 0) await db.insertInto("photos").values(rows).execute();
}

/**
 * A fresh database of `kind` for one bench size, seeded: a temporary data folder and, on
 * PostgreSQL, a new database beside DATABASE_URL's (named after `label` and the size), dropped at
 * the bench's clean-up.
 */
export async function seedFreshDatabase(options: { label: string; kind: DatabaseKind; size: number; sample: SamplePhoto; extension?: SeedExtension }): Promise<SeededDatabase> {
  const { label, kind, size } = options;
  const dataDirectory = makeTemporaryDirectory(`contact-sheet-${label}-${kind}-${size}-`);
  let databaseUrl: string | undefined;
  if (kind === "postgres") {
    const adminUrl = process.env.DATABASE_URL as string;
    const created = await createPostgresDatabase(adminUrl, `${label}_${size}`);
    onCleanup(() => dropPostgresDatabase(adminUrl, created));
    databaseUrl = created;
  }
  return seedDatabase({ ...options, dataDirectory, databaseUrl });
}

/** Frees a seeded database's space now rather than at clean-up (its PostgreSQL database, its folder). */
export async function removeSeededDatabases(seeds: SeededDatabase[]): Promise<void> {
  for (const seeded of seeds) {
    if (seeded.databaseUrl) await dropPostgresDatabase(process.env.DATABASE_URL as string, seeded.databaseUrl);
    fs.rmSync(seeded.dataDirectory, { recursive: true, force: true });
  }
}

export async function seedDatabase(options: {
  kind: DatabaseKind;
  size: number;
  sample: SamplePhoto;
  dataDirectory: string;
  databaseUrl?: string;
  extension?: SeedExtension;
}): Promise<SeededDatabase> {
  const { kind, size, sample, dataDirectory, databaseUrl, extension = {} } = options;
  const startedAt = performance.now();
  const db = openDatabase(kind, dataDirectory, databaseUrl);
  try {
    if (extension.seedBeforeMigration) await migrateToJustBefore(db, extension.seedBeforeMigration);
    else await migrateToLatest(db);
    const users = await insertBenchUsers(db, size);
    const bypassTriggers = kind === "postgres" && !extension.seedBeforeMigration;
    if (bypassTriggers) await sql`set session_replication_role = replica`.execute(db);
    await extension.prepare?.(db, users);
    const planned = planPhotos(size, sample, [users.admin.id, users.editor.id], extension);
    const photosPerTransaction = PHOTOS_PER_TRANSACTION;
    const photosPerInsert = Math.max(1, Math.floor(PHOTO_PARAMETERS_PER_INSERT / Object.keys(planned[0]?.row ?? {}).length));
    for (let start = 0; start < planned.length; start += photosPerTransaction) {
      const chunk = planned.slice(start, start + photosPerTransaction);
      await db.transaction().execute(async (transaction) => {
        for (let offset = 0; offset < chunk.length; offset += photosPerInsert) {
          await insertPhotos(transaction, chunk.slice(offset, offset + photosPerInsert).map(({ row }) => row));
        }
        const variants = chunk.flatMap((photo) => photo.variants);
        for (let offset = 0; offset < variants.length; offset += VARIANT_ROWS_PER_INSERT) {
          await insertVariants(transaction, variants.slice(offset, offset + VARIANT_ROWS_PER_INSERT));
        }
        await extension.addRows?.(transaction, chunk.map((photo) => photo.row));
      });
    }
    if (bypassTriggers) await refreshWhatTriggersKeep(db);
    const laterMigrationsStartedAt = performance.now();
    if (extension.seedBeforeMigration) await migrateToLatest(db);
    const laterMigrationSeconds = (performance.now() - laterMigrationsStartedAt) / 1000;
    // What autovacuum would have done on a live server by now; SQLite is left as the app leaves it.
    if (kind === "postgres") await sql`ANALYZE`.execute(db);
    const photos = planned
      .map(({ row, variants }) => ({
        id: row.id,
        sortAt: row.sort_at,
        visibility: row.visibility as Visibility,
        status: row.status as PhotoStatus,
        publicationKey: row.publication_key,
        variantKeys: new Map(variants.map((variant) => [`${variant.format}-${variant.width}`, variant.storage_key])),
      }))
      .sort(newestFirst);
    return { kind, size, dataDirectory, databaseUrl, users, photos, seedSeconds: (performance.now() - startedAt) / 1000, laterMigrationSeconds };
  } finally {
    await db.destroy();
  }
}

/** Writes the sample's real variant files for these photos (and for no other) under DATA_DIR/media. */
export function writeVariantFiles(seeded: SeededDatabase, photos: SeededPhoto[], sample: SamplePhoto): void {
  for (const photo of photos) {
    for (const variant of sample.variants) {
      const key = photo.variantKeys.get(`${variant.format}-${variant.width}`);
      if (!key) throw new Error(`Photo ${photo.id} has no ${variant.format} ${variant.width} variant`);
      const filePath = path.join(seeded.dataDirectory, "media", key);
      fs.mkdirSync(path.dirname(filePath), { recursive: true });
      fs.writeFileSync(filePath, variant.bytes);
    }
  }
}
