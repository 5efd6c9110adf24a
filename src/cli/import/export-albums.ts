// Importing a folder `contact-sheet export` wrote: its albums.json gives the albums with their
// nesting, manual order, cover, description, visibility and sort, which folders cannot say (the
// export groups originals by date). Each album is found under its parent by title (a rerun reuses
// what the first run made) or created with its settings; its photos, known by SHA-256, are added in
// the album's order, so a new album's manual order is the exported one; then its cover is set.
import { exportAlbumSchema, type ExportAlbum } from "@/src/export/export-api.schemas";
import { MAX_ALBUM_PHOTOS_PER_REQUEST } from "@/src/albums/albums.types";
import { EXPORT_FILES } from "../export/export-format";
import { readExportFolderList } from "./export-folder";
import type { SiteAlbum, SiteApi } from "./site-api";

export { ExportFolderError } from "./export-folder";

/** The albums of each named folder that is an export (has its manifest.json); [] when none is. */
export function readExportAlbums(paths: readonly string[]): ExportAlbum[] {
  return readExportFolderList(paths, EXPORT_FILES.albums, "albums", exportAlbumSchema, "an export's album list");
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

/** An exported album's path as one key (titles cannot hold NUL). */
export function albumPathKeyOf(albumPath: readonly string[]): string {
  return albumPath.join("\u0000");
}

/**
 * Makes the exported albums on the site; answers how many were created, the site's album for each
 * exported path (the share links made from an album need it), what failed and what is worth
 * telling, one sentence each.
 */
export async function restoreExportAlbums(
  api: Pick<SiteApi, "listAlbums" | "createAlbum" | "addPhotosToAlbum" | "updateAlbum">,
  albums: readonly ExportAlbum[],
  photoIdByHash: ReadonlyMap<string, string>,
): Promise<{ created: number; siteIdByPath: Map<string, string>; failures: string[]; notes: string[] }> {
  const failures: string[] = [];
  const notes: string[] = [];
  let created = 0;
  const children = new Map<string, SiteAlbum[]>();
  const childrenOf = async (parentId: string | null) => {
    const key = parentId ?? "";
    let list = children.get(key);
    if (!list) {
      list = (await api.listAlbums(parentId)).filter((album) => album.canEdit);
      children.set(key, list);
    }
    return list;
  };
  const siteIdOf = new Map<string, string>();
  const siteIdByPath = new Map<string, string>();
  // Parents before their children: an export's parentId names an album of the same export.
  const ordered = [...albums].sort((a, b) => a.path.length - b.path.length);
  for (const album of ordered) {
    const name = album.path.join(" › ");
    try {
      const parentId = album.parentId === null ? null : (siteIdOf.get(album.parentId) ?? null);
      if (album.parentId !== null && parentId === null) throw new Error("its parent album could not be made");
      const siblings = await childrenOf(parentId);
      let siteAlbum = siblings.find((sibling) => sibling.title === album.title);
      if (!siteAlbum) {
        siteAlbum = await api.createAlbum(album.title, parentId, { description: album.description, visibility: album.visibility, sort: album.sort });
        siblings.push(siteAlbum);
        created += 1;
      }
      siteIdOf.set(album.id, siteAlbum.id);
      siteIdByPath.set(albumPathKeyOf(album.path), siteAlbum.id);
      const photoIds = album.photos.map((sha256) => photoIdByHash.get(sha256)).filter((id): id is string => id !== undefined);
      for (const batch of chunks(photoIds, MAX_ALBUM_PHOTOS_PER_REQUEST)) await api.addPhotosToAlbum(siteAlbum.id, batch);
      const coverId = album.coverSha256 === null ? undefined : photoIdByHash.get(album.coverSha256);
      if (coverId) await api.updateAlbum(siteAlbum.id, { coverPhotoId: coverId });
      if (photoIds.length < album.photos.length) notes.push(`album ${name}: ${album.photos.length - photoIds.length} of its photos are not on the site (not imported)`);
    } catch (error) {
      failures.push(`failed to make the album ${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { created, siteIdByPath, failures, notes };
}
