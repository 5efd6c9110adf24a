import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.
//
// Each person's centroid (issue 32): the mean of their detected faces' descriptors, which both
// clustering (a new face joins the nearest centroid) and "is this X?" (an unnamed person against
// every named one) compare against. Computing them on each request read a sample of every named
// person's faces: 1.7 s for "is this X?" at 100,000 faces. Now one row per person holds it.
//
// The app recomputes a person's centroid in the transaction that changes their faces
// (src/faces/person-centroids.ts). The database marks it stale itself, by triggers, whenever a
// detected face joins or leaves anyone: so a change the faces module does not make (a photo purged
// from the trash or a user removed cascades to their faces) still leaves no wrong centroid behind;
// a stale row is computed from the faces again when it is read, and stored again by the next write.
// A person with no detected face (only faces drawn by hand) has no row. Stale rows are found through
// their own index: a write recomputes the few there are, never scanning every person.
// The centroid is 128 float32, little-endian, as a descriptor is; it is derived from descriptors,
// so turning people off deletes every row, as it deletes every descriptor.

const DESCRIPTOR_LENGTH = 128;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

const MARK_STALE = (row: "new" | "old") => `update person_centroids set is_stale = 1 where person_id = ${row}.person_id;`;
const ADD_STALE = `insert into person_centroids (person_id, centroid, face_count, is_stale) values (new.person_id, null, 0, 1)
  on conflict (person_id) do update set is_stale = 1;`;

/** [name, timing and event, when (a condition on the row), the statements]. */
const TRIGGERS: Array<[string, string, string, string]> = [
  ["person_centroids_face_insert", "after insert on faces", "new.person_id is not null and new.descriptor is not null", ADD_STALE],
  ["person_centroids_face_delete", "after delete on faces", "old.person_id is not null and old.descriptor is not null", MARK_STALE("old")],
  // The person a face leaves is marked (if they still exist: a deleted person's row went with them);
  // the one it joins gets a stale row if it had none.
  [
    "person_centroids_face_move",
    "after update of person_id, descriptor on faces",
    "(old.person_id is not null and old.descriptor is not null) or (new.person_id is not null and new.descriptor is not null)",
    `${MARK_STALE("old")} insert into person_centroids (person_id, centroid, face_count, is_stale) select new.person_id, null, 0, 1 where new.person_id is not null
      on conflict (person_id) do update set is_stale = 1;`,
  ],
];

function descriptorFromBytes(bytes: Uint8Array): Float64Array {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Float64Array.from({ length: DESCRIPTOR_LENGTH }, (_, index) => buffer.readFloatLE(index * 4));
}

function meanToBytes(sum: Float64Array, count: number): Buffer {
  const bytes = Buffer.alloc(DESCRIPTOR_LENGTH * 4);
  for (let index = 0; index < DESCRIPTOR_LENGTH; index += 1) bytes.writeFloatLE(sum[index] / count, index * 4);
  return bytes;
}

interface PersonSum {
  personId: string;
  sum: Float64Array;
  count: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function storeCentroid(db: Kysely<any>, person: PersonSum, now: string): Promise<void> {
  await db.insertInto("person_centroids").values({ person_id: person.personId, centroid: meanToBytes(person.sum, person.count), face_count: person.count, is_stale: 0, updated_at: now }).execute();
}

/** Every person's centroid from their faces, a page of faces at a time in person order (one person's sum in memory at once). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function backfill(db: Kysely<any>, now: string): Promise<void> {
  const PAGE = 5_000;
  let after: { personId: string; id: string } | null = null;
  let current: PersonSum | null = null;
  for (;;) {
    const cursor: { personId: string; id: string } | null = after;
    const rows: Array<{ id: string; person_id: string; descriptor: Uint8Array }> = await db
      .selectFrom("faces")
      .select(["id", "person_id", "descriptor"])
      .where("person_id", "is not", null)
      .where("descriptor", "is not", null)
      .$if(cursor !== null, (query) =>
        query.where((eb) => eb.or([eb("person_id", ">", cursor?.personId), eb.and([eb("person_id", "=", cursor?.personId), eb("id", ">", cursor?.id)])])),
      )
      .orderBy("person_id")
      .orderBy("id")
      .limit(PAGE)
      .execute();
    for (const row of rows) {
      if (current === null || current.personId !== row.person_id) {
        if (current !== null) await storeCentroid(db, current, now);
        current = { personId: row.person_id, sum: new Float64Array(DESCRIPTOR_LENGTH), count: 0 };
      }
      const descriptor = descriptorFromBytes(row.descriptor);
      for (let index = 0; index < DESCRIPTOR_LENGTH; index += 1) current.sum[index] += descriptor[index];
      current.count += 1;
    }
    if (rows.length < PAGE) break;
    after = { personId: rows[rows.length - 1].person_id, id: rows[rows.length - 1].id };
  }
  if (current !== null) await storeCentroid(db, current, now);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  await db.schema
    .createTable("person_centroids")
    .addColumn("person_id", "text", (column) => column.primaryKey().references("people.id").onDelete("cascade"))
    .addColumn("centroid", postgres ? "bytea" : "blob")
    .addColumn("face_count", "integer", (column) => column.notNull())
    .addColumn("is_stale", "integer", (column) => column.notNull())
    .addColumn("updated_at", "text")
    .execute();
  await db.schema.createIndex("person_centroids_stale").on("person_centroids").column("is_stale").execute();
  await backfill(db, new Date().toISOString());
  for (const [name, event, when, statements] of TRIGGERS) {
    if (postgres) {
      const row = event.includes("delete") ? "old" : "new";
      await sql.raw(`create function ${name}() returns trigger language plpgsql as $$ begin ${statements} return ${row}; end $$`).execute(db);
      await sql.raw(`create trigger ${name} ${event} for each row when (${when}) execute function ${name}()`).execute(db);
    } else {
      await sql.raw(`create trigger ${name} ${event} for each row when ${when} begin ${statements} end`).execute(db);
    }
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  for (const [name, event] of TRIGGERS) {
    await sql.raw(`drop trigger if exists ${name}${postgres ? ` on ${event.split(" on ").at(-1)}` : ""}`).execute(db);
    if (postgres) await sql.raw(`drop function if exists ${name}()`).execute(db);
  }
  await db.schema.dropTable("person_centroids").ifExists().execute();
}
