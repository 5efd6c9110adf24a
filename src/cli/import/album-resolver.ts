// Finds each album path on the site (an album the caller may edit, with the same title, under the
// same parent), creating the missing levels only when asked: a rerun reuses what the first run made,
// and a dry run only looks. Lookups are remembered for the run, one list per parent.
import { albumPathKey } from "./album-folders";
import type { SiteAlbum, SiteApi } from "./site-api";

export interface ResolvedAlbum {
  id: string;
  /** How many levels of this path were created by this call. */
  created: number;
}

export class AlbumResolver {
  private readonly children = new Map<string, Promise<SiteAlbum[]>>();
  private readonly resolved = new Map<string, Promise<ResolvedAlbum | null>>();
  /** Every album created in this run. */
  createdCount = 0;

  constructor(private readonly api: SiteApi) {}

  private childrenOf(parentId: string | null): Promise<SiteAlbum[]> {
    const key = parentId ?? "";
    let list = this.children.get(key);
    if (!list) {
      list = this.api.listAlbums(parentId).then((albums) => albums.filter((album) => album.canEdit));
      this.children.set(key, list);
    }
    return list;
  }

  private async findChild(parentId: string | null, title: string): Promise<SiteAlbum | undefined> {
    const children = await this.childrenOf(parentId);
    return children.find((album) => album.title === title) ?? children.find((album) => album.title.toLowerCase() === title.toLowerCase());
  }

  /** The existing album at this path, or null; `missing` is how many levels would be created. */
  async lookUp(titles: readonly string[]): Promise<{ id: string | null; missing: number }> {
    let parentId: string | null = null;
    for (let level = 0; level < titles.length; level += 1) {
      const found = await this.findChild(parentId, titles[level]);
      if (!found) return { id: null, missing: titles.length - level };
      parentId = found.id;
    }
    return { id: parentId, missing: 0 };
  }

  /** The album at this path, each missing level created under the one above (one at a time per path). */
  findOrCreate(titles: readonly string[]): Promise<ResolvedAlbum | null> {
    const key = albumPathKey(titles);
    let pending = this.resolved.get(key);
    if (!pending) {
      pending = this.create(titles);
      this.resolved.set(key, pending);
    }
    return pending;
  }

  private async create(titles: readonly string[]): Promise<ResolvedAlbum | null> {
    if (titles.length === 0) return null;
    // The parent first (shared by siblings, so it is made once), then this level.
    const parent = titles.length > 1 ? await this.findOrCreate(titles.slice(0, -1)) : null;
    const parentId = parent?.id ?? null;
    const title = titles[titles.length - 1];
    const existing = await this.findChild(parentId, title);
    if (existing) return { id: existing.id, created: parent?.created ?? 0 };
    const album = await this.api.createAlbum(title, parentId);
    (await this.childrenOf(parentId)).push(album);
    this.createdCount += 1;
    return { id: album.id, created: (parent?.created ?? 0) + 1 };
  }
}
