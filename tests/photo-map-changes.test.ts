import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Database } from "@/src/db/database";
import { listPhotosChangedAfter, readPhotoMapChangesMark } from "@/src/map/photo-map-changes.repository";
import { insertPhotoRows, insertUsers } from "./helpers/direct-rows";
import { openFreshDatabase } from "./helpers/test-database";

// The log of photos changed for the map (migration 2026-12-05T0200-photo-map-changes): each app
// process reads it from where it last stood to patch its map indexes for other instances' changes.
// Every write the map can show must be logged, whoever makes it; a write it cannot show must not
// be (processing's many updates would patch every index for nothing); and a reader must never step
// past a change that commits after it looked (on PostgreSQL a lower sequence number can commit
// after a higher one).

const databaseKind = inject("databaseKind");
let db: Kysely<Database>;
let remove: () => Promise<void>;
const PLACE = { gps_latitude: 41.9, gps_longitude: 12.5, show_location: 1 };

beforeAll(async () => {
  ({ db, remove } = await openFreshDatabase(databaseKind));
  await insertUsers(db, [{ id: "log-owner", email: "log-owner@example.test", name: "Owner", role: "editor" }]);
});

afterAll(async () => {
  await remove?.();
});

/** The photos logged since the log was last cleared, each once, sorted. */
async function logged(): Promise<string[]> {
  const rows = await db.selectFrom("photo_map_changes").select("photo_id").execute();
  return [...new Set(rows.map((row) => row.photo_id))].sort();
}

const clearLog = () => db.deleteFrom("photo_map_changes").execute();

describe("the log of photos changed for the map", () => {
  it("names every photo inserted, deleted or changed in what the map reads, and none changed in anything else", async () => {
    await clearLog();
    await insertPhotoRows(db, [
      { id: "log-1", owner_id: "log-owner", sort_at: "2024-01-01T00:00:00.000Z", visibility: "public", ...PLACE },
      { id: "log-2", owner_id: "log-owner", sort_at: "2024-01-02T00:00:00.000Z", visibility: "public", ...PLACE },
      { id: "log-3", owner_id: "log-owner", sort_at: "2024-01-03T00:00:00.000Z", visibility: "private", ...PLACE },
    ]);
    expect(await logged()).toEqual(["log-1", "log-2", "log-3"]);

    const steps: Array<[string, () => Promise<unknown>, string[]]> = [
      ["a title, a rating, the updated time", () => db.updateTable("photos").set({ title: "Title", rating: 3, updated_at: "2024-02-01T00:00:00.000Z" }).execute(), []],
      ["a column the map reads written with its own value", () => db.updateTable("photos").set({ visibility: "public", gps_latitude: 41.9 }).where("id", "=", "log-1").execute(), []],
      ["moved", () => db.updateTable("photos").set({ gps_latitude: 45.4, gps_longitude: 9.2 }).where("id", "=", "log-1").execute(), ["log-1"]],
      ["its place named", () => db.updateTable("photos").set({ place_city: "Milan", place_region: "Lombardy", place_country_code: "IT" }).where("id", "=", "log-1").execute(), ["log-1"]],
      ["made private", () => db.updateTable("photos").set({ visibility: "private" }).where("id", "=", "log-2").execute(), ["log-2"]],
      ["its location hidden", () => db.updateTable("photos").set({ show_location: 0 }).where("id", "=", "log-2").execute(), ["log-2"]],
      ["shown at city precision", () => db.updateTable("photos").set({ location_precision: "city" }).where("id", "=", "log-3").execute(), ["log-3"]],
      ["back to processing", () => db.updateTable("photos").set({ status: "processing" }).where("id", "=", "log-3").execute(), ["log-3"]],
      ["trashed", () => db.updateTable("photos").set({ trashed_at: "2024-03-01T00:00:00.000Z" }).where("id", "=", "log-1").execute(), ["log-1"]],
      ["deleted", () => db.deleteFrom("photos").where("id", "=", "log-3").execute(), ["log-3"]],
      ["several at once", () => db.deleteFrom("photos").where("id", "in", ["log-1", "log-2"]).execute(), ["log-1", "log-2"]],
    ];
    for (const [step, change, expected] of steps) {
      await clearLog();
      await change();
      expect(await logged(), step).toEqual(expected);
    }
  });

  it("is read from where a reader stood, and forgets rows older than a day", async () => {
    await insertUsers(db, [{ id: "read-owner", email: "read-owner@example.test", name: "Reader", role: "editor" }]);
    const mark = await readPhotoMapChangesMark(db);
    await insertPhotoRows(db, [{ id: "read-1", owner_id: "read-owner", sort_at: "2024-01-01T00:00:00.000Z", ...PLACE }]);
    const next = await readPhotoMapChangesMark(db);
    await db.updateTable("photos").set({ visibility: "public" }).where("id", "=", "read-1").execute();
    // At least the photo (PostgreSQL may answer a few older ones again: its mark is the oldest transaction still open anywhere).
    expect(await listPhotosChangedAfter(db, mark, 100)).toContain("read-1");
    expect(await listPhotosChangedAfter(db, next, 100)).toContain("read-1");
    if (databaseKind === "sqlite") expect(await listPhotosChangedAfter(db, await readPhotoMapChangesMark(db), 100)).toEqual([]);

    // A row from two days ago goes when the next thousandth row is written; today's stay.
    await sql`update photo_map_changes set changed_at = changed_at - ${2 * 24 * 60 * 60} where photo_id = 'read-1'`.execute(db);
    const { count } = await db.selectFrom("photo_map_changes").select((eb) => eb.fn.countAll<string>().as("count")).executeTakeFirstOrThrow();
    // Rows of today up to the next thousandth (written straight into the log: photos' own triggers would cost seconds).
    const filler =
      databaseKind === "postgres"
        ? sql`insert into photo_map_changes (photo_id, changed_at, xact_id) select 'filler', extract(epoch from now())::bigint, 0 from generate_series(1, 1000)`
        : sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 1000) insert into photo_map_changes (photo_id, changed_at) select 'filler', cast(strftime('%s', 'now') as integer) from n`;
    await filler.execute(db);
    const rows = await db.selectFrom("photo_map_changes").select("photo_id").execute();
    expect(rows.some((row) => row.photo_id === "read-1")).toBe(false);
    expect(rows.filter((row) => row.photo_id === "filler")).toHaveLength(1_000);
    expect(rows.length).toBeGreaterThan(Number(count));
  });

  it.runIf(databaseKind === "postgres")("never lets a reader step past a change that commits after it looked, though its sequence number is lower", async () => {
    await insertUsers(db, [{ id: "late-owner", email: "late-owner@example.test", name: "Late", role: "editor" }]);
    await insertPhotoRows(db, [
      { id: "late-slow", owner_id: "late-owner", sort_at: "2024-01-01T00:00:00.000Z", ...PLACE },
      { id: "late-fast", owner_id: "late-owner", sort_at: "2024-01-02T00:00:00.000Z", ...PLACE },
    ]);
    await clearLog();
    const mark = await readPhotoMapChangesMark(db);
    let commitSlow = () => undefined as void;
    const slowMayCommit = new Promise<void>((resolve) => (commitSlow = resolve));
    let slowWrote = () => undefined as void;
    const slowHasWritten = new Promise<void>((resolve) => (slowWrote = resolve));
    // The slow transaction logs its row first (the lower seq) and commits last.
    const slow = db.transaction().execute(async (trx) => {
      await trx.updateTable("photos").set({ visibility: "public" }).where("id", "=", "late-slow").execute();
      slowWrote();
      await slowMayCommit;
    });
    await slowHasWritten;
    await db.updateTable("photos").set({ visibility: "public" }).where("id", "=", "late-fast").execute();
    const next = await readPhotoMapChangesMark(db);
    expect(await listPhotosChangedAfter(db, mark, 100)).toEqual(["late-fast"]);
    commitSlow();
    await slow;
    const seqOf = async (photoId: string) => Number((await db.selectFrom("photo_map_changes").select("seq").where("photo_id", "=", photoId).executeTakeFirstOrThrow()).seq);
    expect(await seqOf("late-slow")).toBeLessThan(await seqOf("late-fast"));
    // Read from where the first read left off: the slow one is found, though a reader by seq would have passed it.
    expect(await listPhotosChangedAfter(db, next, 100)).toContain("late-slow");
  });
});
