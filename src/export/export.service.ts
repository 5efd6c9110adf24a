import type { SessionUser } from "@/src/access/viewer";
import type { DatabaseHandle } from "@/src/db/client";
import type { AlbumRow } from "@/src/db/database";
import { decodeKeysetCursor, encodeKeysetCursor } from "@/src/db/keyset-cursor";
import { listTagsOfPhotos } from "@/src/tags/tags.repository";
import type { ExportAlbum, ExportPhoto, ExportShare } from "./export-api.schemas";
import { exportScopeOf } from "./export-scope";
import {
  type ExportPhotoRow,
  listAlbumIdsOfPhotos,
  listExportAlbumPhotos,
  listExportAlbums,
  listExportPhotoPage,
  listExportSharePhotos,
  listExportShares,
  listUserEmails,
} from "./export.repository";

// The three lists `contact-sheet export` reads: photos with every field (paged), albums with their
// nesting, order and cover, and share links' settings. All three take the same scope (the caller's
// own, or everyone's for an admin who asks), so an export never holds another user's private photo
// or album, and never a share key, password hash, session or token.

/** The album paths of the albums in scope: titles from the top, stopping at a parent outside it. */
function albumPaths(albums: AlbumRow[]): Map<string, string[]> {
  const byId = new Map(albums.map((album) => [album.id, album]));
  const paths = new Map<string, string[]>();
  const pathOf = (album: AlbumRow, depth: number): string[] => {
    const known = paths.get(album.id);
    if (known) return known;
    const parent = album.parent_id ? byId.get(album.parent_id) : undefined;
    // The depth bound guards against a cycle the service never lets in, rather than trusting it.
    const path = parent && depth < 16 ? [...pathOf(parent, depth + 1), album.title] : [album.title];
    paths.set(album.id, path);
    return path;
  };
  for (const album of albums) pathOf(album, 0);
  return paths;
}

function toExportPhoto(row: ExportPhotoRow, tags: string[], albums: string[][]): ExportPhoto {
  const hasLocation = row.gps_latitude !== null && row.gps_longitude !== null;
  const hasPlace = row.place_city !== null || row.place_region !== null || row.place_country_code !== null;
  return {
    id: row.id,
    sha256: row.sha256,
    originalName: row.original_name,
    originalType: row.original_type,
    originalSize: Number(row.original_size),
    mediaKind: row.media_kind,
    status: row.status,
    ownerEmail: row.owner_email,
    title: row.title,
    caption: row.caption,
    altText: row.alt_text,
    takenAt: row.taken_at,
    uploadedAt: row.created_at,
    location: hasLocation ? { latitude: row.gps_latitude as number, longitude: row.gps_longitude as number, altitude: row.gps_altitude } : null,
    showLocation: row.show_location === 1,
    place: hasPlace
      ? { city: row.place_city, region: row.place_region, countryCode: row.place_country_code, timeZone: row.place_time_zone, source: row.place_source }
      : null,
    visibility: row.visibility,
    rating: row.rating,
    label: row.label,
    allowDownload: row.allow_download === null ? null : row.allow_download === 1,
    rotation: row.rotation,
    tags,
    albums,
  };
}

export async function listExportPhotos(
  db: DatabaseHandle,
  user: SessionUser,
  query: { all: boolean; cursor?: string; limit: number },
): Promise<{ photos: ExportPhoto[]; nextCursor: string | null }> {
  const scope = exportScopeOf(user, query.all);
  const afterId = query.cursor === undefined ? null : decodeKeysetCursor(query.cursor, 1, "The cursor is not valid: start again without it.")[0];
  // One row more than asked tells whether another page follows.
  const rows = await listExportPhotoPage(db, scope.photos, afterId, query.limit + 1);
  const page = rows.slice(0, query.limit);
  const ids = page.map((row) => row.id);
  const [tagRows, memberships, albums] = await Promise.all([
    listTagsOfPhotos(db, ids),
    listAlbumIdsOfPhotos(db, ids, scope.albums),
    listExportAlbums(db, scope.albums),
  ]);
  const paths = albumPaths(albums);
  const tagsOf = new Map<string, string[]>();
  for (const tag of tagRows) tagsOf.set(tag.photo_id, [...(tagsOf.get(tag.photo_id) ?? []), tag.name]);
  const albumsOf = new Map<string, string[][]>();
  for (const member of memberships) {
    const path = paths.get(member.album_id);
    if (path) albumsOf.set(member.photo_id, [...(albumsOf.get(member.photo_id) ?? []), path]);
  }
  const byPath = (a: string[], b: string[]) => a.join("\u0000").localeCompare(b.join("\u0000"));
  return {
    photos: page.map((row) => toExportPhoto(row, tagsOf.get(row.id) ?? [], (albumsOf.get(row.id) ?? []).sort(byPath))),
    nextCursor: rows.length > query.limit ? encodeKeysetCursor(page[page.length - 1].id) : null,
  };
}

export async function listExportAlbumsOf(db: DatabaseHandle, user: SessionUser, query: { all: boolean }): Promise<ExportAlbum[]> {
  const scope = exportScopeOf(user, query.all);
  const albums = await listExportAlbums(db, scope.albums);
  const paths = albumPaths(albums);
  const inScope = new Set(albums.map((album) => album.id));
  const members = await listExportAlbumPhotos(db, [...inScope], scope.photos);
  const photosOf = new Map<string, Array<{ id: string; sha256: string }>>();
  for (const member of members) photosOf.set(member.album_id, [...(photosOf.get(member.album_id) ?? []), { id: member.photo_id, sha256: member.sha256 }]);
  const owners = await ownerEmails(db, albums.map((album) => album.owner_id));
  return albums.map((album) => {
    const photos = photosOf.get(album.id) ?? [];
    const cover = photos.find((photo) => photo.id === album.cover_photo_id);
    return {
      id: album.id,
      parentId: album.parent_id !== null && inScope.has(album.parent_id) ? album.parent_id : null,
      path: paths.get(album.id) ?? [album.title],
      ownerEmail: owners.get(album.owner_id) ?? "",
      title: album.title,
      slug: album.slug,
      description: album.description,
      visibility: album.visibility,
      sort: album.sort,
      coverSha256: cover?.sha256 ?? null,
      photos: photos.map((photo) => photo.sha256),
      createdAt: album.created_at,
    };
  });
}

export async function listExportSharesOf(db: DatabaseHandle, user: SessionUser, query: { all: boolean }): Promise<ExportShare[]> {
  const scope = exportScopeOf(user, query.all);
  const [shares, albums] = await Promise.all([listExportShares(db, scope.shareOwnerId), listExportAlbums(db, scope.albums)]);
  const paths = albumPaths(albums);
  const photos = await listExportSharePhotos(db, shares.map((share) => share.id), scope.photos);
  const photosOf = new Map<string, string[]>();
  for (const photo of photos) photosOf.set(photo.share_id, [...(photosOf.get(photo.share_id) ?? []), photo.sha256]);
  const owners = await ownerEmails(db, shares.map((share) => share.owner_id));
  return shares.map((share) => ({
    ownerEmail: owners.get(share.owner_id) ?? "",
    title: share.title,
    message: share.message,
    albumPath: share.album_id === null ? null : (paths.get(share.album_id) ?? null),
    photos: photosOf.get(share.id) ?? [],
    download: share.download,
    allowZip: share.allow_zip === 1,
    showExif: share.show_exif === 1,
    showLocation: share.show_location === 1,
    allowPicks: share.allow_picks === 1,
    pickLimit: share.pick_limit,
    hasPassword: share.password_hash !== null,
    expiresAt: share.expires_at,
    maxViews: share.max_views,
    revoked: share.revoked_at !== null,
    createdAt: share.created_at,
  }));
}

async function ownerEmails(db: DatabaseHandle, ids: string[]): Promise<Map<string, string>> {
  const rows = await listUserEmails(db, [...new Set(ids)]);
  return new Map(rows.map((row) => [row.id, row.email]));
}
