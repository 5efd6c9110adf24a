import "server-only";
import { ANONYMOUS_VIEWER } from "@/src/access/viewer";
import { albumListAccessOf, mayListAlbum } from "@/src/albums/album-access";
import { listAlbumPhotoPage, listVisibleCovers } from "@/src/albums/albums.repository";
import { loadSubAlbumTree } from "@/src/albums/sub-albums";
import type { DatabaseHandle } from "@/src/db/client";
import type { AlbumRow, PhotoRow, PhotoVariantRow, TagRow } from "@/src/db/database";
import { PUBLIC_LIST_ACCESS, whereListablePhotos } from "@/src/photos/listable-photos";
import { listPhotos, listVariants } from "@/src/photos/photos.repository";
import { findTagById, findTagByKey, listTagPhotos } from "@/src/tags/tags.repository";

// What Open Graph images, og: tags and oEmbed may show, read with PUBLIC_LIST_ACCESS only, whoever
// asks: a public, finished photo outside the trash; a public album and its public photos; a tag's
// public photos; the newest public photos of the site. Every query here is one the gallery already
// runs for visitors (listPhotos, listAlbumPhotoPage, listTagPhotos, the sub-album tree), or a primary-key lookup.

/** How many photos an album's, a tag's or the site's collage shows. */
export const COLLAGE_SIZE = 4;

/**
 * How many photos a collage's subject offers: more than it shows, because a photo is drawn only once
 * a variant big enough exists (src/publish/og-images.ts), and the newest ones may still be
 * processing; the first that can be drawn are taken, in order.
 */
const COLLAGE_CANDIDATES = COLLAGE_SIZE * 3;

/** The albums an anonymous visitor may list: public ones. */
const PUBLIC_ALBUM_ACCESS = albumListAccessOf(ANONYMOUS_VIEWER);

export interface PublicPhoto {
  row: PhotoRow;
  /** Its JPEG variants, smallest first. */
  jpegs: PhotoVariantRow[];
}

async function withJpegs(db: DatabaseHandle, rows: PhotoRow[]): Promise<PublicPhoto[]> {
  const variants = await listVariants(db, rows.map((row) => row.id));
  return rows
    .map((row) => ({ row, jpegs: variants.filter((variant) => variant.photo_id === row.id && variant.format === "jpeg") }))
    .filter((photo) => photo.jpegs.length > 0);
}

/** The photo when it is public, finished and not in the trash; null otherwise (whoever asks). */
export async function findPublicPhoto(db: DatabaseHandle, id: string): Promise<PublicPhoto | null> {
  const row = await db
    .selectFrom("photos")
    .selectAll()
    .where("id", "=", id)
    .where((eb) => whereListablePhotos(eb, PUBLIC_LIST_ACCESS))
    .executeTakeFirst();
  if (!row) return null;
  return (await withJpegs(db, [row]))[0] ?? null;
}

function publicAlbum(row: AlbumRow | undefined): AlbumRow | null {
  return row && mayListAlbum(PUBLIC_ALBUM_ACCESS, row) ? row : null;
}

export async function findPublicAlbumById(db: DatabaseHandle, id: string): Promise<AlbumRow | null> {
  return publicAlbum(await db.selectFrom("albums").selectAll().where("id", "=", id).executeTakeFirst());
}

export async function findPublicAlbumBySlug(db: DatabaseHandle, slug: string): Promise<AlbumRow | null> {
  return publicAlbum(await db.selectFrom("albums").selectAll().where("slug", "=", slug).executeTakeFirst());
}

/**
 * Up to four of the album's public photos: its cover first (when public), then the album's order.
 * A parent without public photos of its own shows its public sub-albums' (as its card does): the
 * sub-albums a visitor may list, depth first in the order its page lists them, each in its order.
 */
export async function listPublicAlbumPhotos(db: DatabaseHandle, album: AlbumRow): Promise<PublicPhoto[]> {
  const [covers, rows] = await Promise.all([
    album.cover_photo_id ? listVisibleCovers(db, [{ id: album.id, coverPhotoId: album.cover_photo_id }], PUBLIC_LIST_ACCESS) : Promise.resolve([]),
    listAlbumPhotoPage(db, { albumId: album.id, sort: album.sort, access: PUBLIC_LIST_ACCESS, limit: COLLAGE_CANDIDATES }),
  ]);
  const cover = covers[0] as PhotoRow | undefined;
  const ordered = cover ? [cover, ...rows.filter((row) => row.id !== cover.id)] : rows;
  if (ordered.length > 0) return withJpegs(db, ordered.slice(0, COLLAGE_CANDIDATES));
  return withJpegs(db, await listPublicSubAlbumPhotos(db, album));
}

/** Photos of the album's public sub-albums, depth first, until there are enough candidates; each photo once. */
async function listPublicSubAlbumPhotos(db: DatabaseHandle, album: AlbumRow): Promise<PhotoRow[]> {
  const tree = await loadSubAlbumTree(db, ANONYMOUS_VIEWER, [album.id]);
  const sorts = new Map(tree.all().map((row) => [row.id, row.sort]));
  const found = new Map<string, PhotoRow>();
  for (const albumId of tree.descendantIdsOf(album.id)) {
    if (found.size >= COLLAGE_CANDIDATES) break;
    const rows = await listAlbumPhotoPage(db, { albumId, sort: sorts.get(albumId) ?? "manual", access: PUBLIC_LIST_ACCESS, limit: COLLAGE_CANDIDATES });
    for (const row of rows) if (!found.has(row.id)) found.set(row.id, row);
  }
  return [...found.values()].slice(0, COLLAGE_CANDIDATES);
}

export function findTag(db: DatabaseHandle, by: { id: string } | { key: string }): Promise<TagRow | undefined> {
  return "id" in by ? findTagById(db, by.id) : findTagByKey(db, by.key);
}

/** The tag's newest public photos, in gallery order. */
export async function listPublicTagPhotos(db: DatabaseHandle, tagId: string): Promise<PublicPhoto[]> {
  return withJpegs(db, await listTagPhotos(db, { tagId, access: PUBLIC_LIST_ACCESS, limit: COLLAGE_CANDIDATES }));
}

/**
 * How many pages of candidates the site's collage walks at most: the newest public photos may be
 * without variants for a while (a bulk upload still processing, rows imported before their files),
 * and the site's image should show the newest that can be drawn rather than none.
 */
const SITE_COLLAGE_PAGES = 5;

/** The site's newest public photos that have JPEG variants, in gallery order. */
export async function listNewestPublicPhotos(db: DatabaseHandle): Promise<PublicPhoto[]> {
  const found: PublicPhoto[] = [];
  let after: { sortAt: string; id: string } | undefined;
  for (let page = 0; page < SITE_COLLAGE_PAGES && found.length < COLLAGE_CANDIDATES; page += 1) {
    const rows = await listPhotos(db, { access: PUBLIC_LIST_ACCESS, after, limit: COLLAGE_CANDIDATES });
    found.push(...(await withJpegs(db, rows)));
    if (rows.length < COLLAGE_CANDIDATES) break;
    const last = rows[rows.length - 1];
    after = { sortAt: last.sort_at, id: last.id };
  }
  return found.slice(0, COLLAGE_CANDIDATES);
}
