// The full-screen viewer's neighbours (listNeighbourPhotos): the viewer's own gallery order, never
// wider. On a freshly migrated database of its own, with rows written directly (no image work).
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ANONYMOUS_VIEWER, type SessionUser, toViewer } from "@/src/access/viewer";
import type { DatabaseHandle } from "@/src/db/client";
import type { Visibility } from "@/src/db/database";
import { listNeighbourPhotos } from "@/src/photos/photos.service";
import { insertPhotoRows, insertUsers } from "./helpers/direct-rows";
import { openFreshDatabase } from "./helpers/test-database";

const owner: SessionUser = { id: "neighbours-owner", email: "owner@example.test", name: "Owner", role: "editor" };
const member: SessionUser = { id: "neighbours-member", email: "member@example.test", name: "Member", role: "viewer" };

let db: DatabaseHandle;
let remove: () => Promise<void>;

// Newest first: p1 … p6, one day apart. Lisbon's coordinates on all; only p2 shows them.
const PHOTOS: Array<{ id: string; visibility: Visibility; status?: "ready" | "processing"; showLocation?: boolean }> = [
  { id: "p1", visibility: "public" },
  { id: "p2", visibility: "public", showLocation: true },
  { id: "p3", visibility: "members" },
  { id: "p4", visibility: "private" },
  { id: "p5", visibility: "unlisted" },
  { id: "p6", visibility: "public" },
  { id: "p7", visibility: "public", status: "processing" },
];

beforeAll(async () => {
  ({ db, remove } = await openFreshDatabase(inject("databaseKind")));
  const now = new Date().toISOString();
  await insertUsers(db, [owner, member], now);
  for (const [index, photo] of PHOTOS.entries()) {
    const sortAt = new Date(Date.UTC(2024, 0, 30 - index)).toISOString();
    await insertPhotoRows(db, [
      {
        id: photo.id, owner_id: owner.id, status: photo.status ?? "ready", visibility: photo.visibility,
        gps_latitude: 38.7223, gps_longitude: -9.1393, show_location: photo.showLocation ? 1 : 0, sort_at: sortAt, created_at: now, updated_at: now,
      },
    ]);
  }
});
afterAll(() => remove());

const ids = (photos: Array<{ id: string }>) => photos.map((photo) => photo.id);

describe("listNeighbourPhotos", () => {
  it("gives a visitor only the public, finished photos either side, nearest first", async () => {
    const { newer, older } = await listNeighbourPhotos(db, ANONYMOUS_VIEWER, "p2", 12);
    expect(ids(newer)).toEqual(["p1"]);
    expect(ids(older)).toEqual(["p6"]);
  });

  it("adds members-only photos for a signed-in member, and everything but unfinished ones for the owner", async () => {
    expect(ids((await listNeighbourPhotos(db, toViewer(member), "p1", 12)).older)).toEqual(["p2", "p3", "p6"]);
    expect(ids((await listNeighbourPhotos(db, toViewer(owner), "p1", 12)).older)).toEqual(["p2", "p3", "p4", "p5", "p6"]);
  });

  it("stops at the reach asked for, and never past its own limit", async () => {
    expect(ids((await listNeighbourPhotos(db, toViewer(owner), "p1", 2)).older)).toEqual(["p2", "p3"]);
    expect(ids((await listNeighbourPhotos(db, toViewer(owner), "p1", 10_000)).older)).toHaveLength(5);
  });

  it("names the place only where the viewer may see the location", async () => {
    const { newer, older } = await listNeighbourPhotos(db, ANONYMOUS_VIEWER, "p1", 12);
    expect(newer).toEqual([]);
    expect(older.map((photo) => [photo.id, photo.placeName])).toEqual([["p2", "Portugal"], ["p6", null]]);
  });

  it("gives nothing around a photo the viewer may not see, nor around an unlisted one reached by its link", async () => {
    await expect(listNeighbourPhotos(db, ANONYMOUS_VIEWER, "p4", 12)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await listNeighbourPhotos(db, ANONYMOUS_VIEWER, "p5", 12)).toEqual({ newer: [], older: [] });
  });
});
