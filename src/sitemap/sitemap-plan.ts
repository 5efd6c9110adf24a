/**
 * How the sitemap is cut into parts of at most `limit` URLs. The site's own pages, public albums and
 * tags come first (a list read whole: there are few), then the public photos in gallery order. A
 * part holds a slice of that list and/or a run of photos that starts after a keyset position, so
 * every part is read by one index range, never by OFFSET.
 */

/** A place in the photos' order: the last photo of the run before. */
export interface PlanKey {
  sortAt: string;
  id: string;
}

export interface SitemapPart {
  /** The slice [from, to) of the fixed list (pages, albums, tags) in this part; from === to for none. */
  fixed: { from: number; to: number };
  /** The photos in this part: `take` of them after `after` (undefined: from the newest). */
  photos: { after?: PlanKey; take: number } | null;
}

/** Reads at most `limit` photo keys after `after`, in gallery order. */
export type PhotoKeyReader = (after: PlanKey | undefined, limit: number) => Promise<PlanKey[]>;

/**
 * The parts, at least one. Walks the photos' keys once, `limit` at a time (each read is an index
 * range from the last key), to find where each part's photos start.
 */
export async function planSitemapParts(fixedCount: number, limit: number, readKeys: PhotoKeyReader): Promise<SitemapPart[]> {
  if (!Number.isInteger(limit) || limit < 1) throw new Error("A sitemap part holds at least one URL.");
  const parts: SitemapPart[] = [];
  for (let from = 0; from < fixedCount; from += limit) parts.push({ fixed: { from, to: Math.min(from + limit, fixedCount) }, photos: null });
  let current: SitemapPart | undefined = parts.at(-1);
  let room = current ? limit - (current.fixed.to - current.fixed.from) : 0;
  let after: PlanKey | undefined;
  for (;;) {
    const take = room > 0 ? room : limit;
    const keys = await readKeys(after, take);
    if (keys.length === 0) break;
    if (room === 0) {
      current = { fixed: { from: fixedCount, to: fixedCount }, photos: null };
      parts.push(current);
    }
    current!.photos = { ...(after ? { after } : {}), take: keys.length };
    after = keys[keys.length - 1];
    room = take - keys.length;
    // Fewer keys than asked for: that was the last of them.
    if (room > 0) break;
  }
  if (parts.length === 0) parts.push({ fixed: { from: 0, to: 0 }, photos: null });
  return parts;
}

/** How many URLs a part holds. */
export function countPartUrls(part: SitemapPart): number {
  return part.fixed.to - part.fixed.from + (part.photos?.take ?? 0);
}
