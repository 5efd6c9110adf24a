import { sql } from "kysely";
import type { DatabaseHandle } from "@/src/db/client";

export interface SnapshotCounts {
  users: number;
  photos: number;
  albums: number;
  variants: number;
}

/** The last migration this database ran (names sort in the order they run), or null before any. */
export async function latestMigrationName(db: DatabaseHandle): Promise<string | null> {
  const exists = await db.introspection
    .getTables({ withInternalKyselyTables: true })
    .then((tables) => tables.some((table) => table.name === "kysely_migration"));
  if (!exists) return null;
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(db);
  return rows[0]?.name ?? null;
}

export async function countSnapshotRows(db: DatabaseHandle): Promise<SnapshotCounts> {
  const count = async (table: "users" | "photos" | "albums" | "photo_variants") =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<string | number>().as("count")).executeTakeFirstOrThrow()).count);
  return { users: await count("users"), photos: await count("photos"), albums: await count("albums"), variants: await count("photo_variants") };
}

/** Whether the site has anything a restore would replace: a user, a photo or an album. */
export async function hasSiteData(db: DatabaseHandle): Promise<boolean> {
  const tables = new Set((await db.introspection.getTables()).map((table) => table.name));
  for (const table of ["users", "photos", "albums"] as const) {
    if (tables.has(table) && (await db.selectFrom(table).select(sql<number>`1`.as("one")).limit(1).executeTakeFirst())) return true;
  }
  return false;
}

export interface NamedFile {
  key: string;
  size: number;
}

const PAGE_SIZE = 500;

/** Every stored file the database names (each photo's original, then its variants), page by page in id order. */
export async function* listNamedFiles(db: DatabaseHandle): AsyncGenerator<NamedFile[]> {
  let afterId: string | null = null;
  for (;;) {
    const photos: Array<{ id: string; original_key: string; original_size: number }> = await db
      .selectFrom("photos")
      .select(["id", "original_key", "original_size"])
      .$if(afterId !== null, (query) => query.where("id", ">", afterId as string))
      .orderBy("id")
      .limit(PAGE_SIZE)
      .execute();
    if (photos.length === 0) return;
    afterId = photos[photos.length - 1].id;
    const variants = await db
      .selectFrom("photo_variants")
      .select(["storage_key", "byte_size"])
      .where("photo_id", "in", photos.map((photo) => photo.id))
      .execute();
    yield [
      ...photos.map((photo) => ({ key: photo.original_key, size: Number(photo.original_size) })),
      ...variants.map((variant) => ({ key: variant.storage_key, size: Number(variant.byte_size) })),
    ];
  }
}
