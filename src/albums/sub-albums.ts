import "server-only";
import type { Viewer } from "@/src/access/viewer";
import type { DatabaseHandle } from "@/src/db/client";
import type { AlbumRow } from "@/src/db/database";
import { albumListAccessOf, canViewAlbum } from "./album-access";
import { listListableChildAlbums } from "./albums.repository";
import { MAX_ALBUM_DEPTH } from "./albums.types";

// The sub-albums a parent's card and page draw on when the parent has no photos of its own. Only
// what this viewer could reach by browsing: each level is the album list rule's
// (whereListableAlbums, then canViewAlbum row by row, as every album list), and nothing under an
// album they may not list is walked, so a private or unlisted child hides its whole branch, even
// a public grandchild's photos. The photos inside are then counted and chosen by the photo list
// rule, as in any album.

export interface SubAlbumTree {
  /** The album's sub-albums this viewer may list, oldest first (as its page lists them). */
  childrenOf(albumId: string): AlbumRow[];
  /** Every sub-album below the album this viewer may reach, at every level, each once. */
  descendantIdsOf(albumId: string): string[];
  /** Every album found below the roots. */
  all(): AlbumRow[];
}

/** The sub-albums under these albums, level by level: one query per level, at most MAX_ALBUM_DEPTH - 1. */
export async function loadSubAlbumTree(db: DatabaseHandle, viewer: Viewer, rootIds: string[]): Promise<SubAlbumTree> {
  const access = albumListAccessOf(viewer);
  const children = new Map<string, AlbumRow[]>();
  // A root may also be under another root (the admin's list holds every album): it is a child
  // there too, but its own children are read once.
  const expanded = new Set(rootIds);
  const placed = new Set<string>();
  const found: AlbumRow[] = [];
  let level = [...expanded];
  for (let depth = 1; depth < MAX_ALBUM_DEPTH && level.length > 0; depth += 1) {
    const rows = (await listListableChildAlbums(db, level, access)).filter((row) => canViewAlbum(viewer, row) && !placed.has(row.id));
    for (const row of rows) {
      placed.add(row.id);
      found.push(row);
      const parentId = row.parent_id as string;
      children.set(parentId, [...(children.get(parentId) ?? []), row]);
    }
    level = rows.map((row) => row.id).filter((id) => !expanded.has(id));
    level.forEach((id) => expanded.add(id));
  }
  const childrenOf = (albumId: string) => children.get(albumId) ?? [];
  return {
    childrenOf,
    descendantIdsOf(albumId) {
      // Visited once each: a cycle, which the service never writes, would otherwise never end.
      const ids = new Set<string>();
      const walk = (id: string) => {
        for (const child of childrenOf(id)) {
          if (child.id === albumId || ids.has(child.id)) continue;
          ids.add(child.id);
          walk(child.id);
        }
      };
      walk(albumId);
      return [...ids];
    },
    all: () => found,
  };
}
