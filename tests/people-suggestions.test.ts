// "Is this X?" and naming many faces at once (issue 32): the suggestion service and the bulk
// assignment on a freshly migrated database of their own (rows written directly, descriptors made
// up along one axis so the distances are known), then the three routes through the built app.
import type { Kysely } from "kysely";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type SessionUser, toViewer } from "@/src/access/viewer";
import type { DatabaseHandle } from "@/src/db/client";
import type { Database } from "@/src/db/database";
import { assignFacesByViewer } from "@/src/faces/face-assignment.service";
import { descriptorToBytes } from "@/src/faces/face-descriptor";
import { listUnnamedFacesForViewer, rejectSuggestionByViewer, suggestPeopleForPerson } from "@/src/faces/person-suggestions.service";
import { insertPhotoRows, insertUsers } from "./helpers/direct-rows";
import { uploadFiles, waitForProcessing } from "./helpers/photos";
import { openFreshDatabase, openTestDatabase } from "./helpers/test-database";
import { createTestUser, signedInAdmin, TestClient } from "./helpers/test-client";

const owner: SessionUser = { id: "sx-owner", email: "sx-owner@example.test", name: "Owner", role: "editor" };
const other: SessionUser = { id: "sx-other", email: "sx-other@example.test", name: "Other", role: "editor" };

/** A descriptor `value` along axis 0: distances between them are differences of values. */
function at(value: number): Buffer {
  const descriptor = new Float32Array(128);
  descriptor[0] = value;
  return descriptorToBytes(descriptor);
}

interface FaceSeed {
  id: string;
  photoId: string;
  personId: string | null;
  descriptor: Buffer | null;
}

async function seedPeople(db: Kysely<Database>, people: Array<{ id: string; ownerId: string; name: string | null; isHidden?: boolean }>, faces: FaceSeed[]): Promise<void> {
  const now = "2026-01-01T00:00:00.000Z";
  await db
    .insertInto("people")
    .values(people.map((person) => ({ id: person.id, owner_id: person.ownerId, name: person.name, is_hidden: person.isHidden ? 1 : 0, cover_face_id: null, created_at: now, updated_at: now })))
    .execute();
  await db
    .insertInto("faces")
    .values(
      faces.map((face) => ({
        id: face.id, photo_id: face.photoId, person_id: face.personId, box_left: 0.4, box_top: 0.2, box_width: 0.2, box_height: 0.3,
        score: face.descriptor ? 0.9 : null, descriptor: face.descriptor, source: face.descriptor ? ("detected" as const) : ("manual" as const), created_at: now,
      })),
    )
    .execute();
}

const facesOf = (db: DatabaseHandle, personId: string) => db.selectFrom("faces").select("id").where("person_id", "=", personId).orderBy("id").execute().then((rows) => rows.map((row) => row.id));
const personExists = (db: DatabaseHandle, personId: string) => db.selectFrom("people").select("id").where("id", "=", personId).executeTakeFirst().then(Boolean);

describe("suggestions and naming many faces (services, on a database of their own)", () => {
  let db: DatabaseHandle;
  let remove: () => Promise<void>;

  beforeAll(async () => {
    ({ db, remove } = await openFreshDatabase(inject("databaseKind")));
    await insertUsers(db, [owner, other]);
    const photos = ["p1", "p2", "p3", "p4", "p5", "p6", "q1"];
    await insertPhotoRows(db, photos.map((id, index) => ({ id, owner_id: id.startsWith("q") ? other.id : owner.id, sort_at: new Date(Date.UTC(2024, 0, 10 - index)).toISOString() })));
    await seedPeople(
      db,
      [
        { id: "ada", ownerId: owner.id, name: "Ada" },
        { id: "bo", ownerId: owner.id, name: "Bo" },
        { id: "hid", ownerId: owner.id, name: "Hidden Hal", isHidden: true },
        { id: "u-near", ownerId: owner.id, name: null },
        { id: "u-far", ownerId: owner.id, name: null },
        { id: "u-hand", ownerId: owner.id, name: null },
        { id: "their", ownerId: other.id, name: "Theirs" },
      ],
      [
        // Ada's centroid is 0.1, Bo's 1.0, Hal's 0.4 (hidden: never offered); the other owner's 0.45.
        { id: "f-ada-1", photoId: "p1", personId: "ada", descriptor: at(0) },
        { id: "f-ada-2", photoId: "p2", personId: "ada", descriptor: at(0.2) },
        { id: "f-bo", photoId: "p3", personId: "bo", descriptor: at(1) },
        { id: "f-hal", photoId: "p3", personId: "hid", descriptor: at(0.4) },
        { id: "f-near", photoId: "p4", personId: "u-near", descriptor: at(0.5) },
        { id: "f-far", photoId: "p5", personId: "u-far", descriptor: at(3) },
        { id: "f-hand", photoId: "p6", personId: "u-hand", descriptor: null },
        { id: "f-near-2", photoId: "p1", personId: "u-near", descriptor: at(0.5) },
        { id: "f-theirs", photoId: "q1", personId: "their", descriptor: at(0.45) },
      ],
    );
  });
  afterAll(() => remove());

  it("offers an unnamed person the owner's named people within reach, nearest first, never another owner's or a hidden one", async () => {
    // u-near's centroid is 0.5: Ada (0.1) is 0.4 away, Bo (1.0) 0.5; the other owner's and hidden Hal are nearer.
    expect(await suggestPeopleForPerson(db, toViewer(owner), "u-near")).toEqual([
      { personId: "ada", name: "Ada", rank: 1 },
      { personId: "bo", name: "Bo", rank: 2 },
    ]);
    expect(await suggestPeopleForPerson(db, toViewer(owner), "u-far")).toEqual([]);
    expect(await suggestPeopleForPerson(db, toViewer(owner), "u-hand")).toEqual([]);
    expect(await suggestPeopleForPerson(db, toViewer(owner), "ada")).toEqual([]);
    await expect(suggestPeopleForPerson(db, toViewer(other), "u-near")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("remembers a no: that person is not suggested again, for the person or any of their faces", async () => {
    await rejectSuggestionByViewer(db, toViewer(owner), "u-near", "ada");
    await rejectSuggestionByViewer(db, toViewer(owner), "u-near", "ada");
    expect(await suggestPeopleForPerson(db, toViewer(owner), "u-near")).toEqual([{ personId: "bo", name: "Bo", rank: 1 }]);
    const grid = await listUnnamedFacesForViewer(db, toViewer(owner));
    expect(grid.find((face) => face.id === "f-near")?.suggestions.map((each) => each.personId)).toEqual(["bo"]);
    await expect(rejectSuggestionByViewer(db, toViewer(other), "u-near", "bo")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(rejectSuggestionByViewer(db, toViewer(owner), "u-near", "their")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(rejectSuggestionByViewer(db, toViewer(owner), "u-near", "u-near")).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });

  it("lists the owner's unnamed faces (not named, hidden or others' ones), each with its own suggestions and no descriptor", async () => {
    const grid = await listUnnamedFacesForViewer(db, toViewer(owner));
    expect(grid.map((face) => face.id).sort()).toEqual(["f-far", "f-hand", "f-near", "f-near-2"]);
    // f-near-2 alone is 0.5: Ada (0.1) is nearer, but was refused for its person; Bo (1.0) is within reach.
    expect(grid.find((face) => face.id === "f-near-2")?.suggestions).toEqual([{ personId: "bo", name: "Bo", rank: 1 }]);
    expect(grid.find((face) => face.id === "f-hand")?.suggestions).toEqual([]);
    expect(JSON.stringify(grid)).not.toMatch(/descriptor|distance/);
    expect(await listUnnamedFacesForViewer(db, toViewer(other))).toEqual([]);
  });

  it("refuses the whole request for another owner's face, two faces of one photo, or a person already in the photo; nothing changes", async () => {
    const before = await db.selectFrom("faces").select(["id", "person_id"]).orderBy("id").execute();
    await expect(assignFacesByViewer(db, toViewer(owner), { faceIds: ["f-near", "f-theirs"], name: "Nobody" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(assignFacesByViewer(db, toViewer(owner), { faceIds: ["f-near", "no-such-face"], personId: "bo" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(assignFacesByViewer(db, toViewer(owner), { faceIds: ["f-near"], personId: "their" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(assignFacesByViewer(db, toViewer(owner), { faceIds: ["f-bo", "f-hal"], name: "Twins" })).rejects.toMatchObject({ code: "CONFLICT" });
    // Ada is already in p1, where f-near-2 is.
    await expect(assignFacesByViewer(db, toViewer(owner), { faceIds: ["f-near", "f-near-2"], personId: "ada" })).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await db.selectFrom("faces").select(["id", "person_id"]).orderBy("id").execute()).toEqual(before);
    expect(await db.selectFrom("people").select("id").where("name", "in", ["Nobody", "Twins"]).execute()).toEqual([]);
  });

  it("gives several faces to a new person in one go; people left with nothing go", async () => {
    const person = await assignFacesByViewer(db, toViewer(owner), { faceIds: ["f-far", "f-hand"], name: "Cy" });
    expect(person).toMatchObject({ name: "Cy", isOwn: true, photoCount: 2 });
    expect(await facesOf(db, person.id)).toEqual(["f-far", "f-hand"]);
    expect(await personExists(db, "u-far")).toBe(false);
    expect(await personExists(db, "u-hand")).toBe(false);
  });

  it("gives faces to an existing person, who keeps their cover", async () => {
    const person = await assignFacesByViewer(db, toViewer(owner), { faceIds: ["f-near", "f-near-2", "f-near"], personId: "bo" });
    expect(person).toMatchObject({ id: "bo", name: "Bo", photoCount: 3 });
    expect(await facesOf(db, "bo")).toEqual(["f-bo", "f-near", "f-near-2"]);
    // u-near had no name and no face left: gone, and its remembered "no" with it (cascade).
    expect(await personExists(db, "u-near")).toBe(false);
    expect(await db.selectFrom("person_suggestion_rejections").select("person_id").where("person_id", "=", "u-near").execute()).toEqual([]);
  });
});

describe("the routes (the built app, rows written into its database)", () => {
  let shared: Kysely<Database>;
  let ownerClient: TestClient;
  let otherClient: TestClient;
  const tag = `sxr${Date.now().toString(36)}`;
  const id = (name: string) => `${tag}-${name}`;

  beforeAll(async () => {
    shared = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
    const admin = await signedInAdmin();
    const [ownerUser, otherUser] = [await createTestUser(admin, "editor"), await createTestUser(admin, "editor")];
    ownerClient = new TestClient();
    await ownerClient.signIn(ownerUser.email, ownerUser.password);
    otherClient = new TestClient();
    await otherClient.signIn(otherUser.email, otherUser.password);
    // Long ago, so they sort below everything another test lists.
    await insertPhotoRows(shared, [
      { id: id("p1"), owner_id: ownerUser.id, sort_at: "2001-01-01T00:00:00.000Z" },
      { id: id("p2"), owner_id: ownerUser.id, sort_at: "2001-01-02T00:00:00.000Z" },
      { id: id("q1"), owner_id: otherUser.id, sort_at: "2001-01-03T00:00:00.000Z" },
    ]);
    await seedPeople(
      shared,
      [
        { id: id("ada"), ownerId: ownerUser.id, name: "Ada" },
        { id: id("unnamed"), ownerId: ownerUser.id, name: null },
        { id: id("theirs"), ownerId: otherUser.id, name: null },
      ],
      [
        { id: id("f-ada"), photoId: id("p1"), personId: id("ada"), descriptor: at(0) },
        { id: id("f-unnamed"), photoId: id("p2"), personId: id("unnamed"), descriptor: at(0.45) },
        { id: id("f-theirs"), photoId: id("q1"), personId: id("theirs"), descriptor: at(0.45) },
      ],
    );
  });
  afterAll(async () => {
    await shared?.deleteFrom("photos").where("id", "in", [id("p1"), id("p2"), id("q1")]).execute();
    await shared?.deleteFrom("people").where("id", "like", `${tag}-%`).execute();
    await shared?.destroy();
  });

  it("GET /api/people/{id}/suggestions answers names, ids and ranks only, to the owner only", async () => {
    const response = await ownerClient.request(`/api/people/${id("unnamed")}/suggestions`);
    const text = await response.text();
    expect(response.status, text).toBe(200);
    expect(JSON.parse(text)).toEqual({ suggestions: [{ personId: id("ada"), name: "Ada", rank: 1 }] });
    expect(text).not.toMatch(/descriptor|distance/);
    expect((await otherClient.request(`/api/people/${id("unnamed")}/suggestions`)).status).toBe(404);
    expect((await new TestClient().request(`/api/people/${id("unnamed")}/suggestions`)).status).toBe(401);
  });

  it("POST …/suggestions/reject remembers a no (204), refuses another's person (404) and a bad body (4xx)", async () => {
    const reject = (client: TestClient, json: unknown) => client.request(`/api/people/${id("unnamed")}/suggestions/reject`, { method: "POST", body: { json } });
    expect((await reject(otherClient, { suggestedPersonId: id("ada") })).status).toBe(404);
    expect((await reject(ownerClient, {})).status).toBe(422);
    expect((await reject(ownerClient, { suggestedPersonId: id("ada") })).status).toBe(204);
    expect(await (await ownerClient.request(`/api/people/${id("unnamed")}/suggestions`)).json()).toEqual({ suggestions: [] });
  });

  it("POST /api/faces/assign: another's face is a 404 and nothing moves; a bad body is a 422; the owner's faces go to a new person", async () => {
    const assign = (client: TestClient, json: unknown) => client.request("/api/faces/assign", { method: "POST", body: { json } });
    expect((await assign(ownerClient, { faceIds: [id("f-unnamed"), id("f-theirs")], name: "Mix" })).status).toBe(404);
    expect((await assign(otherClient, { faceIds: [id("f-unnamed")], name: "Mine now" })).status).toBe(404);
    expect((await shared.selectFrom("faces").select("person_id").where("id", "=", id("f-unnamed")).executeTakeFirstOrThrow()).person_id).toBe(id("unnamed"));
    expect((await assign(ownerClient, { faceIds: [], name: "Nobody" })).status).toBe(422);
    expect((await assign(ownerClient, { faceIds: [id("f-unnamed")], name: "Bea", personId: id("ada") })).status).toBe(422);
    const response = await assign(ownerClient, { faceIds: [id("f-unnamed")], name: "Bea" });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ person: { name: "Bea", isOwn: true, photoCount: 1 } });
  });

  it("/people/unnamed is the signed-in user's own page of faces to name", async () => {
    const page = await ownerClient.request("/people/unnamed");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Name faces");
    const visitor = await new TestClient().request("/people/unnamed");
    expect([302, 303, 307]).toContain(visitor.status);
  });
});

describe("face boxes turn with their photo (PATCH /api/photos/{id} rotation, the built app)", () => {
  it("a box drawn by hand and a detected one turn a quarter clockwise, and back", async () => {
    const shared = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
    try {
      const admin = await signedInAdmin();
      const user = await createTestUser(admin, "editor");
      const client = new TestClient();
      await client.signIn(user.email, user.password);
      const bytes = new Uint8Array(await sharp({ create: { width: 48, height: 32, channels: 3, background: "#8a6" } }).jpeg().toBuffer());
      const uploaded = await uploadFiles(client, [{ bytes, name: "turned.jpg" }]);
      expect(uploaded.status, await uploaded.clone().text()).toBe(201);
      const photoId = ((await uploaded.json()) as { photos: Array<{ id: string }> }).photos[0].id;
      await waitForProcessing(client, photoId);
      const personId = `turn-${photoId}`;
      await seedPeople(shared, [{ id: personId, ownerId: user.id, name: "Turned Tess" }], [
        { id: `${personId}-hand`, photoId, personId, descriptor: null },
        { id: `${personId}-found`, photoId, personId: null, descriptor: at(0.3) },
      ]);
      // seedPeople draws every box at left 0.4, top 0.2, 0.2 wide, 0.3 high.
      const boxes = async () =>
        (await shared.selectFrom("faces").select(["box_left", "box_top", "box_width", "box_height"]).where("photo_id", "=", photoId).execute()).map((row) =>
          [row.box_left, row.box_top, row.box_width, row.box_height].map((value) => Number(value.toFixed(6))),
        );
      const turn = (rotation: number) => client.request(`/api/photos/${photoId}`, { method: "PATCH", body: { json: { rotation } } });
      expect((await turn(90)).status).toBe(200);
      expect(await boxes()).toEqual([[0.5, 0.4, 0.3, 0.2], [0.5, 0.4, 0.3, 0.2]]);
      expect((await turn(0)).status).toBe(200);
      expect(await boxes()).toEqual([[0.4, 0.2, 0.2, 0.3], [0.4, 0.2, 0.2, 0.3]]);
      await waitForProcessing(client, photoId);
    } finally {
      await shared.destroy();
    }
  }, 60_000);
});
