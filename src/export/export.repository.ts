import type { DatabaseHandle } from "@/src/db/client";
import type { AlbumRow, PhotoRow, ShareRow } from "@/src/db/database";
import { type AlbumListAccess, whereListableAlbums } from "@/src/albums/album-access";
import { type PhotoListAccess, whereListablePhotos } from "@/src/photos/listable-photos";

// The export's SQL, one statement per function. Every photo and album condition is the access
// rule's own (whereListablePhotos, whereListableAlbums) for the scope export-scope.ts chose.

export type ExportPhotoRow = PhotoRow & { owner_email: string };

/** One page of the photos in scope, by id (stable while photos are added: new ids land anywhere, but a rerun is resumable). */
export function listExportPhotoPage(db: DatabaseHandle, access: PhotoListAccess, afterId: string | null, limit: number): Promise<ExportPhotoRow[]> {
  return db
    .selectFrom("photos")
    .innerJoin("users", "users.id", "photos.owner_id")
    .selectAll("photos")
    .select("users.email as owner_email")
    .where((eb) => whereListablePhotos(eb, access))
    .$if(afterId !== null, (select) => select.where("photos.id", ">", afterId as string))
    .orderBy("photos.id")
    .limit(limit)
    .execute();
}

/** Every album in scope (albums are few: one list, oldest first so parents come before children of the same age). */
export function listExportAlbums(db: DatabaseHandle, access: AlbumListAccess): Promise<AlbumRow[]> {
  return db
    .selectFrom("albums")
    .selectAll()
    .where((eb) => whereListableAlbums(eb, access))
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

/** Which of these albums hold which of the photos in scope, in each album's manual order. */
export function listExportAlbumPhotos(
  db: DatabaseHandle,
  albumIds: string[],
  access: PhotoListAccess,
): Promise<Array<{ album_id: string; photo_id: string; sha256: string }>> {
  if (albumIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("album_photos")
    .innerJoin("photos", "photos.id", "album_photos.photo_id")
    .select(["album_photos.album_id", "album_photos.photo_id", "photos.sha256"])
    .where("album_photos.album_id", "in", albumIds)
    .where((eb) => whereListablePhotos(eb, access))
    .orderBy("album_photos.album_id")
    .orderBy("album_photos.order_key")
    .execute();
}

/** The albums in scope holding any of these photos. */
export function listAlbumIdsOfPhotos(db: DatabaseHandle, photoIds: string[], access: AlbumListAccess): Promise<Array<{ album_id: string; photo_id: string }>> {
  if (photoIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("album_photos")
    .innerJoin("albums", "albums.id", "album_photos.album_id")
    .select(["album_photos.album_id", "album_photos.photo_id"])
    .where("album_photos.photo_id", "in", photoIds)
    .where((eb) => whereListableAlbums(eb, access))
    .execute();
}

/** One owner's share links, or everyone's (ownerId null), oldest first. */
export function listExportShares(db: DatabaseHandle, ownerId: string | null): Promise<ShareRow[]> {
  return db
    .selectFrom("shares")
    .selectAll()
    .$if(ownerId !== null, (select) => select.where("owner_id", "=", ownerId as string))
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

/** The photos of these links that are in scope (by hash, which is how an export names a photo), in each link's order. */
export function listExportSharePhotos(db: DatabaseHandle, shareIds: string[], access: PhotoListAccess): Promise<Array<{ share_id: string; sha256: string }>> {
  if (shareIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("share_photos")
    .innerJoin("photos", "photos.id", "share_photos.photo_id")
    .select(["share_photos.share_id", "photos.sha256"])
    .where("share_photos.share_id", "in", shareIds)
    .where((eb) => whereListablePhotos(eb, access))
    .orderBy("share_photos.share_id")
    .orderBy("share_photos.position")
    .execute();
}

/** The e-mail of each of these users: how an export names owners, since ids mean nothing on another site. */
export function listUserEmails(db: DatabaseHandle, ids: string[]): Promise<Array<{ id: string; email: string }>> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom("users").select(["id", "email"]).where("id", "in", ids).execute();
}
