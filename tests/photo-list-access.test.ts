// The photo list rule (src/photos/listable-photos.ts), case by case: every kind of viewer, each
// variation, against photos of every visibility, state, owner and trash state. Its three forms must
// agree on a freshly migrated database of the run's kind: the TypeScript form (mayList), the SQL
// condition (whereListablePhotos), its shared/own split (whereListablePart) and its index ranges
// (listablePhotoRanges + whereInRange, which must also never overlap). The named cases below are the
// decisions taken where the old copies of the rule differed (issue 26).
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Database, type PhotoStatus, VISIBILITIES, type Visibility } from "@/src/db/database";
import {
  editablePhotosAccessOf,
  listablePhotoRanges,
  mayList,
  type PhotoListAccess,
  photoListAccessOf,
  type PhotoRangeFilter,
  PUBLIC_LIST_ACCESS,
  SHARE_LINK_ACCESS,
  whereInRange,
  whereListablePart,
  whereListablePhotos,
} from "@/src/photos/listable-photos";
import { ANONYMOUS_VIEWER, toViewer, type Viewer } from "@/src/access/viewer";
import { insertUsers } from "./helpers/direct-rows";
import { accessCast } from "./helpers/access-cast";
import { openFreshDatabase } from "./helpers/test-database";

const { owner, otherEditor, member, admin, viewers: VIEWERS, users } = accessCast("access");
const STATUSES: PhotoStatus[] = ["ready", "processing", "failed"];
/** Whose photo: the editor-owner's, or the admin's own (so "admin" is also an owner in the table). */
const OWNERS = [owner, admin];

interface Case {
  id: string;
  owner_id: string;
  visibility: Visibility;
  status: PhotoStatus;
  trashed_at: string | null;
}

/** One photo per combination: 4 visibilities × 3 states × 2 owners × trashed or not = 48. */
const PHOTOS: Case[] = VISIBILITIES.flatMap((visibility) =>
  STATUSES.flatMap((status) =>
    OWNERS.flatMap((photoOwner) =>
      [false, true].map((trashed) => ({
        id: `${visibility}-${status}-${photoOwner === owner ? "owner" : "admin"}${trashed ? "-trashed" : ""}`,
        owner_id: photoOwner.id,
        visibility,
        status,
        trashed_at: trashed ? "2026-01-01T00:00:00.000Z" : null,
      })),
    ),
  ),
);

/** Every access the code builds: each viewer with each variation, and the fixed ones. */
const ACCESSES: Array<[string, PhotoListAccess]> = [
  ...VIEWERS.flatMap(([who, viewer]): Array<[string, PhotoListAccess]> => [
    [`${who}, own photos in any state`, photoListAccessOf(viewer)],
    [`${who}, own photos only finished`, photoListAccessOf(viewer, { ownPhotos: "finished" })],
  ]),
  ["the public (feeds, sitemap, publish)", PUBLIC_LIST_ACCESS],
  ["a share link's visitor", SHARE_LINK_ACCESS],
  ["what an editor may change", editablePhotosAccessOf(owner)],
  ["what an admin may change", editablePhotosAccessOf(admin)],
];

let db: Kysely<Database>;
let remove: () => Promise<void>;

beforeAll(async () => {
  ({ db, remove } = await openFreshDatabase(inject("databaseKind")));
  const now = "2026-01-01T00:00:00.000Z";
  await insertUsers(db, users, now);
  await db
    .insertInto("photos")
    .values(
      PHOTOS.map((photo, index) => ({
        ...photo,
        sha256: photo.id,
        original_key: `originals/${photo.id}`,
        original_name: `${photo.id}.jpg`,
        original_type: "image/jpeg",
        original_size: 1000,
        width: 30,
        height: 20,
        sort_at: new Date(Date.UTC(2020, 0, 1) + index * 3_600_000).toISOString(),
        created_at: now,
        updated_at: now,
        publication_key: `key-${photo.id}`,
      })),
    )
    .execute();
});
afterAll(() => remove());

function expectedIds(access: PhotoListAccess): string[] {
  return PHOTOS.filter((photo) => mayList(access, photo)).map((photo) => photo.id).sort();
}

async function idsWhere(access: PhotoListAccess): Promise<string[]> {
  const rows = await db.selectFrom("photos").select("id").where((eb) => whereListablePhotos(eb, access)).execute();
  return rows.map((row) => row.id).sort();
}

describe(`the photo list rule: TypeScript and SQL agree (${inject("databaseKind")})`, () => {
  for (const [who, access] of ACCESSES) {
    it(`${who}: mayList, whereListablePhotos, its shared/own parts and its index ranges list the same photos`, async () => {
      const expected = expectedIds(access);
      expect(await idsWhere(access)).toEqual(expected);

      const [shared, own] = await Promise.all(
        (["shared", "own"] as const).map(async (part) => (await db.selectFrom("photos").select("id").where((eb) => whereListablePart(eb, access, part)).execute()).map((row) => row.id)),
      );
      expect([...shared, ...own].sort(), "the parts together are the rule, each photo once").toEqual(expected);

      const filters: PhotoRangeFilter[] = [{}, { onlyOwn: true }, ...VISIBILITIES.map((visibility) => ({ visibility })), { onlyOwn: true, visibility: "private" }];
      for (const filter of filters) {
        const fromRanges: string[] = [];
        for (const range of listablePhotoRanges(access, filter)) {
          fromRanges.push(...(await db.selectFrom("photos").select("id").where((eb) => whereInRange(eb, access, range)).execute()).map((row) => row.id));
        }
        const wanted = PHOTOS.filter(
          (photo) => mayList(access, photo) && (filter.visibility === undefined || photo.visibility === filter.visibility) && (!filter.onlyOwn || photo.owner_id === access.viewerId),
        ).map((photo) => photo.id);
        expect(fromRanges.sort(), `ranges for ${JSON.stringify(filter)}, each photo once`).toEqual(wanted.sort());
      }
    });
  }
});

describe("the photo list rule: the decisions, by name", () => {
  const lists = (viewer: Viewer, id: string, options: Parameters<typeof photoListAccessOf>[1] = {}) => {
    const photo = PHOTOS.find((each) => each.id === id);
    if (!photo) throw new Error(`no case ${id}`);
    return mayList(photoListAccessOf(viewer, options), photo);
  };

  it("nobody lists a photo in the trash, its owner and admins neither", () => {
    for (const [, viewer] of VIEWERS) for (const photo of PHOTOS.filter((each) => each.trashed_at !== null)) expect(lists(viewer, photo.id)).toBe(false);
  });

  it("a visitor lists only public, finished photos", () => {
    expect(PHOTOS.filter((photo) => mayList(photoListAccessOf(ANONYMOUS_VIEWER), photo)).map((photo) => photo.id)).toEqual(["public-ready-owner", "public-ready-admin"]);
  });

  it("signed-in viewers list others' members-only photos, never others' unlisted or private ones", () => {
    for (const viewer of [toViewer(member), toViewer(otherEditor)]) {
      expect(lists(viewer, "members-ready-owner")).toBe(true);
      expect(lists(viewer, "unlisted-ready-owner")).toBe(false);
      expect(lists(viewer, "private-ready-owner")).toBe(false);
    }
  });

  it("nobody lists others' unfinished photos on the gallery's pages, admins included (the gallery used to show them to signed-in users, albums to admins)", () => {
    for (const viewer of [toViewer(member), toViewer(otherEditor), toViewer(admin)]) {
      expect(lists(viewer, "public-processing-owner")).toBe(false);
      expect(lists(viewer, "members-failed-owner")).toBe(false);
    }
    expect(lists(toViewer(admin), "private-ready-owner"), "admins list every visibility").toBe(true);
  });

  it("an owner lists their own photos of every visibility in any state (tag pages used to leave the unfinished ones out), or only finished ones where asked (previous/next)", () => {
    for (const visibility of VISIBILITIES) {
      expect(lists(toViewer(owner), `${visibility}-processing-owner`)).toBe(true);
      expect(lists(toViewer(owner), `${visibility}-processing-owner`, { ownPhotos: "finished" })).toBe(false);
      expect(lists(toViewer(owner), `${visibility}-ready-owner`, { ownPhotos: "finished" })).toBe(true);
    }
  });

  it("a share link lists the finished photos it holds whatever their visibility; what an admin may change includes others' unfinished photos", () => {
    expect(mayList(SHARE_LINK_ACCESS, PHOTOS.find((photo) => photo.id === "private-ready-owner")!)).toBe(true);
    expect(mayList(SHARE_LINK_ACCESS, PHOTOS.find((photo) => photo.id === "public-processing-owner")!)).toBe(false);
    expect(mayList(editablePhotosAccessOf(admin), PHOTOS.find((photo) => photo.id === "private-failed-owner")!)).toBe(true);
    expect(mayList(editablePhotosAccessOf(otherEditor), PHOTOS.find((photo) => photo.id === "public-ready-owner")!)).toBe(false);
  });
});
