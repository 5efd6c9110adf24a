// bench:faces, second part: "is this X?" and a person's page at 100,000 faces against 1,000
// (issue 32: target ≤ 1.5x). Method: a freshly migrated database of the run's kind (SQLite, or
// PostgreSQL when BENCH_FACES_DATABASE=postgres and DATABASE_URL is set), rows written directly in
// batches: one owner, one photo per face, faces with random 128-d descriptors (uniform in ±0.1
// per axis, unit-free, as face-api's are roughly), grouped into people of 10 faces each, one in
// five people named. The measured person is the same at both sizes: a named person with 50
// photos for the page, an unnamed person with 3 faces for "is this X?". Each call is timed as the
// median of BENCH_FACES_SCALE_ROUNDS rounds after a warm-up, straight through the services.
// The rows written directly leave every person's stored centroid stale (the database's triggers
// mark them, as for any change of faces): they are computed once after seeding, as the app's own
// writes keep them (src/faces/person-centroids.ts), and that time is printed apart.
//
// "Is this X?" is timed three ways: warm (the owner's named centroids remembered, as on every ask
// within ten seconds of the last with no change to people: src/faces/named-centroids-cache.ts);
// cold, the first ask after a change made in this process (one named person renamed through the
// service before each round, not timed: what naming, merging or a face stored does); and dropped,
// the first ask with nothing remembered (the cache dropped whole before each round: what the first
// ask after another process's change costs once the remembered index has run out). Where a dropped
// ask's time goes is printed too: the SQL that reads the named centroids, laying them into one
// array, and the distance loop.
//
// BENCH_FACES_EXPLAIN=1 also prints the database's plan of each query a person's page sends at
// the largest size (EXPLAIN QUERY PLAN on SQLite, EXPLAIN ANALYZE on PostgreSQL).
// BENCH_FACES_SCALE_SIZES=1000,100000 (the default) sets the sizes compared.
import { toViewer, type SessionUser } from "@/src/access/viewer";
import { CompiledQuery, type Kysely } from "kysely";
import type { Database } from "@/src/db/database";
import { descriptorToBytes } from "@/src/faces/face-descriptor";
import { NamedCentroidIndex } from "@/src/faces/named-centroid-index";
import { announcePeopleChanged } from "@/src/faces/people-changes";
import { getPersonPage, updatePersonByViewer } from "@/src/faces/people.service";
import { refreshStaleCentroids } from "@/src/faces/person-centroids";
import { suggestPeopleForPerson } from "@/src/faces/person-suggestions.service";
import { listNamedCentroidRows } from "@/src/faces/person-suggestions.repository";
import { insertPhotoRows, insertUsers } from "../../tests/helpers/direct-rows";
import { openFreshDatabase } from "../../tests/helpers/test-database";

const ROUNDS = Number(process.env.BENCH_FACES_SCALE_ROUNDS ?? 7);
const OWNER: SessionUser = { id: "bench-owner", email: "bench-owner@example.test", name: "Bench Owner", role: "editor" };
const BATCH = 500;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function randomDescriptor(): Buffer {
  return descriptorToBytes(Float32Array.from({ length: 128 }, () => (Math.random() - 0.5) * 0.2));
}

async function seed(db: Kysely<Database>, faces: number): Promise<void> {
  await insertUsers(db, [OWNER]);
  const now = "2026-01-01T00:00:00.000Z";
  // The measured ones first: "bench-named" (50 photos) and "bench-unnamed" (3 faces).
  const people = [
    { id: "bench-named", name: "Measured Named", faces: 50 },
    { id: "bench-unnamed", name: null, faces: 3 },
  ];
  for (let index = 0; people.reduce((sum, person) => sum + person.faces, 0) < faces; index += 1) {
    people.push({ id: `bench-p${index}`, name: index % 5 === 0 ? `Person ${index}` : null, faces: 10 });
  }
  for (let start = 0; start < people.length; start += BATCH) {
    await db
      .insertInto("people")
      .values(people.slice(start, start + BATCH).map((person) => ({ id: person.id, owner_id: OWNER.id, name: person.name, is_hidden: 0, cover_face_id: null, created_at: now, updated_at: now })))
      .execute();
  }
  const faceRows = people.flatMap((person) => Array.from({ length: person.faces }, (_, index) => ({ personId: person.id, id: `${person.id}-f${index}` })));
  for (let start = 0; start < faceRows.length; start += BATCH) {
    const slice = faceRows.slice(start, start + BATCH);
    await insertPhotoRows(
      db,
      slice.map((face, index) => ({ id: `photo-${face.id}`, owner_id: OWNER.id, sort_at: new Date(Date.UTC(2020, 0, 1) + (start + index) * 60_000).toISOString() })),
    );
    await db
      .insertInto("faces")
      .values(
        slice.map((face) => ({
          id: face.id, photo_id: `photo-${face.id}`, person_id: face.personId, box_left: 0.4, box_top: 0.2, box_width: 0.2, box_height: 0.3,
          score: 0.9, descriptor: randomDescriptor(), source: "detected" as const, created_at: now,
        })),
      )
      .execute();
  }
}

/** Each query `work` sends, with the database's plan for it. */
async function explain(db: Kysely<Database>, captured: CompiledQuery[], kind: string, work: () => Promise<unknown>): Promise<void> {
  captured.splice(0);
  await work();
  for (const query of captured.splice(0)) {
    console.log(`    ${query.sql}`);
    const plan = await db.executeQuery<Record<string, string>>(CompiledQuery.raw(`${kind === "sqlite" ? "EXPLAIN QUERY PLAN" : "EXPLAIN (ANALYZE, BUFFERS OFF)"} ${query.sql}`, [...query.parameters]));
    for (const row of plan.rows) console.log(`      ${row.detail ?? row["QUERY PLAN"]}`);
  }
}

interface Timings {
  suggest: number;
  suggestCold: number;
  suggestDropped: number;
  page: number;
  /** A dropped ask's parts: the named centroids' SQL, laying them into one array, the distance loop. */
  parts: { sql: number; layout: number; loop: number; named: number };
}

async function timeAt(faces: number, explainHere: boolean): Promise<Timings> {
  const kind = process.env.BENCH_FACES_DATABASE === "postgres" ? "postgres" : "sqlite";
  const captured: CompiledQuery[] = [];
  const { db, remove } = await openFreshDatabase(kind, {
    log: (event) => {
      if (event.level === "query") captured.push(event.query);
    },
  });
  try {
    let started = performance.now();
    await seed(db, faces);
    console.log(`  seeded ${faces.toLocaleString("en")} faces on ${kind} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    started = performance.now();
    // In one transaction, as the app's writes run it (SQLite would otherwise commit each row on its own).
    await db.transaction().execute((transaction) => refreshStaleCentroids(transaction, OWNER.id));
    captured.splice(0);
    console.log(`  every person's centroid computed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const viewer = toViewer(OWNER);
    if (process.env.BENCH_FACES_EXPLAIN && explainHere) {
      console.log(`  a person's page at ${faces.toLocaleString("en")} faces, each query's plan:`);
      await explain(db, captured, kind, () => getPersonPage(db, viewer, "bench-named"));
      console.log(`  "is this X?" at ${faces.toLocaleString("en")} faces, each query's plan:`);
      await explain(db, captured, kind, () => suggestPeopleForPerson(db, viewer, "bench-unnamed"));
    }
    captured.splice(0);
    /** The median time of `work`, each round after `before` (not timed). */
    const measure = async (work: () => Promise<unknown>, before: () => Promise<unknown> = async () => {}) => {
      await before();
      await work();
      const times: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        await before();
        const at = performance.now();
        await work();
        times.push(performance.now() - at);
        captured.splice(0);
      }
      return median(times);
    };
    const rows = await listNamedCentroidRows(db, OWNER.id);
    const stored = rows.flatMap((row) => (row.centroid ? [{ personId: row.personId, name: row.name ?? "", centroid: row.centroid }] : []));
    const index = NamedCentroidIndex.fromStored(stored);
    const query = new Float32Array(128);
    let renames = 0;
    return {
      suggest: await measure(() => suggestPeopleForPerson(db, viewer, "bench-unnamed")),
      suggestCold: await measure(
        () => suggestPeopleForPerson(db, viewer, "bench-unnamed"),
        () => {
          renames += 1;
          return updatePersonByViewer(db, viewer, "bench-p0", { name: `Person 0 (${renames})` });
        },
      ),
      suggestDropped: await measure(
        () => suggestPeopleForPerson(db, viewer, "bench-unnamed"),
        async () => announcePeopleChanged(),
      ),
      page: await measure(() => getPersonPage(db, viewer, "bench-named")),
      parts: {
        sql: await measure(() => listNamedCentroidRows(db, OWNER.id)),
        layout: await measure(async () => NamedCentroidIndex.fromStored(stored)),
        loop: await measure(async () => index.nearest(query, new Set(), 0.55, 3)),
        named: stored.length,
      },
    };
  } finally {
    await remove();
  }
}

export async function benchPeopleAtScale(): Promise<void> {
  const [smallSize, largeSize] = (process.env.BENCH_FACES_SCALE_SIZES ?? "1000,100000").split(",").map(Number);
  const small = await timeAt(smallSize, false);
  const large = await timeAt(largeSize, true);
  const label = (size: number) => `${size.toLocaleString("en")} faces`;
  for (const [what, key] of [["is this X? (warm)", "suggest"], ["is this X? (cold)", "suggestCold"], ["is this X? (dropped)", "suggestDropped"], ["a person's page", "page"]] as const) {
    console.log(
      `${what.padEnd(21)} ${label(smallSize)} ${small[key].toFixed(2).padStart(7)} ms  ${label(largeSize)} ${large[key].toFixed(2).padStart(7)} ms  ratio ${(large[key] / small[key]).toFixed(2)}x (target ≤ 1.5x)`,
    );
  }
  for (const [size, timings] of [[smallSize, small], [largeSize, large]] as const) {
    const { sql, layout, loop, named } = timings.parts;
    console.log(`  a dropped ask at ${label(size)} (${named} named): named centroids' SQL ${sql.toFixed(2)} ms, into one array ${layout.toFixed(2)} ms, distance loop ${loop.toFixed(2)} ms`);
  }
}
