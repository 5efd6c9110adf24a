// Every query a page view or a /media request runs must reach its rows through an index, or it
// grows with the library: at 100,000 photos a full scan of photos or photo_variants, or a sort of
// every matching row, costs milliseconds per request and blocks the event loop (issue "Scale").
// Timing cannot show that on a small database, but the plan can: each hot service runs against a
// freshly migrated database of the run's kind (SQLite always, PostgreSQL when the run uses it), every
// query it sends is captured, and the database's own plan for it is checked.
//
// - SQLite: `EXPLAIN QUERY PLAN` must not `SCAN` a hot table without an index (walking an index in
//   order is allowed under a LIMIT when nothing is filtered: it stops after the page), nor use a temporary B-tree except to
//   order the few rows of subqueries already cut to a LIMIT (the merged ranges of listPhotos).
// - PostgreSQL: with sequential scans and sorts priced out (`enable_seqscan`, `enable_sort` off),
//   a plan that still reads a hot table without an index condition, or sorts its rows, has no
//   index to do better with. The same LIMIT exceptions apply.
import { CompiledQuery, type Kysely, type LogEvent, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { toViewer, ANONYMOUS_VIEWER, type Viewer } from "@/src/access/viewer";
import type { Database, PhotoVariantRow } from "@/src/db/database";
import {
  addPhotosToAlbum,
  createAlbum,
  findAlbumBySlugForViewer,
  findAlbumNeighbours,
  findAlbumPosition,
  listAlbumPhotosForViewer,
  listAlbumsForViewer,
  listAlbumsHoldingPhoto,
  updateAlbum,
} from "@/src/albums/albums.service";
import type { AlbumSort } from "@/src/albums/albums.types";
import { toMediaUrl } from "@/src/photos/photo-publication";
import { findGalleryPosition, getPhotoPageForViewer, getPhotoViewerInfo, listNeighbourPhotos, listPhotosForViewer } from "@/src/photos/photos.service";
import { countPhotosByStatus, listLatestJobs, listUnfinishedPhotos } from "@/src/photos/processing-queue.repository";
import { findOriginalNamesForViewer } from "@/src/photos/original-names.service";
import { listDashboardUploads, listRecentUploads } from "@/src/photos/recent-uploads.service";
import { findServableVariant } from "@/src/photos/servable-variant";
import { announcePhotosChanged } from "@/src/photos/photo-changes";
import { listLibraryPhotos } from "@/src/photos/library.repository";
import { listTrash } from "@/src/photos/trash.service";
import { buildFeed } from "@/src/feeds/feeds.service";
import { findShareByKey } from "@/src/shares/shares.repository";
import { buildSitemap, buildSitemapPart } from "@/src/sitemap/sitemap.service";
import { getSharePhoto, getShareSummary, listSharePhotos } from "@/src/shares/share-gallery.service";
import { findShareServableVariant } from "@/src/shares/share-media";
import { listTagPhotosForViewer, listTagsForPhoto, listTagsForViewer } from "@/src/tags/tags.service";
import { facetSearchForViewer, searchPhotosForViewer, suggestSearchForViewer } from "@/src/search/search.service";
import { planOgImage } from "@/src/publish/og-images";
import { findPublicAlbumBySlug } from "@/src/publish/published-subjects";
import { getBrowsePage, listBrowseEntries } from "@/src/browse/browse.service";
import { listPlaces } from "@/src/browse/places.service";
import { createShareVisitor, getShareVisitor, listNewSelectionsForUser, sendShareSelection, setShareFeedback } from "@/src/shares/proofing.service";
import { type PhotoLibrary, seedPhotoLibrary } from "./helpers/photo-library";
import { seedPerson, setMembersSeePeople } from "./helpers/search-people";
import { openFreshDatabase } from "./helpers/test-database";

// photo_search is not among them: a search by words reads the photos the index of words matched
// (by key) and sorts them, which costs what the word matches (see src/search/search.repository.ts).
const HOT_TABLES = ["photos", "photo_variants", "photo_tags", "album_photos"];
const databaseKind = inject("databaseKind");

let db: Kysely<Database>;
let remove: () => Promise<void>;
let captured: CompiledQuery[] = [];
const capture = (event: LogEvent) => {
  if (event.level === "query") captured.push(event.query);
};

let library: PhotoLibrary;
let photoIds: string[];

beforeAll(async () => {
  ({ db, remove } = await openFreshDatabase(databaseKind, { log: capture }));
  if (databaseKind === "postgres") {
    // The plans are checked on a database without statistics. Autovacuum analyzes a table about a
    // minute after it fills, so a slow run (other files before this one) met different plans
    // halfway through the file; kept off for this database's tables.
    for (const table of ["photos", "photo_variants", "photo_tags", "album_photos", "albums", "tags", "photo_search", "shares", "share_photos"]) {
      await sql.raw(`alter table ${table} set (autovacuum_enabled = false)`).execute(db);
    }
  }
  // A small library: the plans must not depend on the data (see the header).
  library = await seedPhotoLibrary(db, "plan");
  photoIds = library.photos.map((photo) => photo.id);
  // Every photo has the tag "Plan", every third one "Third" too: a tag's page walks photo_tags.
  await db.insertInto("tags").values([{ id: "tag-plan", name: "Plan", key: "plan", created_at: library.photos[0].sortAt }, { id: "tag-third", name: "Third", key: "third", created_at: library.photos[0].sortAt }]).execute();
  await db
    .insertInto("photo_tags")
    .values(library.photos.flatMap((photo, index) => [{ photo_id: photo.id, tag_id: "tag-plan", sort_at: photo.sortAt }, ...(index % 3 === 0 ? [{ photo_id: photo.id, tag_id: "tag-third", sort_at: photo.sortAt }] : [])]))
    .execute();
});
afterAll(() => remove());

/**
 * Whether the query pages by the (sort_at, id) keyset: then that comparison must bound the index
 * range itself, or every page reads all the rows before it (the cost grows with the depth).
 */
function walksKeyset(query: CompiledQuery): boolean {
  return /"sort_at"(?:, "id"\))? [<>]/.test(query.sql);
}

interface PlanProblem {
  sql: string;
  problem: string;
}

/** SQLite: EXPLAIN QUERY PLAN rows (id, parent, detail), checked as the file's header says. */
async function findSqliteProblems(query: CompiledQuery): Promise<string[]> {
  const result = await db.executeQuery<{ id: number; parent: number; detail: string }>(
    CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]),
  );
  const rows = result.rows;
  const hasLimit = /\blimit\b/i.test(query.sql);
  // Walking a whole index in order is fine only when every row it meets is wanted (no WHERE to filter
  // with) and a LIMIT stops it: an admin's first page. With a filter it may walk far between matches.
  // The trash rule alone ("trashed_at is null") is no such filter: the trash is a few rows among many.
  const filteringSql = query.sql.replace(/ where (?:"photos"\.)?"trashed_at" is null(?= order by| limit|$)/, "");
  const mayWalkIndex = hasLimit && !/\bwhere\b/i.test(filteringSql);
  const problems: string[] = [];
  // A substring is looked up in the trigram index (an FTS5 MATCH on it), never by reading every row's text.
  if (/photo_search_trigram match/.test(query.sql) && !rows.some((row) => /^SCAN photo_search_trigram VIRTUAL TABLE INDEX \d+:M/.test(row.detail))) {
    problems.push("the substring is not looked up in photo_search_trigram");
  }
  for (const row of rows) {
    if (walksKeyset(query) && /^(SCAN|SEARCH) photos\b/.test(row.detail) && !row.detail.includes("sort_at")) {
      problems.push(`${row.detail}: the keyset is not part of the index range`);
    }
    const scan = /^SCAN (\w+)( USING (?:COVERING )?INDEX \w+)?/.exec(row.detail);
    if (scan && HOT_TABLES.includes(scan[1]) && (!scan[2] || !mayWalkIndex)) problems.push(row.detail);
    if (row.detail.startsWith("USE TEMP B-TREE")) {
      const siblings = findScansFeeding(rows, row.parent);
      if (siblings.some((sibling) => !isBoundedSortInput(sibling, hasLimit))) {
        problems.push(`${row.detail} (of ${siblings.join("; ")})`);
      }
    }
  }
  return problems;
}

/**
 * The scans whose rows reach a node of the plan: its descendants, except inside a subquery (a
 * CO-ROUTINE or MATERIALIZE, which has its own plan and LIMIT), where only the subquery's own scan counts.
 */
function findScansFeeding(rows: Array<{ id: number; parent: number; detail: string }>, parent: number): string[] {
  const children = rows.filter((row) => row.parent === parent);
  return children.flatMap((child) => {
    if (/^(SCAN|SEARCH) /.test(child.detail)) return [child.detail];
    if (/^(CO-ROUTINE|MATERIALIZE) /.test(child.detail)) return [];
    return findScansFeeding(rows, child.id);
  });
}

/**
 * What a temporary B-tree may sort: the rows of the photos asked for by id (a page's variants,
 * bounded by the page), the rows of a subquery under a LIMIT, or a table that is not a hot one.
 */
function isBoundedSortInput(scan: string, hasLimit: boolean): boolean {
  const table = scan.split(" ")[1];
  if (!HOT_TABLES.includes(table)) return hasLimit || scan.startsWith("SEARCH");
  // A photo's own rows (its tags, its albums) probed for each photo found: bounded by what was found.
  return /^SEARCH \w+ USING (?:COVERING )?INDEX \w+ \((?:photo_)?id=\?(?: AND \w+=\?)*\)$/.test(scan);
}

interface PostgresPlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Cond"?: string;
  "Recheck Cond"?: string;
  Filter?: string;
  Plans?: PostgresPlanNode[];
}

/** Whether the query starts from the index of words (a search by a common word: every match joined to its photo). */
function isWordDriven(query: CompiledQuery): boolean {
  return /from \(select photo_search\.photo_id from photo_search/.test(query.sql);
}

/** Whether the query starts from the index of words looking up words (not only substrings). */
function isDrivenByWords(query: CompiledQuery): boolean {
  return /from \(select photo_search\.photo_id from photo_search (?:join|where photo_search\.document_vector)/.test(query.sql);
}

/** Whether the query starts from the trigram index (a substring, *ton*): on PostgreSQL a LIKE in the driving lookup. */
function isDrivenBySubstrings(query: CompiledQuery): boolean {
  return /from \(select photo_search\.photo_id from photo_search where (?:(?! offset 0\)).)*document_letters/.test(query.sql);
}

/** Whether the query starts from a list of photo ids read just before (a word's few matches, at most 2,000). */
function isListDriven(query: CompiledQuery): boolean {
  return /unnest\(\$\d+::text\[\]\)|json_each\(/.test(query.sql);
}

/** Search by words: the photos are found by the words (or the list of their matches) and sorted, not walked in gallery order. */
function isWordSearch(query: CompiledQuery): boolean {
  return isWordDriven(query) || isListDriven(query);
}

/** PostgreSQL: EXPLAIN (FORMAT JSON) with seq scans and sorts priced out, checked as the file's header says. */
async function findPostgresProblems(query: CompiledQuery): Promise<string[]> {
  const plan = await db.connection().execute(async (connection) => {
    await connection.executeQuery(CompiledQuery.raw("SET enable_seqscan = off"));
    // A search by words sorts what the index of words matched (nothing walks them in gallery
    // order). On this small library the planner would rather hash every public photo, or walk them
    // all in order with sorts priced out, than look a few up; at 100,000 photos and a rare word it
    // does the reverse. So for these the plan that must exist is checked: only nested loops and
    // bitmap scans allowed (every read has an index condition), the words from the GIN index
    // (checked below), each photo then by its key, and the matches sorted.
    if (isWordSearch(query)) {
      for (const setting of ["enable_indexscan", "enable_indexonlyscan", "enable_hashjoin", "enable_mergejoin"]) {
        await connection.executeQuery(CompiledQuery.raw(`SET ${setting} = off`));
      }
    } else {
      await connection.executeQuery(CompiledQuery.raw("SET enable_sort = off"));
    }
    try {
      const result = await connection.executeQuery<{ "QUERY PLAN": Array<{ Plan: PostgresPlanNode }> }>(
        CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${query.sql}`, [...query.parameters]),
      );
      return result.rows[0]["QUERY PLAN"][0].Plan;
    } finally {
      for (const setting of ["enable_seqscan", "enable_sort", "enable_indexscan", "enable_indexonlyscan", "enable_hashjoin", "enable_mergejoin"]) {
        await connection.executeQuery(CompiledQuery.raw(`RESET ${setting}`));
      }
    }
  });
  const problems: string[] = [];
  // `underLimit`: a LIMIT above with nothing between that must read every row first.
  const visit = (node: PostgresPlanNode, underLimit: boolean) => {
    const type = node["Node Type"];
    const relation = node["Relation Name"];
    if (relation && HOT_TABLES.includes(relation)) {
      const condition = node["Index Cond"] ?? node["Recheck Cond"];
      // The trash rule alone ("trashed_at IS NULL") is no such filter: the trash is a few rows among many.
      const walksFiltered = Boolean(node.Filter) && node.Filter !== "(trashed_at IS NULL)";
      if (type === "Seq Scan" || (!condition && (!underLimit || walksFiltered))) problems.push(`${type} on ${relation} without an index condition`);
      if (relation === "photos" && walksKeyset(query) && !condition?.includes("sort_at")) problems.push(`${type} on photos: the keyset is not part of the index condition`);
    }
    if (type === "Sort" && readsHotTableUnbounded(node)) problems.push("Sort of a hot table's rows");
    const passesLimit = type === "Limit" || (underLimit && !["Sort", "Aggregate", "Hash", "HashAggregate"].includes(type));
    for (const child of node.Plans ?? []) visit(child, passesLimit);
  };
  visit(plan, false);
  if (isWordSearch(query)) {
    // On 60 photos the planner may hash a visibility's photos rather than look the matches up by
    // key (at 100,000 and a rare word it does the reverse; bench:search measures it): here the
    // words must come from the GIN index, and nothing may be read without an index condition.
    const text = JSON.stringify(plan);
    const byWords = isDrivenByWords(query);
    const bySubstrings = isDrivenBySubstrings(query);
    // Words and substrings together may start from either index (PostgreSQL picks the rarer).
    const usesIndex = (name: string) => text.includes(`"Index Name":"${name}"`);
    return [
      ...(!isWordDriven(query) || (byWords && bySubstrings) || !byWords || usesIndex("photo_search_vector") ? [] : ["the words are not looked up in photo_search_vector"]),
      ...(!bySubstrings || (byWords && usesIndex("photo_search_vector")) || usesIndex("photo_search_trigram") ? [] : ["the substrings are not looked up in photo_search_trigram"]),
      ...problems.filter((problem) => problem.includes("without an index condition")),
    ];
  }
  return problems;
}

/**
 * Whether a hot table's rows reach this node without passing a LIMIT on the way, other than the
 * rows of photos asked for by id (a page's variants, bounded by the page).
 */
function readsHotTableUnbounded(node: PostgresPlanNode): boolean {
  return (node.Plans ?? []).some((child) => {
    if (child["Node Type"] === "Limit") return false;
    if (child["Relation Name"] && HOT_TABLES.includes(child["Relation Name"])) return !isKeyedByPhotoIds(child);
    return readsHotTableUnbounded(child);
  });
}

function isKeyedByPhotoIds(node: PostgresPlanNode): boolean {
  const condition = node["Index Cond"] ?? node["Recheck Cond"] ?? "";
  return /^\((?:photo_)?id = /.test(condition);
}

/** The names of the indexes the database's plan for `query` reads, as one line. */
async function indexesUsed(query: CompiledQuery): Promise<string> {
  const explain = databaseKind === "postgres" ? "EXPLAIN (FORMAT JSON)" : "EXPLAIN QUERY PLAN";
  const result = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(`${explain} ${query.sql}`, [...query.parameters]));
  const text = JSON.stringify(result.rows);
  return [...text.matchAll(/(?:USING (?:COVERING )?INDEX |"Index Name":")(\w+)/g)].map((match) => match[1]).join(" ");
}

/** Runs `work`, then checks the plan of every query it sent. */
async function expectIndexedQueries(work: () => Promise<unknown>): Promise<void> {
  captured = [];
  await work();
  // Transaction control (a service that writes in a transaction) has no plan.
  const queries = captured.filter((query) => !/^\s*(begin|commit|rollback|savepoint|release)\b/i.test(query.sql));
  captured = [];
  expect(queries.length).toBeGreaterThan(0);
  const problems: PlanProblem[] = [];
  for (const query of queries) {
    const found = databaseKind === "postgres" ? await findPostgresProblems(query) : await findSqliteProblems(query);
    for (const problem of found) problems.push({ sql: query.sql, problem });
  }
  captured = [];
  expect(problems).toEqual([]);
}

const viewers: Array<[string, () => Viewer]> = [
  ["a visitor", () => ANONYMOUS_VIEWER],
  ["a member", () => toViewer(library.member)],
  ["an editor", () => toViewer(library.editor)],
  ["an admin", () => toViewer(library.admin)],
];

let browseSeeded = false;

/** Gives every photo of the library a camera and every other one a lens, as processing would (once). */
async function seedBrowseSlugs(): Promise<void> {
  if (browseSeeded) return;
  browseSeeded = true;
  await db.updateTable("photos").set({ camera_make: "Plan", camera_model: "Plan Camera", camera_slug: "plan-camera" }).execute();
  const everyOther = library.photos.filter((_, index) => index % 2 === 0).map((photo) => photo.id);
  await db.updateTable("photos").set({ lens: "Plan Lens", lens_slug: "plan-lens" }).where("id", "in", everyOther).execute();
}

/** A cursor deep in the list, as the service encodes it. */
function cursorAt(index: number): string {
  const photo = library.photos[index];
  return Buffer.from(`${photo.sortAt}|${photo.id}`).toString("base64url");
}

describe(`hot queries use indexes (${databaseKind})`, () => {
  for (const [who, viewerOf] of viewers) {
    it(`the gallery and GET /api/photos for ${who}: the first page, a deep page and the filters`, async () => {
      const viewer = viewerOf();
      await expectIndexedQueries(async () => {
        await listPhotosForViewer(db, viewer, { limit: 30 });
        await listPhotosForViewer(db, viewer, { limit: 30, cursor: cursorAt(20) });
        await listPhotosForViewer(db, viewer, { limit: 30, visibility: "public" });
        if (viewer.kind === "user") {
          await listPhotosForViewer(db, viewer, { limit: 30, owner: "me", cursor: cursorAt(40) });
          await listPhotosForViewer(db, viewer, { limit: 30, visibility: "private" });
        }
      });
    });

    it(`an album's page, its photos (first and deep pages, every sort), neighbours and the albums lists for ${who}`, async () => {
      const viewer = viewerOf();
      const album = await createAlbum(db, library.admin, { title: `Plan ${who}`, visibility: "public" });
      await addPhotosToAlbum(db, library.admin, album.id, photoIds);
      await createAlbum(db, library.admin, { title: `Plan ${who} inside`, visibility: "public", parentId: album.id });
      for (const sort of ["manual", "taken-desc", "uploaded-asc"] as AlbumSort[]) {
        await updateAlbum(db, library.admin, album.id, { sort, coverPhotoId: photoIds[4] });
        const first = await listAlbumPhotosForViewer(db, viewer, album.id, { limit: 5 });
        const inside = first.photos[2]?.id ?? photoIds[0];
        await expectIndexedQueries(async () => {
          await findAlbumBySlugForViewer(db, viewer, album.slug);
          await listAlbumPhotosForViewer(db, viewer, album.id, { limit: 5 });
          await listAlbumPhotosForViewer(db, viewer, album.id, { limit: 5, cursor: first.nextCursor ?? undefined });
          await findAlbumNeighbours(db, viewer, album.id, inside);
          await findAlbumPosition(db, viewer, album.id, inside);
          await listAlbumsForViewer(db, viewer, { parentId: null });
          await listAlbumsHoldingPhoto(db, viewer, inside);
        });
      }
    });

    it(`a parent album without photos of its own: its cover and count from its sub-albums for ${who}`, async () => {
      const viewer = viewerOf();
      const parent = await createAlbum(db, library.admin, { title: `Plan ${who} parent`, visibility: "public" });
      const child = await createAlbum(db, library.admin, { title: `Plan ${who} child`, visibility: "public", parentId: parent.id });
      const sibling = await createAlbum(db, library.admin, { title: `Plan ${who} sibling`, visibility: "members", parentId: parent.id });
      const grandchild = await createAlbum(db, library.admin, { title: `Plan ${who} grandchild`, visibility: "public", parentId: child.id });
      await addPhotosToAlbum(db, library.admin, child.id, photoIds.slice(0, 20));
      await addPhotosToAlbum(db, library.admin, sibling.id, photoIds.slice(10, 40));
      await addPhotosToAlbum(db, library.admin, grandchild.id, photoIds.slice(30));
      await updateAlbum(db, library.admin, child.id, { coverPhotoId: photoIds[4] });
      await expectIndexedQueries(async () => {
        await findAlbumBySlugForViewer(db, viewer, parent.slug);
        await listAlbumsForViewer(db, viewer, { parentId: null });
      });
    });

    it(`the photo page and the full-screen viewer's neighbours, counter and info panel for ${who}`, async () => {
      const viewer = viewerOf();
      await expectIndexedQueries(async () => {
        await getPhotoPageForViewer(db, viewer, photoIds[30]);
        await listNeighbourPhotos(db, viewer, photoIds[30], 12);
        await findGalleryPosition(db, viewer, photoIds[30]);
        await getPhotoViewerInfo(db, viewer, photoIds[30]);
      });
    });
  }

  for (const [who, viewerOf] of viewers) {
    it(`a tag's page and a photo's tags for ${who}: the first page and a deep one`, async () => {
      const viewer = viewerOf();
      await expectIndexedQueries(async () => {
        await listTagPhotosForViewer(db, viewer, "plan", { limit: 30 });
        await listTagPhotosForViewer(db, viewer, "Plan", { limit: 30, cursor: cursorAt(20) });
        await listTagsForPhoto(db, viewer, photoIds[0]);
      });
    });
  }

  for (const [who, viewerOf] of viewers) {
    it(`a camera's, a lens's and a year's page for ${who}: the first page and a deep one, one index range per visibility`, async () => {
      const viewer = viewerOf();
      await seedBrowseSlugs();
      // Counting is remembered per kind of viewer (below); read once here so the pages' own queries are what is checked.
      for (const kind of ["camera", "lens", "year"] as const) await listBrowseEntries(db, viewer, kind);
      await expectIndexedQueries(async () => {
        for (const [kind, key] of [["camera", "plan-camera"], ["lens", "plan-lens"], ["year", "2010"]] as const) {
          const first = await getBrowsePage(db, viewer, kind, key, { limit: 5 });
          await getBrowsePage(db, viewer, kind, key, { limit: 5, cursor: first.nextCursor ?? cursorAt(20) });
        }
      });
    });
  }

  /** Takes the date from every seventh photo, as if its file had none (once). */
  let undatedSeeded = false;
  async function seedUndatedPhotos(): Promise<void> {
    if (undatedSeeded) return;
    undatedSeeded = true;
    const everySeventh = photoIds.filter((_, index) => index % 7 === 0);
    await db.updateTable("photos").set({ taken_at: null }).where("id", "in", everySeventh).execute();
    announcePhotosChanged();
  }

  for (const [who, viewerOf] of viewers) {
    it(`"Date unknown" (/years/unknown) for ${who}: each range reads only undated photos`, async () => {
      await seedUndatedPhotos();
      captured = [];
      const first = await getBrowsePage(db, viewerOf(), "year", "unknown", { limit: 5 });
      await getBrowsePage(db, viewerOf(), "year", "unknown", { limit: 5, cursor: first.nextCursor ?? cursorAt(20) });
      const pages = captured.filter((query) => /"taken_at" is null/.test(query.sql) && /\blimit\b/i.test(query.sql));
      captured = [];
      expect(pages.length).toBeGreaterThan(0);
      // Dated photos are most of a library: a range that walks them all to find the undated few
      // reads the whole library for a page (2026-12-01T0900-undated-photo-indexes). PostgreSQL
      // prices "taken_at is null" from statistics a 60-row table does not give it, and may walk the
      // status index here instead; so on PostgreSQL only the general rules are checked.
      if (databaseKind === "postgres") {
        await expectIndexedQueries(async () => captured.push(...pages));
        return;
      }
      for (const query of pages) expect(await indexesUsed(query), query.sql).toMatch(/photos_undated_(visibility|owner)_sort/);
    });
  }

  it("/cameras, /lenses and /years for a visitor and a signed-in user: counted once, then answered from what is remembered", async () => {
    // Counting every camera's photos reads every photo of the scope: remembered per kind of viewer
    // and per user until photos change (src/browse/browse.service.ts), like /tags.
    await seedBrowseSlugs();
    for (const viewer of [ANONYMOUS_VIEWER, toViewer(library.editor)]) {
      for (const kind of ["camera", "lens", "year"] as const) {
        await listBrowseEntries(db, viewer, kind);
        await expectIndexedQueries(() => listBrowseEntries(db, viewer, kind));
      }
    }
  });

  it("/places for a visitor, a signed-in user and an admin: counted once, then answered from what is remembered", async () => {
    // Counting every place's photos reads every photo with a place in the scope: remembered per kind
    // of viewer and per user until photos change (src/browse/places.service.ts), like /cameras.
    await db.updateTable("photos").set({ place_country_code: "IT", place_region: "Tuscany", place_city: "Arezzo", place_source: "automatic" }).where("id", "in", photoIds.filter((_, index) => index % 5 === 0)).execute();
    for (const viewer of [ANONYMOUS_VIEWER, toViewer(library.editor), toViewer(library.admin)]) {
      const counted = await listPlaces(db, viewer);
      captured = [];
      expect(await listPlaces(db, viewer)).toEqual(counted);
      expect(captured.map((query) => query.sql)).toEqual([]);
    }
  });

  it("/tags for a visitor and a signed-in user: counted once, then answered from the remembered counts", async () => {
    // Counting every tag's photos reads every photo_tags row (and a user's own photos outside what
    // everyone sees, all of them): the counts are remembered per kind of viewer and per user until
    // photos or tags change (src/tags/tags.service.ts), like the dashboard's counts.
    await listTagsForViewer(db, ANONYMOUS_VIEWER);
    await expectIndexedQueries(() => listTagsForViewer(db, ANONYMOUS_VIEWER));
    await listTagsForViewer(db, toViewer(library.editor));
    await expectIndexedQueries(() => listTagsForViewer(db, toViewer(library.editor)));
  });

  for (const [who, viewerOf] of viewers) {
    it(`search for ${who}: a word (first and deep page), filters only (camera, lens, year, tag), facets of a word, suggestions`, async () => {
      const viewer = viewerOf();
      // Words and cameras for the search to find: a rare word on one photo, a common one on every
      // third; one camera on every fourth photo.
      await db.updateTable("photos").set({ title: "Plan rarity" }).where("id", "=", photoIds[7]).execute();
      await db.updateTable("photos").set({ caption: "common ground" }).where("id", "in", photoIds.filter((_, index) => index % 3 === 0)).execute();
      await db.updateTable("photos").set({ camera_make: "Canon", camera_model: "Canon EOS 40D", camera_slug: "canon-eos-40d", lens: "EF 50mm", lens_slug: "ef-50mm" }).where("id", "in", photoIds.filter((_, index) => index % 4 === 0)).execute();
      const common = await searchPhotosForViewer(db, viewer, { q: "common", limit: 3 });
      // The camera set is read once and remembered (like the tag counts), so it is not checked here.
      await searchPhotosForViewer(db, viewer, { q: "camera:canon", limit: 1 });
      await expectIndexedQueries(async () => {
        await searchPhotosForViewer(db, viewer, { q: "rarity", limit: 30 });
        await searchPhotosForViewer(db, viewer, { q: "common -rarity", limit: 3, cursor: common.nextCursor ?? undefined });
        await searchPhotosForViewer(db, viewer, { q: '"common ground" tag:plan', limit: 30 });
        await searchPhotosForViewer(db, viewer, { q: "camera:canon", limit: 30 });
        await searchPhotosForViewer(db, viewer, { q: "camera:eos-40d", limit: 5, cursor: cursorAt(30) });
        await searchPhotosForViewer(db, viewer, { q: "lens:ef-50mm", limit: 30 });
        await searchPhotosForViewer(db, viewer, { q: "year:2010", limit: 30, cursor: cursorAt(20) });
        await searchPhotosForViewer(db, viewer, { q: "", limit: 30, cursor: cursorAt(20) });
        await facetSearchForViewer(db, viewer, { q: "rarity" });
        await suggestSearchForViewer(db, viewer, { q: "rar", limit: 8 });
        await suggestSearchForViewer(db, viewer, { q: "tag:pl", limit: 8 });
      });
    });
  }

  for (const [who, viewerOf] of viewers) {
    it(`search by one word for ${who}: its matches walked in gallery order (first and deep page, a prefix of several words, with filters and exclusions)`, async () => {
      const viewer = viewerOf();
      // Words sharing a prefix (PostgreSQL merges their postings), on every other photo.
      const words = ["walker", "walking", "walks"];
      for (const [index, word] of words.entries()) {
        await db.updateTable("photos").set({ alt_text: `Plan ${word}` }).where("id", "in", photoIds.filter((_, each) => each % 2 === 0 && each % 3 === index)).execute();
      }
      await db.updateTable("photos").set({ camera_make: "Canon", camera_model: "Canon EOS 40D", camera_slug: "canon-eos-40d" }).where("id", "in", photoIds.filter((_, index) => index % 4 === 0)).execute();
      const first = await searchPhotosForViewer(db, viewer, { q: "walk", limit: 3 });
      await searchPhotosForViewer(db, viewer, { q: "camera:canon", limit: 1 });
      await expectIndexedQueries(async () => {
        await searchPhotosForViewer(db, viewer, { q: "walk", limit: 3 });
        await searchPhotosForViewer(db, viewer, { q: "walk", limit: 3, cursor: first.nextCursor ?? cursorAt(10) });
        await searchPhotosForViewer(db, viewer, { q: "walking", limit: 3, cursor: cursorAt(20) });
        await searchPhotosForViewer(db, viewer, { q: "walk camera:canon -tag:third -*alks*", limit: 3 });
        await searchPhotosForViewer(db, viewer, { q: '"plan walker" -walks', limit: 3, cursor: cursorAt(5) });
      });
    });
  }

  for (const [who, viewerOf] of viewers) {
    it(`substring search for ${who}: by the trigram index alone, with a word, with a filter, excluded (first and deep page), facets`, async () => {
      const viewer = viewerOf();
      await db.updateTable("photos").set({ title: "Plan Boston harbour" }).where("id", "=", photoIds[11]).execute();
      await db.updateTable("photos").set({ caption: "cartons everywhere" }).where("id", "in", photoIds.filter((_, index) => index % 5 === 0)).execute();
      await expectIndexedQueries(async () => {
        await searchPhotosForViewer(db, viewer, { q: "*osto*", limit: 30 });
        await searchPhotosForViewer(db, viewer, { q: "*arton*", limit: 30 });
        await searchPhotosForViewer(db, viewer, { q: "*arton* *ton*", limit: 30 });
        await searchPhotosForViewer(db, viewer, { q: "*arton* tag:plan", limit: 30 });
        await searchPhotosForViewer(db, viewer, { q: "tag:plan -*arton*", limit: 3, cursor: cursorAt(20) });
        await searchPhotosForViewer(db, viewer, { q: "-*osto* year:2010", limit: 30, cursor: cursorAt(20) });
        await facetSearchForViewer(db, viewer, { q: "*arton*" });
      });
    });
  }

  for (const [who, viewerOf] of viewers) {
    it(`place: search for ${who}: a town, a country by its code, with a word, excluded with a year (first and deep page), facets, suggestions`, async () => {
      const viewer = viewerOf();
      // Every fifth photo taken in Arezzo, its owner showing where.
      await db
        .updateTable("photos")
        .set({ place_country_code: "IT", place_region: "Tuscany", place_city: "Arezzo", place_source: "automatic", show_location: 1 })
        .where("id", "in", photoIds.filter((_, index) => index % 5 === 0))
        .execute();
      announcePhotosChanged();
      // The set of places is read once and remembered (like the camera set), so it is not checked here.
      await searchPhotosForViewer(db, viewer, { q: "place:arezzo", limit: 1 });
      await expectIndexedQueries(async () => {
        await searchPhotosForViewer(db, viewer, { q: "place:Arezzo", limit: 30 });
        await searchPhotosForViewer(db, viewer, { q: "place:IT", limit: 5, cursor: cursorAt(20) });
        await searchPhotosForViewer(db, viewer, { q: "common place:tuscany", limit: 30 });
        await searchPhotosForViewer(db, viewer, { q: "-place:italy year:2010", limit: 30, cursor: cursorAt(20) });
        await facetSearchForViewer(db, viewer, { q: "common place:arezzo" });
        await suggestSearchForViewer(db, viewer, { q: "place:are", limit: 8 });
      });
    });

    it(`person: search for ${who}: by the faces of the named people (first and deep page, with a tag, excluded), facets of a word, suggestions`, async () => {
      const viewer = viewerOf();
      if (!(await db.selectFrom("people").select("id").where("id", "=", "plan-person").executeTakeFirst())) {
        await seedPerson(db, { id: "plan-person", ownerId: library.editor.id, name: "Plan Person" }, photoIds.filter((_, index) => index % 5 === 0));
      }
      // Members see people: the widest rule (others' people through the photos they may list).
      await setMembersSeePeople(db, true);
      try {
        await expectIndexedQueries(async () => {
          await searchPhotosForViewer(db, viewer, { q: "person:plan", limit: 3 });
          await searchPhotosForViewer(db, viewer, { q: 'person:"plan person"', limit: 3, cursor: cursorAt(20) });
          await searchPhotosForViewer(db, viewer, { q: "person:plan tag:third", limit: 30 });
          await searchPhotosForViewer(db, viewer, { q: "-person:plan", limit: 3, cursor: cursorAt(20) });
          // Facets as the other tests count them: of a word's matches (the people facet joins faces and people).
          await facetSearchForViewer(db, viewer, { q: "common person:plan" });
          await suggestSearchForViewer(db, viewer, { q: "person:pl", limit: 8 });
        });
      } finally {
        await setMembersSeePeople(db, false);
      }
    });
  }

  it("a search of only place: reads the town's, region's or country's own index, not the whole gallery", async () => {
    // The other place: rows pass on the gallery's index too (a range with a filter); this one asks
    // that a rare town costs its own photos, whatever the gallery's size (issue 31).
    await db
      .updateTable("photos")
      .set({ place_country_code: "IT", place_region: "Tuscany", place_city: "Arezzo", place_source: "automatic", show_location: 1 })
      .where("id", "in", photoIds.filter((_, index) => index % 5 === 0))
      .execute();
    announcePhotosChanged();
    /** The index names the database's plan reads the photos through (SQLite: its details; PostgreSQL: seq scans priced out, as above). */
    const indexesOf = async (query: CompiledQuery): Promise<string> => {
      if (databaseKind === "sqlite") {
        const result = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]));
        return result.rows.map((row) => row.detail).join("\n");
      }
      return db.connection().execute(async (connection) => {
        await connection.executeQuery(CompiledQuery.raw("SET enable_seqscan = off"));
        try {
          const result = await connection.executeQuery<{ "QUERY PLAN": string }>(CompiledQuery.raw(`EXPLAIN ${query.sql}`, [...query.parameters]));
          return result.rows.map((row) => row["QUERY PLAN"]).join("\n");
        } finally {
          await connection.executeQuery(CompiledQuery.raw("RESET enable_seqscan"));
        }
      });
    };
    for (const [, viewerOf] of viewers) {
      const viewer = viewerOf();
      // The set of places is read once and remembered, as in the row above.
      await searchPhotosForViewer(db, viewer, { q: "place:arezzo", limit: 1 });
      for (const [q, index] of [
        ["place:Arezzo", "photos_place_city"],
        ["place:tuscany", "photos_place_region"],
        ["place:IT", "photos_place_country"],
      ] as const) {
        captured = [];
        await searchPhotosForViewer(db, viewer, { q, limit: 30 });
        const pages = captured.filter((query) => /^select/i.test(query.sql) && /"photos"\."place_/.test(query.sql));
        captured = [];
        expect(pages.length, q).toBeGreaterThan(0);
        for (const page of pages) expect(await indexesOf(page), `${q} for ${viewer.kind}: ${page.sql}`).toContain(index);
      }
    }
  });

  it("search facets of the whole gallery: counted once, then answered from memory", async () => {
    await facetSearchForViewer(db, ANONYMOUS_VIEWER, { q: "" });
    captured = [];
    await facetSearchForViewer(db, ANONYMOUS_VIEWER, { q: "" });
    expect(captured).toEqual([]);
  });

  it("Open Graph images and oEmbed (page tags, /og/ and /oembed): a photo's, an album's, a tag's and the site's", async () => {
    const album = await createAlbum(db, library.admin, { title: "Plan og", visibility: "public" });
    await addPhotosToAlbum(db, library.admin, album.id, photoIds);
    for (const sort of ["manual", "taken-desc"] as AlbumSort[]) {
      await updateAlbum(db, library.admin, album.id, { sort, coverPhotoId: photoIds[4] });
      await expectIndexedQueries(async () => {
        await planOgImage(db, { kind: "photo", id: photoIds[12] });
        await findPublicAlbumBySlug(db, album.slug);
        await planOgImage(db, { kind: "album", id: album.id });
        await planOgImage(db, { kind: "tag", id: "tag-third" });
        await planOgImage(db, { kind: "site" });
      });
    }
  });

  it("a /media request: the variant by its storage key", async () => {
    const [photo] = await db.selectFrom("photos").select(["id", "publication_key"]).where("id", "=", photoIds[6]).execute();
    const variant = library.variants.find((each) => each.photo_id === photo.id) as PhotoVariantRow;
    await expectIndexedQueries(() => findServableVariant(db, async () => toViewer(library.admin), toMediaUrl(photo.publication_key, variant.storage_key).slice("/media/".length)));
  });

  it("the dashboard's processing queue and recent uploads, the upload page's recent uploads, the album editor's file names", async () => {
    // The queue's counts read an index entry per photo, so they are remembered until photos
    // change (src/photos/photo-counts.ts) and are not among the queries checked here.
    await expectIndexedQueries(async () => {
      for (const ownerId of [null, library.editor.id]) {
        const unfinished = await listUnfinishedPhotos(db, { ownerId, limit: 100 });
        await listLatestJobs(db, unfinished.map((row) => row.id));
      }
      await listRecentUploads(db, library.editor);
      // The dashboard's recent uploads: everyone's (one range per status, merged) and an editor's.
      // Its storage used sums every photo's size, so it is remembered like the counts and not checked here.
      await listDashboardUploads(db, library.admin);
      await listDashboardUploads(db, library.editor);
      // The album editor's file names for untitled photos, by primary key.
      await findOriginalNamesForViewer(db, toViewer(library.editor), photoIds.slice(0, 50));
    });
  });

  it("the dashboard's count of trashed photos, through the trash's partial index", async () => {
    // The count of all photos reads an index entry per photo and is remembered (photo-counts.ts);
    // the trashed ones must come from the trash's index, not a walk of every photo's row.
    captured = [];
    for (const ownerId of [null, library.editor.id]) await countPhotosByStatus(db, ownerId);
    const trashedCounts = captured.filter((query) => query.sql.includes(`"trashed_at" is not null`));
    captured = [];
    expect(trashedCounts).toHaveLength(2);
    for (const query of trashedCounts) {
      const problems = databaseKind === "postgres" ? await findPostgresProblems(query) : await findSqliteProblems(query);
      expect(problems, query.sql).toEqual([]);
    }
  });

  it("the library's pages for an editor and an admin: first, deep and filtered; and the trash", async () => {
    // The library's counts read an index entry per matching photo, so they are remembered until
    // photos change (library.service.ts), as the dashboard's are; not among the queries checked here.
    await expectIndexedQueries(async () => {
      for (const ownerId of [library.editor.id, null]) {
        const deep = { sortAt: library.photos[40].sortAt, id: library.photos[40].id };
        await listLibraryPhotos(db, { ownerId }, {}, { limit: 101 });
        await listLibraryPhotos(db, { ownerId }, {}, { after: deep, limit: 101 });
        await listLibraryPhotos(db, { ownerId }, { status: "failed" }, { after: deep, limit: 101 });
        await listLibraryPhotos(db, { ownerId }, { visibility: "private" }, { limit: 101 });
      }
      await listTrash(db, library.editor, { limit: 60 });
      await listTrash(db, library.admin, { limit: 60 });
    });
  });

  it("a proofing visitor's state, pick and send, and the dashboard's new selections", async () => {
    const now = new Date();
    const shareId = "share-plan-proofing";
    await db
      .insertInto("shares")
      .values({ id: shareId, key: "proofPlanProofPlanProofP", owner_id: library.editor.id, title: "Plan", allow_picks: 1, pick_limit: 50, expires_at: null, max_views: null, password_hash: null, album_id: null, last_visited_at: null, selection_locked_at: null, revoked_at: null, created_at: now.toISOString(), updated_at: now.toISOString() })
      .execute();
    const ready = (await db.selectFrom("photos").select("id").where("status", "=", "ready").where("trashed_at", "is", null).limit(40).execute()).map((row) => row.id);
    await db.insertInto("share_photos").values(ready.map((photoId, position) => ({ share_id: shareId, photo_id: photoId, position }))).execute();
    const share = await db.selectFrom("shares").selectAll().where("id", "=", shareId).executeTakeFirstOrThrow();
    const { token } = await createShareVisitor(db, share, { name: "Plan visitor" }, now);
    for (const photoId of ready.slice(0, 10)) await setShareFeedback(db, share, token, photoId, { picked: true }, now);
    await expectIndexedQueries(async () => {
      await getShareVisitor(db, share, token);
      await setShareFeedback(db, share, token, ready[12], { picked: true, comment: "This one" }, now);
      await sendShareSelection(db, share, token, now);
      await listNewSelectionsForUser(db, library.editor);
    });
  });

  it("a share link's pages, visitor API and variants: the link by key, its photos (first and deep pages), a photo with its neighbours", async () => {
    const now = new Date().toISOString();
    const key = "planPlanPlanPlanPlanPlan";
    await db.insertInto("shares").values({ id: "share-plan", key, owner_id: library.editor.id, title: "Plan", created_at: now, updated_at: now }).execute();
    await db.insertInto("share_photos").values(photoIds.map((photoId, position) => ({ share_id: "share-plan", photo_id: photoId, position }))).execute();
    const share = await findShareByKey(db, key);
    const variant = library.variants.find((each) => each.photo_id === photoIds[10]) as PhotoVariantRow;
    const first = await listSharePhotos(db, share!, { limit: 10 });
    await expectIndexedQueries(async () => {
      await findShareByKey(db, key);
      await getShareSummary(db, share!);
      await listSharePhotos(db, share!, { limit: 10 });
      await listSharePhotos(db, share!, { limit: 10, cursor: first.nextCursor ?? undefined });
      await getSharePhoto(db, share!, photoIds[10]);
      await findShareServableVariant(db, share!.id, variant.storage_key);
    });
  });
  it("the feeds (the site's, a public album's, a tag's) and the sitemap's parts, walked by keyset", async () => {
    // They name URLs from the environment, as the server does.
    process.env.NEXTAUTH_SECRET ??= "query-plans-test-secret-0123456789abcdef";
    const album = await createAlbum(db, library.admin, { title: "Plan feeds", visibility: "public" });
    await addPhotosToAlbum(db, library.admin, album.id, photoIds);
    await updateAlbum(db, library.admin, album.id, { coverPhotoId: photoIds[0] });
    // The tag counts the sitemap lists tags by are remembered (see "/tags" above): counted once first.
    await listTagsForViewer(db, ANONYMOUS_VIEWER);
    await expectIndexedQueries(async () => {
      for (const format of ["rss", "json"] as const) {
        await buildFeed(db, { kind: "site" }, format);
        await buildFeed(db, { kind: "album", slug: album.slug }, format);
        await buildFeed(db, { kind: "tag", tag: "plan" }, format);
      }
      // A limit no other call used: the parts' boundaries are found (walking every key), then a deep part is read.
      await buildSitemap(db, { limit: 3 });
      await buildSitemapPart(db, 5, { limit: 3 });
    });
  });
});
