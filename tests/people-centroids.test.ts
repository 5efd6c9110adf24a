// Stored centroids (issue 32): each person's mean descriptor, kept in person_centroids so "is this
// X?" and clustering compare against one row per person. On a freshly migrated database of its own
// (rows written directly, descriptors along one axis so each centroid is a known number), through
// the services that move faces: merge, split, naming faces as another person, and a photo removed
// underneath them (the database marks the centroid stale; a read computes it again), and the off switch;
// and "is this X?"'s remembered named centroids, patched with only the people a change touched.
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type SessionUser, toViewer } from "@/src/access/viewer";
import type { Database } from "@/src/db/database";
import { assignFacesByViewer } from "@/src/faces/face-assignment.service";
import { descriptorFromBytes, descriptorToBytes } from "@/src/faces/face-descriptor";
import { deleteDetectedFaces } from "@/src/faces/faces.repository";
import { announcePeopleChanged } from "@/src/faces/people-changes";
import { mergePeopleByViewer, splitFaceByViewer, updatePersonByViewer } from "@/src/faces/people.service";
import { readCentroids, refreshStaleCentroids } from "@/src/faces/person-centroids";
import { suggestPeopleForPerson } from "@/src/faces/person-suggestions.service";
import { insertPhotoRows, insertUsers } from "./helpers/direct-rows";
import { openFreshDatabase } from "./helpers/test-database";

const owner: SessionUser = { id: "pc-owner", email: "pc-owner@example.test", name: "Owner", role: "editor" };

/** A descriptor `value` along axis 0: a centroid's axis 0 is the mean of its faces' values. */
function at(value: number): Buffer {
  const descriptor = new Float32Array(128);
  descriptor[0] = value;
  return descriptorToBytes(descriptor);
}

describe("stored centroids follow their people's faces", () => {
  let db: Kysely<Database>;
  let remove: () => Promise<void>;
  /** Every statement sent, for the test that counts whole reads of the named centroids. */
  const queries: string[] = [];

  /** The stored row: axis 0 of its centroid (rounded), how many faces, whether stale; null without a row. */
  async function stored(personId: string) {
    const row = await db.selectFrom("person_centroids").selectAll().where("person_id", "=", personId).executeTakeFirst();
    if (!row) return null;
    return { value: row.centroid ? Number(descriptorFromBytes(row.centroid)[0].toFixed(4)) : null, faces: Number(row.face_count), stale: row.is_stale === 1 };
  }

  beforeAll(async () => {
    ({ db, remove } = await openFreshDatabase(inject("databaseKind"), {
      log: (event) => {
        if (event.level === "query") queries.push(event.query.sql);
      },
    }));
    await insertUsers(db, [owner]);
    await insertPhotoRows(db, ["p1", "p2", "p3", "p4", "p5"].map((id, index) => ({ id, owner_id: owner.id, sort_at: new Date(Date.UTC(2024, 0, 10 - index)).toISOString() })));
    const now = "2026-01-01T00:00:00.000Z";
    await db
      .insertInto("people")
      .values(["ada", "bo", "hand"].map((id) => ({ id, owner_id: owner.id, name: id === "hand" ? "Hand" : id.toUpperCase(), is_hidden: 0, cover_face_id: null, created_at: now, updated_at: now })))
      .execute();
    const face = (id: string, photoId: string, personId: string, descriptor: Buffer | null) => ({
      id, photo_id: photoId, person_id: personId, box_left: 0.4, box_top: 0.2, box_width: 0.2, box_height: 0.3,
      score: descriptor ? 0.9 : null, descriptor, source: descriptor ? ("detected" as const) : ("manual" as const), created_at: now,
    });
    await db
      .insertInto("faces")
      .values([face("a1", "p1", "ada", at(0)), face("a2", "p2", "ada", at(0.2)), face("b1", "p3", "bo", at(1)), face("b2", "p4", "bo", at(0.6)), face("h1", "p5", "hand", null)])
      .execute();
  });
  afterAll(() => remove());

  it("are marked stale by the database when faces arrive, and stored by the next refresh", async () => {
    expect(await stored("ada")).toMatchObject({ stale: true });
    await refreshStaleCentroids(db, owner.id);
    expect(await stored("ada")).toEqual({ value: 0.1, faces: 2, stale: false });
    expect(await stored("bo")).toEqual({ value: 0.8, faces: 2, stale: false });
    // Only a face drawn by hand: no descriptor, so no centroid, and nothing to compare.
    expect(await stored("hand")).toBeNull();
  });

  it("follow a split: the face leaves its person and is the new person's centroid", async () => {
    const split = await splitFaceByViewer(db, toViewer(owner), "b2");
    expect(await stored("bo")).toEqual({ value: 1, faces: 1, stale: false });
    expect(await stored(split.id)).toEqual({ value: 0.6, faces: 1, stale: false });
  });

  it("follow faces named as another person: both people's centroids change", async () => {
    await assignFacesByViewer(db, toViewer(owner), { faceIds: ["a2"], personId: "bo" });
    expect(await stored("ada")).toEqual({ value: 0, faces: 1, stale: false });
    expect(await stored("bo")).toEqual({ value: 0.6, faces: 2, stale: false });
  });

  it("follow a merge: the person kept has every face's mean, the one merged away has no row", async () => {
    await mergePeopleByViewer(db, toViewer(owner), "bo", "ada");
    expect(await stored("ada")).toEqual({ value: 0.4, faces: 3, stale: false });
    expect(await stored("bo")).toBeNull();
  });

  it("stay right when a photo is removed underneath them: marked stale, read as computed, stored again by the next write", async () => {
    await db.deleteFrom("photos").where("id", "=", "p3").execute();
    expect(await stored("ada")).toMatchObject({ value: 0.4, stale: true });
    const [ada] = await readCentroids(db, owner.id, ["ada"]);
    expect(Number(ada.centroid[0].toFixed(4))).toBe(0.1);
    await refreshStaleCentroids(db, owner.id);
    expect(await stored("ada")).toEqual({ value: 0.1, faces: 2, stale: false });
  });

  it("are remembered for \"is this X?\" only until people change: hiding and showing a person is seen at the next ask", async () => {
    // Left by the tests above: Ada (named, centroid 0.1) and the unnamed person split off at 0.6, 0.5 from her.
    const unnamed = await db.selectFrom("people").select("id").where("owner_id", "=", owner.id).where("name", "is", null).executeTakeFirstOrThrow();
    const ask = () => suggestPeopleForPerson(db, toViewer(owner), unnamed.id).then((suggestions) => suggestions.map((each) => each.personId));
    expect(await ask()).toEqual(["ada"]);
    await updatePersonByViewer(db, toViewer(owner), "ada", { isHidden: true });
    expect(await ask()).toEqual([]);
    await updatePersonByViewer(db, toViewer(owner), "ada", { isHidden: false, name: "Ada Again" });
    expect(await suggestPeopleForPerson(db, toViewer(owner), unnamed.id)).toEqual([{ personId: "ada", name: "Ada Again", rank: 1 }]);
  });

  it("after a split, a naming and a merge, the next ask re-reads only the people each touched and answers as a fresh read does", async () => {
    // Left by the tests above: Ada Again (faces at 0 and 0.2, centroid 0.1) and the unnamed person at 0.6.
    const viewer = toViewer(owner);
    const unnamed = await db.selectFrom("people").select("id").where("owner_id", "=", owner.id).where("name", "is", null).executeTakeFirstOrThrow();
    const ask = () => suggestPeopleForPerson(db, viewer, unnamed.id).then((suggestions) => suggestions.map((each) => each.personId));
    /** The asks since the last look that read every named person's centroid (the read the patch saves). */
    const wholeReads = () => queries.splice(0).filter((sql) => sql.includes('inner join "person_centroids"') && sql.includes('"people"."name" is not null') && !sql.includes('"people"."id" in'));
    expect(await ask()).toEqual(["ada"]);
    wholeReads();
    // Split off Ada: her centroid moves to 0, 0.6 away (out of reach); the face's new person is unnamed.
    const nell = await splitFaceByViewer(db, viewer, "a2");
    expect(await ask()).toEqual([]);
    // Named, the new person is 0.4 away.
    await updatePersonByViewer(db, viewer, nell.id, { name: "Nell" });
    expect(await ask()).toEqual([nell.id]);
    // Merged into Ada: Nell is gone and Ada is back at 0.1, 0.5 away.
    await mergePeopleByViewer(db, viewer, nell.id, "ada");
    expect(await ask()).toEqual(["ada"]);
    expect(wholeReads()).toEqual([]);
    // Nothing remembered: a fresh read answers the same.
    announcePeopleChanged();
    expect(await ask()).toEqual(["ada"]);
    expect(wholeReads()).toHaveLength(1);
  });

  it("go with the descriptors when people are turned off", async () => {
    await deleteDetectedFaces(db);
    expect(await db.selectFrom("person_centroids").select("person_id").execute()).toEqual([]);
  });
});
