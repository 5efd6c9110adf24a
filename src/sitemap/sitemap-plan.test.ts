import { describe, expect, it } from "vitest";
import { countPartUrls, type PlanKey, planSitemapParts } from "./sitemap-plan";

/** `count` photo keys in gallery order, and a reader that walks them by keyset as the repository does. */
function photoKeys(count: number) {
  const keys: PlanKey[] = Array.from({ length: count }, (_, index) => ({ sortAt: `2020-01-01T00:00:${String(99 - Math.floor(index / 2)).padStart(2, "0")}`, id: `p${String(999 - index).padStart(3, "0")}` }));
  const reads: Array<{ after?: PlanKey; limit: number }> = [];
  const readKeys = async (after: PlanKey | undefined, limit: number) => {
    reads.push({ after, limit });
    const start = after ? keys.findIndex((key) => key.id === after.id) + 1 : 0;
    return keys.slice(start, start + limit);
  };
  return { keys, reads, readKeys };
}

/** Every URL each part holds, as "fixed:<n>" and "photo:<id>", by replaying the plan over the keys. */
function expand(parts: Awaited<ReturnType<typeof planSitemapParts>>, keys: PlanKey[]): string[][] {
  return parts.map((part) => {
    const fixed = Array.from({ length: part.fixed.to - part.fixed.from }, (_, index) => `fixed:${part.fixed.from + index}`);
    if (!part.photos) return fixed;
    const start = part.photos.after ? keys.findIndex((key) => key.id === part.photos!.after!.id) + 1 : 0;
    return [...fixed, ...keys.slice(start, start + part.photos.take).map((key) => `photo:${key.id}`)];
  });
}

describe("planSitemapParts", () => {
  it("keeps a small site in one part", async () => {
    const { keys, readKeys } = photoKeys(4);
    const parts = await planSitemapParts(3, 10, readKeys);
    expect(parts).toHaveLength(1);
    expect(expand(parts, keys)[0]).toEqual(["fixed:0", "fixed:1", "fixed:2", ...keys.map((key) => `photo:${key.id}`)]);
  });

  it("answers one empty part for an empty site", async () => {
    const { readKeys } = photoKeys(0);
    expect(await planSitemapParts(0, 5, readKeys)).toEqual([{ fixed: { from: 0, to: 0 }, photos: null }]);
  });

  for (const [fixed, photos, limit] of [
    [3, 20, 3],
    [3, 20, 4],
    [7, 0, 3],
    [0, 9, 3],
    [5, 12, 5],
    [2, 1, 1],
    [11, 29, 7],
  ] as const) {
    it(`cuts ${fixed} pages and ${photos} photos into parts of at most ${limit}, each URL once, in order`, async () => {
      const { keys, reads, readKeys } = photoKeys(photos);
      const parts = await planSitemapParts(fixed, limit, readKeys);
      const urls = expand(parts, keys);
      for (const part of parts) expect(countPartUrls(part)).toBeLessThanOrEqual(limit);
      // Every part but the last is full, so no part is wasted.
      for (const part of parts.slice(0, -1)) expect(countPartUrls(part)).toBe(limit);
      expect(urls.flat()).toEqual([...Array.from({ length: fixed }, (_, index) => `fixed:${index}`), ...keys.map((key) => `photo:${key.id}`)]);
      expect(parts).toHaveLength(Math.max(1, Math.ceil((fixed + photos) / limit)));
      // Keyset walking: each read starts after the last key read, never at a count of rows to skip.
      for (const [index, read] of reads.entries()) {
        if (index === 0) expect(read.after).toBeUndefined();
        else expect(read.after).toBeDefined();
        expect(read.limit).toBeLessThanOrEqual(limit);
      }
    });
  }

  it("refuses a limit below one", async () => {
    const { readKeys } = photoKeys(1);
    await expect(planSitemapParts(1, 0, readKeys)).rejects.toThrow();
  });
});
