// Client-safe: no imports. Albums in tree order, for every album picker ("Inside" in Admin → Albums
// and the album editor, the library's "Album…" dialog and filter, the upload page's offer). A flat
// list by title cannot tell Travel › 2024 from Family › 2024; a native <select> cannot nest, so
// each option is indented by its depth and names the albums above it.

/** What the tree needs of an album. */
export interface TreeAlbum {
  id: string;
  title: string;
  parentId: string | null;
}

/** One album in tree order. */
export interface AlbumTreeEntry<A extends TreeAlbum> {
  album: A;
  /** 0: at the top of this list (a top-level album, or one whose parent is not in the list). */
  depth: number;
  /** The titles from the top of this list down to the album itself. */
  path: string[];
}

/** How a path reads: "Travel › Italy › 2024". */
export const PATH_SEPARATOR = " › ";

/** One indent per level: an em space, which a <select>'s option keeps (ordinary spaces collapse). */
const INDENT = "\u2003";

/**
 * The albums as a tree, depth first: each album's children right under it, siblings by title
 * (then id, so equal titles keep one order). `exclude` leaves out one album and everything under
 * it (an album cannot go inside itself). An album whose parent is not in the list (one the user
 * may not manage) starts at the top; a cycle, which the service never writes, is cut rather than
 * followed forever.
 */
export function orderAlbumsAsTree<A extends TreeAlbum>(albums: readonly A[], options: { exclude?: string | null } = {}): AlbumTreeEntry<A>[] {
  const ids = new Set(albums.map((album) => album.id));
  const children = new Map<string | null, A[]>();
  for (const album of albums) {
    const parent = album.parentId !== null && ids.has(album.parentId) && album.parentId !== album.id ? album.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), album]);
  }
  const ordered: AlbumTreeEntry<A>[] = [];
  const placed = new Set<string>();
  function walk(parent: string | null, depth: number, above: string[]): void {
    const siblings = (children.get(parent) ?? []).toSorted((left, right) => left.title.localeCompare(right.title) || (left.id < right.id ? -1 : left.id > right.id ? 1 : 0));
    for (const album of siblings) {
      if (album.id === options.exclude || placed.has(album.id)) continue;
      placed.add(album.id);
      const path = [...above, album.title];
      ordered.push({ album, depth, path });
      walk(album.id, depth + 1, path);
    }
  }
  walk(null, 0, []);
  return ordered;
}

/** An album as a picker's option: its id, what the option shows, and its full path (for the option's title). */
export interface AlbumPickerChoice {
  id: string;
  title: string;
  /** Indented by depth; a nested album names the albums above it: "  2024 (Travel › Italy)". */
  label: string;
  /** "Travel › Italy › 2024". */
  path: string;
}

/** The albums as a picker lists them: tree order, indented, each nested one with its path. */
export function albumPickerChoices(albums: readonly TreeAlbum[], options: { exclude?: string | null } = {}): AlbumPickerChoice[] {
  return orderAlbumsAsTree(albums, options).map(({ album, depth, path }) => ({
    id: album.id,
    title: album.title,
    label: `${INDENT.repeat(depth)}${album.title}${depth > 0 ? ` (${path.slice(0, -1).join(PATH_SEPARATOR)})` : ""}`,
    path: path.join(PATH_SEPARATOR),
  }));
}
