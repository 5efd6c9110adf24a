import type { DatabaseHandle } from "@/src/db/client";
import type { AlbumRow, PhotoRow } from "@/src/db/database";
import { PUBLIC_LIST_ACCESS, whereListablePhotos } from "@/src/photos/listable-photos";

/** A place in the public photos' gallery order (sort_at desc, id desc). */
export interface PhotoKey {
  sortAt: string;
  id: string;
}

export type SitemapPhotoRow = Pick<PhotoRow, "id" | "sort_at" | "updated_at" | "publication_key">;

/**
 * Public photos (ready, not trashed) in gallery order after `after`, at most `limit`: a range of
 * photos_visibility_sort from the keyset, never OFFSET, so part 40 of the sitemap costs what part 1 does.
 */
export function listPublicPhotosAfter(db: DatabaseHandle, query: { after?: PhotoKey; limit: number }): Promise<SitemapPhotoRow[]> {
  const after = query.after;
  return db
    .selectFrom("photos")
    .select(["id", "sort_at", "updated_at", "publication_key"])
    .where((eb) => whereListablePhotos(eb, PUBLIC_LIST_ACCESS))
    .$if(after !== undefined, (select) => select.where((eb) => eb(eb.refTuple("sort_at", "id"), "<", eb.tuple(after!.sortAt, after!.id))))
    .orderBy("sort_at", "desc")
    .orderBy("id", "desc")
    .limit(query.limit)
    .execute();
}

/** Every public album, oldest first: there are few (they are made by hand), so they are read whole and ordered here, not by a sort in the database. */
export async function listPublicAlbums(db: DatabaseHandle): Promise<AlbumRow[]> {
  const albums = await db.selectFrom("albums").selectAll().where("visibility", "=", "public").execute();
  const key = (album: AlbumRow) => `${album.created_at}|${album.id}`;
  return albums.sort((left, right) => (key(left) < key(right) ? -1 : key(left) > key(right) ? 1 : 0));
}

/** The chosen covers of these albums that are public photos still in their album: album id → cover row. */
export async function listPublicCovers(db: DatabaseHandle, albums: Array<{ id: string; coverPhotoId: string }>): Promise<Map<string, Pick<PhotoRow, "id" | "publication_key">>> {
  if (albums.length === 0) return new Map();
  const rows = await db
    .selectFrom("album_photos")
    .innerJoin("photos", "photos.id", "album_photos.photo_id")
    .select(["album_photos.album_id", "photos.id", "photos.publication_key"])
    .where((eb) => eb.or(albums.map((album) => eb.and([eb("album_photos.album_id", "=", album.id), eb("album_photos.photo_id", "=", album.coverPhotoId)]))))
    .where((eb) => whereListablePhotos(eb, PUBLIC_LIST_ACCESS))
    .execute();
  return new Map(rows.map((row) => [row.album_id, { id: row.id, publication_key: row.publication_key }]));
}
