// The search index is kept in step with the rows by the database itself (migrations
// 2026-11-28T0100-search-index, and 2026-11-29T0400-search-trigrams for substrings): every change
// path below is made with plain SQL, as any writer would, and the search, by words and by
// substrings, must follow at once, on SQLite and PostgreSQL alike.
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { ANONYMOUS_VIEWER, toViewer } from "@/src/access/viewer";
import type { Database } from "@/src/db/database";
import * as searchTrigrams from "@/src/db/migrations/2026-11-29T0400-search-trigrams";
import * as searchGalleryOrder from "@/src/db/migrations/2026-11-30T0200-search-gallery-order";
import { announcePhotosChanged } from "@/src/photos/photo-changes";
import { searchPhotosForViewer } from "@/src/search/search.service";
import { insertPhoto } from "@/src/photos/photos.repository";
import { copyPhotoTags, deleteTags } from "@/src/tags/tags.repository";
import { makeAlbum, type SearchLibrary, seedSearchLibrary, tagPhoto } from "./helpers/search-library";
import { openFreshDatabase } from "./helpers/test-database";

const databaseKind = inject("databaseKind");

let db: Kysely<Database>;
let remove: () => Promise<void>;
let library: SearchLibrary;

beforeAll(async () => {
  ({ db, remove } = await openFreshDatabase(databaseKind));
  library = await seedSearchLibrary(db, "i");
});
afterAll(() => remove());
beforeEach(() => announcePhotosChanged());

async function found(q: string, who: "visitor" | "editor" = "visitor"): Promise<string[]> {
  const names = new Map(Object.entries(library.ids).map(([name, id]) => [id, name]));
  const page = await searchPhotosForViewer(db, who === "visitor" ? ANONYMOUS_VIEWER : toViewer(library.editor), { q, limit: 100 });
  return page.photos.map((photo) => names.get(photo.id) ?? photo.id).sort();
}

/** A public photo titled "Ordered frame" (a copy of p1 otherwise), straight into the table. */
async function addOrderedPhoto(id: string, sortAt: string): Promise<void> {
  const base = await db.selectFrom("photos").selectAll().where("id", "=", library.ids.p1).executeTakeFirstOrThrow();
  // insertPhoto gives it a publication key of its own.
  const row: Partial<typeof base> = { ...base };
  delete row.publication_key;
  await insertPhoto(db, { ...(row as typeof base), id: `i-order-${id}`, sha256: `i-order-${id}`, title: "Ordered frame", caption: "", alt_text: "", visibility: "public", trashed_at: null, sort_at: sortAt });
}

/** Every match, page by page (3 a page, by keyset), against the photos' own gallery order. */
async function expectGalleryOrder(): Promise<void> {
  const paged: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await searchPhotosForViewer(db, ANONYMOUS_VIEWER, { q: "ordered", limit: 3, cursor });
    paged.push(...page.photos.map((photo) => photo.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  const rows = await db.selectFrom("photos").select(["id", "sort_at"]).where("title", "=", "Ordered frame").where("trashed_at", "is", null).execute();
  const byGallery = (a: { id: string; sort_at: string }, b: { id: string; sort_at: string }) => (a.sort_at === b.sort_at ? (a.id < b.id ? 1 : -1) : a.sort_at < b.sort_at ? 1 : -1);
  expect(paged).toEqual(rows.sort(byGallery).map((row) => row.id));
}

describe(`the search index follows its rows on ${databaseKind}`, () => {
  it("is backfilled for photos that existed before (the migration) and made for new ones", async () => {
    const rows = await db.selectFrom("photo_search").select("photo_id").execute();
    const photos = await db.selectFrom("photos").select("id").execute();
    expect(rows.map((row) => row.photo_id).sort()).toEqual(photos.map((photo) => photo.id).sort());
  });

  it("builds the trigram index from the rows already there (the migration), and takes it away again (down)", async () => {
    await searchTrigrams.down(db);
    await expect(found("*olley*")).rejects.toThrow();
    expect(await found("volleyball")).toEqual(["p2"]);
    await searchTrigrams.up(db);
    expect(await found("*olley*")).toEqual(["p2"]);
    expect(await found("*urich*")).toEqual(["p4"]);
  });

  it("follows a photo's title, caption, alt text, camera and lens", async () => {
    await db.updateTable("photos").set({ title: "Lighthouse", caption: "Foggy harbour", alt_text: "A red tower" }).where("id", "=", library.ids.p4).execute();
    expect(await found("lighthouse")).toEqual(["p4"]);
    expect(await found("harbour")).toEqual(["p4"]);
    expect(await found("tower")).toEqual(["p4"]);
    expect(await found("zurich")).toEqual([]);
    expect(await found("*ighthou*")).toEqual(["p4"]);
    expect(await found("*oggy*")).toEqual(["p4"]);
    expect(await found("*urich*")).toEqual([]);
    await db.updateTable("photos").set({ camera_make: "FUJIFILM", camera_model: "X-T4", lens: "XF23mmF1.4 R" }).where("id", "=", library.ids.p4).execute();
    expect(await found("fujifilm")).toEqual(["p4"]);
    expect(await found("xf23mmf1")).toEqual(["p4"]);
    expect(await found("iphone")).toEqual([]);
    expect(await found("*ujifil*")).toEqual(["p4"]);
    expect(await found("*phone*")).toEqual([]);
  });

  it("follows tags added, removed, renamed and merged", async () => {
    await tagPhoto(db, library.ids.p3, ["Glacier"]);
    expect(await found("glacier")).toEqual(["p3"]);
    await db.updateTable("tags").set({ name: "Icefield", key: "icefield" }).where("key", "=", "glacier").execute();
    expect(await found("glacier")).toEqual([]);
    expect(await found("icefield")).toEqual(["p3"]);
    expect(await found("*lacie*")).toEqual([]);
    expect(await found("*cefiel*")).toEqual(["p3"]);
    // Merge "Icefield" into "Summer" (p1's): p3 gets Summer, Icefield is gone.
    const [icefield, summer] = await Promise.all(["icefield", "summer"].map((key) => db.selectFrom("tags").select("id").where("key", "=", key).executeTakeFirstOrThrow()));
    await copyPhotoTags(db, [icefield.id], summer.id);
    await deleteTags(db, [icefield.id]);
    expect(await found("icefield")).toEqual([]);
    expect(await found("summer")).toEqual(["p1", "p3"]);
    await db.deleteFrom("photo_tags").where("photo_id", "=", library.ids.p3).execute();
    expect(await found("summer")).toEqual(["p1"]);
  });

  it("follows album membership, and only public albums' titles, through title and visibility changes and deletion", async () => {
    await makeAlbum(db, { id: "i-coast", slug: "coast", title: "Wild Coast", visibility: "public", ownerId: library.editor.id }, [library.ids.p2]);
    expect(await found("wild")).toEqual(["p2"]);
    await db.insertInto("album_photos").values({ album_id: "i-coast", photo_id: library.ids.p8, order_key: "b1", photo_sort_at: "2018-12-31T23:00:00.000Z", photo_created_at: "2018-12-31T23:00:00.000Z", added_at: new Date().toISOString() }).execute();
    expect(await found("wild")).toEqual(["p2", "p8"]);
    await db.deleteFrom("album_photos").where("album_id", "=", "i-coast").where("photo_id", "=", library.ids.p8).execute();
    expect(await found("wild")).toEqual(["p2"]);
    await db.updateTable("albums").set({ title: "Rough Shore" }).where("id", "=", "i-coast").execute();
    expect(await found("wild")).toEqual([]);
    expect(await found("rough")).toEqual(["p2"]);
    expect(await found("*ough*")).toEqual(["p2"]);
    // Made private: its title leaves the index, for everyone (even the owner).
    await db.updateTable("albums").set({ visibility: "private" }).where("id", "=", "i-coast").execute();
    expect(await found("rough", "editor")).toEqual([]);
    expect(await found("*ough*", "editor")).toEqual([]);
    await db.updateTable("albums").set({ visibility: "public" }).where("id", "=", "i-coast").execute();
    expect(await found("rough")).toEqual(["p2"]);
    await db.deleteFrom("albums").where("id", "=", "i-coast").execute();
    expect(await found("rough")).toEqual([]);
    // A private album's title is never indexed.
    const hidden = await db.selectFrom("photo_search").select("document").where("photo_id", "=", library.ids.p1).executeTakeFirstOrThrow();
    expect(hidden.document).not.toMatch(/hidden/i);
  });

  it("keeps a word's matches in gallery order: ties within a second and on one instant, before 1970, new photos, a changed date, the trash", async () => {
    // Inserted out of order: ids against their instants, three in one second, three on one instant.
    for (const [id, sortAt] of [
      ["m", "2023-05-05T10:00:00.500Z"],
      ["z", "2023-05-05T10:00:00.100Z"],
      ["a", "2023-05-05T10:00:00.900Z"],
      ["q", "2021-01-01T00:00:00.000Z"],
      ["b", "2021-01-01T00:00:00.000Z"],
      ["x", "2021-01-01T00:00:00.000Z"],
      ["moon", "1969-07-20T20:17:40.000Z"],
      ["old", "1900-01-01T00:00:00.000Z"],
      ["new", "2025-12-31T23:59:59.999Z"],
      ["c", "2023-05-05T09:59:59.999Z"],
    ] as const) {
      await addOrderedPhoto(id, sortAt);
    }
    await expectGalleryOrder();
    // A new photo in a crowded second; one moved to the front, one into another's second, one into the past.
    await addOrderedPhoto("n", "2023-05-05T10:00:00.300Z");
    await db.updateTable("photos").set({ sort_at: "2026-01-01T00:00:00.000Z" }).where("id", "=", "i-order-old").execute();
    await db.updateTable("photos").set({ sort_at: "2021-01-01T00:00:00.000Z" }).where("id", "=", "i-order-a").execute();
    await db.updateTable("photos").set({ sort_at: "1950-06-01T12:00:00.000Z" }).where("id", "=", "i-order-new").execute();
    await db.updateTable("photos").set({ trashed_at: new Date().toISOString() }).where("id", "=", "i-order-b").execute();
    await expectGalleryOrder();
    expect(await found("ordered")).toHaveLength(10);
  });

  it("renumbers (SQLite) or posts (PostgreSQL) the rows already there (the migration), and goes back (down)", async () => {
    await searchGalleryOrder.down(db);
    // Written while the order is not kept: a new photo, and another moved to another year.
    await addOrderedPhoto("late", "2022-07-07T07:07:07.000Z");
    await db.updateTable("photos").set({ sort_at: "2010-10-10T10:10:10.000Z" }).where("id", "=", "i-order-z").execute();
    await searchGalleryOrder.up(db);
    await expectGalleryOrder();
    expect(await found("ordered")).toHaveLength(11);
  });

  it.runIf(databaseKind === "sqlite")("numbers the index's rows in gallery order to the second (SQLite: the FTS5 rowid a word's matches are read in)", async () => {
    // The keys' seconds, read in key order, are the photos' seconds in gallery order: a page of a
    // common word stops after a page because of this (src/search/search.repository.ts, searchInKeyOrder).
    const rows = await db
      .selectFrom("photo_search")
      .innerJoin("photos", "photos.id", "photo_search.photo_id")
      // As text: the keys are larger than a JavaScript number holds exactly.
      .select([sql<string>`cast(photo_search.id as text)`.as("key"), "photos.sort_at"])
      .orderBy(sql`photo_search.id`)
      .execute();
    const seconds = rows.map((row) => Math.floor(Date.parse(row.sort_at.slice(0, 19) + "Z") / 1000));
    expect(seconds).toEqual([...seconds].sort((a, b) => a - b));
    expect(new Set(rows.map((row) => row.key)).size).toBe(rows.length);
  });

  it.runIf(databaseKind === "postgres")("keeps a posting per word of each photo, with its sort_at (PostgreSQL: photo_search_words, walked in gallery order)", async () => {
    // After every change above (text, tags, albums, dates, the trash): the postings are exactly the
    // words of each photo's tsvector, at the photo's sort_at.
    const expected = await sql<{ word: string; sort_at: string; photo_id: string }>`
      select distinct w.word, p.sort_at, p.id as photo_id
      from photos p join photo_search s on s.photo_id = p.id cross join lateral unnest(tsvector_to_array(s.document_vector)) as w(word)
      order by 3, 1`.execute(db);
    const postings = await sql<{ word: string; sort_at: string; photo_id: string }>`select word, sort_at, photo_id from photo_search_words order by 3, 1`.execute(db);
    expect(postings.rows.length).toBeGreaterThan(20);
    expect(postings.rows).toEqual(expected.rows);
  });

  it("drops a deleted photo's row (cascade)", async () => {
    await db.deleteFrom("photos").where("id", "=", library.ids.p2).execute();
    expect(await db.selectFrom("photo_search").select("photo_id").where("photo_id", "=", library.ids.p2).execute()).toEqual([]);
    expect(await found("volleyball")).toEqual([]);
    expect(await found("*olley*")).toEqual([]);
    if (databaseKind === "postgres") expect((await sql`select 1 from photo_search_words where photo_id = ${library.ids.p2}`.execute(db)).rows).toEqual([]);
  });
});
