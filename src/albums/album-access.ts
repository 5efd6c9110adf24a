import type { ExpressionBuilder } from "kysely";
import { signedInUser, type Viewer } from "@/src/access/viewer";
import type { AlbumRow, Database, Visibility } from "@/src/db/database";
import { canEditPhoto, canViewPhoto, listableVisibilities } from "@/src/photos/photo-access";

// Who may open, change and list an album: the one place, in TypeScript and as the Kysely condition
// every query that lists or joins albums uses (checked case by case on both databases by
// tests/album-access.test.ts). An album has an owner and a visibility, and they mean what they mean
// on a photo: public: everyone; unlisted: whoever has its link, listed only to its owner and admins;
// members: signed-in users; private: its owner and admins. An album never widens who may see a
// photo: inside it each reader sees only what src/photos/listable-photos.ts lets them list.

/** The album's fields the rules read. */
export type AlbumAccessFields = Pick<AlbumRow, "owner_id" | "visibility">;

/** Whether the viewer may open the album by its address. */
export function canViewAlbum(viewer: Viewer, album: AlbumAccessFields): boolean {
  return canViewPhoto(viewer, album);
}

/** Editors change their own albums; admins any. */
export function canEditAlbum(viewer: Viewer, album: AlbumAccessFields): boolean {
  return canEditPhoto(viewer, album);
}

/** Which albums a list shows: these visibilities, and every album of `viewerId` (null: nobody's own). */
export interface AlbumListAccess {
  visibilities: readonly Visibility[];
  viewerId: string | null;
}

export function albumListAccessOf(viewer: Viewer): AlbumListAccess {
  const user = signedInUser(viewer);
  return { visibilities: listableVisibilities(viewer), viewerId: user?.id ?? null };
}

/** Whether a list for this access shows the album: the TypeScript form of whereListableAlbums. */
export function mayListAlbum(access: AlbumListAccess, album: AlbumAccessFields): boolean {
  return access.visibilities.includes(album.visibility) || album.owner_id === access.viewerId;
}

/** The same rule as a condition on `albums`, for every query that lists or joins albums. */
export function whereListableAlbums<DB extends Database, TB extends keyof DB & "albums">(eb: ExpressionBuilder<DB, TB>, access: AlbumListAccess) {
  const albums = eb as unknown as ExpressionBuilder<Database, "albums">;
  const shown = access.visibilities.length === 0 ? [] : [albums("albums.visibility", "in", [...access.visibilities])];
  const mine = access.viewerId === null ? [] : [albums("albums.owner_id", "=", access.viewerId)];
  return albums.or([...shown, ...mine, albums.lit(false)]);
}

