// The album rules (src/albums/album-access.ts), case by case: every kind of viewer against albums of
// every visibility and owner. canViewAlbum, canEditAlbum and mayListAlbum are checked against a
// table written out here, and the listing condition every album query uses (whereListableAlbums)
// must list exactly what mayListAlbum does, on a freshly migrated database of the run's kind.
// Albums have no state and no trash: a deleted album is gone.
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { albumListAccessOf, canEditAlbum, canViewAlbum, mayListAlbum, whereListableAlbums } from "@/src/albums/album-access";
import { type Database, VISIBILITIES, type Visibility } from "@/src/db/database";
import { insertUsers } from "./helpers/direct-rows";
import { accessCast, type ViewerKind } from "./helpers/access-cast";
import { openFreshDatabase } from "./helpers/test-database";

const { owner, admin, viewers: VIEWERS, users } = accessCast("album-access");
type Kind = ViewerKind;

/** The albums: one per visibility, of the editor-owner, and one per visibility of the admin. */
const ALBUMS = VISIBILITIES.flatMap((visibility) => [owner, admin].map((albumOwner) => ({ id: `${visibility}-${albumOwner === owner ? "owner" : "admin"}`, owner_id: albumOwner.id, visibility })));

/**
 * What each kind of viewer may do with the editor-owner's album of each visibility: open it (V),
 * find it in lists (L), change it (E). Unlisted: opened by its link, listed only to its owner and admins.
 */
const OWNERS_ALBUM: Record<Kind, Record<Visibility, string>> = {
  anonymous: { public: "VL", unlisted: "V", members: "", private: "" },
  viewer: { public: "VL", unlisted: "V", members: "VL", private: "" },
  "editor-owner": { public: "VLE", unlisted: "VLE", members: "VLE", private: "VLE" },
  "other editor": { public: "VL", unlisted: "V", members: "VL", private: "" },
  admin: { public: "VLE", unlisted: "VLE", members: "VLE", private: "VLE" },
};

let db: Kysely<Database>;
let remove: () => Promise<void>;

beforeAll(async () => {
  ({ db, remove } = await openFreshDatabase(inject("databaseKind")));
  const now = "2026-01-01T00:00:00.000Z";
  await insertUsers(db, users, now);
  await db
    .insertInto("albums")
    .values(ALBUMS.map((album) => ({ ...album, slug: album.id, title: album.id, parent_id: null, cover_photo_id: null, created_at: now, updated_at: now })))
    .execute();
});
afterAll(() => remove());

describe(`album access (${inject("databaseKind")})`, () => {
  for (const [kind, viewer] of VIEWERS) {
    it(`${kind}: may open, list and change the editor-owner's albums as the table says`, () => {
      for (const visibility of VISIBILITIES) {
        const album = { owner_id: owner.id, visibility };
        const rights = `${canViewAlbum(viewer, album) ? "V" : ""}${mayListAlbum(albumListAccessOf(viewer), album) ? "L" : ""}${canEditAlbum(viewer, album) ? "E" : ""}`;
        expect(rights, visibility).toBe(OWNERS_ALBUM[kind][visibility]);
      }
    });

    it(`${kind}: the listing condition lists exactly what mayListAlbum does, and only albums they may open`, async () => {
      const access = albumListAccessOf(viewer);
      const rows = await db.selectFrom("albums").select("id").where((eb) => whereListableAlbums(eb, access)).execute();
      const expected = ALBUMS.filter((album) => mayListAlbum(access, album));
      expect(rows.map((row) => row.id).sort()).toEqual(expected.map((album) => album.id).sort());
      for (const album of expected) expect(canViewAlbum(viewer, album), album.id).toBe(true);
    });
  }
});
