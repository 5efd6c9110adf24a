import type { SessionUser } from "@/src/access/viewer";
import { VISIBILITIES } from "@/src/db/database";
import { AppError } from "@/src/errors/app-error";
import type { AlbumListAccess } from "@/src/albums/album-access";
import { editablePhotosAccessOf, type PhotoListAccess } from "@/src/photos/listable-photos";

// What `contact-sheet export` may take out, written once for the three export lists: a user's own
// photos, albums and share links (every state, never the trash), or, for an admin who asks for
// `all`, everyone's. It is expressed as the access rules' own inputs (PhotoListAccess for
// whereListablePhotos, AlbumListAccess for whereListableAlbums), so nothing here copies a rule;
// `ownerId` narrows share links, which have no list rule of their own (only their owner manages them).

export interface ExportScope {
  photos: PhotoListAccess;
  albums: AlbumListAccess;
  /** Whose share links: one owner, or null for every owner (an admin's `all`). */
  shareOwnerId: string | null;
}

export function exportScopeOf(user: SessionUser, all: boolean): ExportScope {
  if (all) {
    if (user.role !== "admin") throw new AppError("FORBIDDEN", "Only an admin may export every user's library (all=true).");
    // An admin manages every photo in any state: the same access the library and share links use.
    return { photos: editablePhotosAccessOf(user), albums: { visibilities: VISIBILITIES, viewerId: user.id }, shareOwnerId: null };
  }
  // Own photos only, whatever their visibility or state: nobody else's, even those the user may list.
  return { photos: { visibilities: [], viewerId: user.id, ownPhotos: "any-state" }, albums: { visibilities: [], viewerId: user.id }, shareOwnerId: user.id };
}
