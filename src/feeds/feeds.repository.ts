import type { DatabaseHandle } from "@/src/db/client";
import type { PhotoRow } from "@/src/db/database";
import { PUBLIC_LIST_ACCESS, whereListablePhotos } from "@/src/photos/listable-photos";

/**
 * The photos feeds publish: only what an anonymous visitor may list (public, ready, not trashed),
 * whoever asks, newest first. Each query walks an index in order and stops after `limit` rows.
 */

/** The newest public photos of the whole gallery: photos_visibility_sort from the top. */
export function listNewestPublicPhotos(db: DatabaseHandle, limit: number): Promise<PhotoRow[]> {
  return db
    .selectFrom("photos")
    .selectAll()
    .where((eb) => whereListablePhotos(eb, PUBLIC_LIST_ACCESS))
    .orderBy("sort_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

/** The newest public photos of one album (by date taken): album_photos_taken from the top. */
export function listNewestPublicAlbumPhotos(db: DatabaseHandle, albumId: string, limit: number): Promise<PhotoRow[]> {
  return db
    .selectFrom("album_photos")
    .innerJoin("photos", "photos.id", "album_photos.photo_id")
    .selectAll("photos")
    .where("album_photos.album_id", "=", albumId)
    .where((eb) => whereListablePhotos(eb, PUBLIC_LIST_ACCESS))
    .orderBy("album_photos.photo_sort_at", "desc")
    .orderBy("album_photos.photo_id", "desc")
    .limit(limit)
    .execute();
}

/** The newest public photos with one tag: photo_tags_tag_sort from the top. */
export function listNewestPublicTagPhotos(db: DatabaseHandle, tagId: string, limit: number): Promise<PhotoRow[]> {
  return db
    .selectFrom("photo_tags")
    .innerJoin("photos", "photos.id", "photo_tags.photo_id")
    .selectAll("photos")
    .where("photo_tags.tag_id", "=", tagId)
    .where((eb) => whereListablePhotos(eb, PUBLIC_LIST_ACCESS))
    .orderBy("photo_tags.sort_at", "desc")
    .orderBy("photo_tags.photo_id", "desc")
    .limit(limit)
    .execute();
}
