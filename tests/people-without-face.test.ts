// A person without a face (issue 32): someone in a photo whose face does not show (turned away),
// tagged with no box. On a freshly migrated database of its own, through the services: stored as a
// face row with source "tag" and no descriptor, listed with the photo's people (box null), counted
// on the person's page, found by person:, removable; never drawn, never a cover, never in the grid
// of faces to name nor in centroids; the same visibility rule as any face (a visitor, and a member
// while "members see people" is off, see nothing).
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ANONYMOUS_VIEWER, type SessionUser, toViewer } from "@/src/access/viewer";
import type { Database } from "@/src/db/database";
import { addManualFace, getPersonPage, listPhotoFacesForViewer, removeManualFace, splitFaceByViewer } from "@/src/faces/people.service";
import { listUnnamedFacesForViewer } from "@/src/faces/person-suggestions.service";
import { searchPhotosForViewer } from "@/src/search/search.service";
import { insertPhotoRows, insertUsers } from "./helpers/direct-rows";
import { setMembersSeePeople } from "./helpers/search-people";
import { openFreshDatabase } from "./helpers/test-database";

const owner: SessionUser = { id: "nf-owner", email: "nf-owner@example.test", name: "Owner", role: "editor" };
const member: SessionUser = { id: "nf-member", email: "nf-member@example.test", name: "Member", role: "editor" };

describe("a person without a face", () => {
  let db: Kysely<Database>;
  let remove: () => Promise<void>;

  beforeAll(async () => {
    ({ db, remove } = await openFreshDatabase(inject("databaseKind")));
    await insertUsers(db, [owner, member]);
    // Visible to members (so only the people setting keeps the tag from them).
    await insertPhotoRows(db, ["nf1", "nf2"].map((id, index) => ({ id, owner_id: owner.id, visibility: "members", sort_at: new Date(Date.UTC(2024, 0, 10 - index)).toISOString() })));
  });
  afterAll(() => remove());

  it("is tagged on a photo with no box: listed with its people, counted on their page, never a cover", async () => {
    const face = await addManualFace(db, toViewer(owner), "nf1", { box: null, name: "Turned Away" });
    expect(face).toMatchObject({ photoId: "nf1", personName: "Turned Away", box: null, source: "tag" });
    const row = await db.selectFrom("faces").select(["source", "descriptor"]).where("id", "=", face.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ source: "tag", descriptor: null });
    expect((await listPhotoFacesForViewer(db, toViewer(owner), "nf1")).faces).toEqual([face]);
    // The same person on a second photo, as one of the owner's people.
    await addManualFace(db, toViewer(owner), "nf2", { box: null, personId: face.personId ?? "" });
    const page = await getPersonPage(db, toViewer(owner), face.personId ?? "");
    expect(page.person).toMatchObject({ name: "Turned Away", photoCount: 2, cover: null });
    expect(page.photos.map((photo) => photo.id)).toEqual(["nf1", "nf2"]);
    // Once per photo, as any face.
    await expect(addManualFace(db, toViewer(owner), "nf1", { box: null, personId: face.personId ?? "" })).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("is found by person:", async () => {
    const found = await searchPhotosForViewer(db, toViewer(owner), { q: 'person:"Turned Away"', limit: 10 });
    expect(found.photos.map((photo) => photo.id)).toEqual(["nf1", "nf2"]);
  });

  it("is never in the grid of faces to name, in clustering's centroids, or split off", async () => {
    const tag = (await listPhotoFacesForViewer(db, toViewer(owner), "nf1")).faces[0];
    await db.updateTable("people").set({ name: null }).where("id", "=", tag.personId ?? "").execute();
    expect(await listUnnamedFacesForViewer(db, toViewer(owner))).toEqual([]);
    expect(await db.selectFrom("person_centroids").select("person_id").execute()).toEqual([]);
    await expect(splitFaceByViewer(db, toViewer(owner), tag.id)).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await db.updateTable("people").set({ name: "Turned Away" }).where("id", "=", tag.personId ?? "").execute();
  });

  it("follows the people visibility rule: nothing for a visitor, nor for a member until members see people", async () => {
    expect((await listPhotoFacesForViewer(db, ANONYMOUS_VIEWER, "nf1")).faces).toEqual([]);
    expect((await listPhotoFacesForViewer(db, toViewer(member), "nf1")).faces).toEqual([]);
    await setMembersSeePeople(db, true);
    expect((await listPhotoFacesForViewer(db, toViewer(member), "nf1")).faces.map((face) => face.personName)).toEqual(["Turned Away"]);
    await setMembersSeePeople(db, false);
  });

  it("is removed from one photo by its owner only; the person stays while they are in another", async () => {
    const [tag] = (await listPhotoFacesForViewer(db, toViewer(owner), "nf1")).faces;
    await expect(removeManualFace(db, toViewer(member), tag.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await removeManualFace(db, toViewer(owner), tag.id);
    expect((await listPhotoFacesForViewer(db, toViewer(owner), "nf1")).faces).toEqual([]);
    expect((await getPersonPage(db, toViewer(owner), tag.personId ?? "")).person.photoCount).toBe(1);
  });
});
