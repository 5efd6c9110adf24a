import { describe, expect, it } from "vitest";
import { HotMediaCache, type HotMediaOffer } from "./hot-media-cache";

function offerOf(key: string, photoId: string, size: number): HotMediaOffer {
  return { key, photoId, bytes: Buffer.alloc(size, key.length), contentType: "image/jpeg", etag: `"${key}"` };
}

function storedOfferOf(key: string, photoId: string, size: number): HotMediaOffer {
  return { key, photoId, bytes: null, storageKey: `variants/${key}`, size, contentType: "video/mp4", etag: `"${key}"` };
}

function createCache(options: { maxTotalBytes?: number; maxEntryBytes?: number; maxEntries?: number; ttlMs?: number } = {}) {
  const clock = { now: 1_000 };
  const cache = new HotMediaCache({
    maxTotalBytes: options.maxTotalBytes ?? 1000,
    maxEntryBytes: options.maxEntryBytes ?? 400,
    maxEntries: options.maxEntries,
    ttlMs: options.ttlMs ?? 10_000,
    now: () => clock.now,
  });
  return { cache, clock };
}

describe("hot media cache", () => {
  it("answers what was offered, byte for byte", () => {
    const { cache } = createCache();
    expect(cache.offer(offerOf("a", "photo-1", 100), cache.epoch)).toBe(true);
    expect(cache.find("a")).toMatchObject({ key: "a", photoId: "photo-1", contentType: "image/jpeg", etag: '"a"' });
    expect(cache.find("a")?.bytes?.equals(Buffer.alloc(100, 1))).toBe(true);
    expect(cache.find("b")).toBeUndefined();
  });

  it("refuses an entry over the entry bound, and one larger than the whole cache", () => {
    const { cache } = createCache({ maxEntryBytes: 400, maxTotalBytes: 300 });
    expect(cache.offer(offerOf("big", "p", 401), cache.epoch)).toBe(false);
    expect(cache.offer(offerOf("too-big-for-all", "p", 350), cache.epoch)).toBe(false);
    expect(cache.size).toBe(0);
    expect(cache.byteSize).toBe(0);
  });

  it("stays within its byte bound by dropping the least recently used", () => {
    const { cache } = createCache({ maxTotalBytes: 1000, maxEntryBytes: 400 });
    cache.offer(offerOf("a", "p", 400), cache.epoch);
    cache.offer(offerOf("b", "p", 400), cache.epoch);
    cache.find("a"); // a is now more recent than b
    cache.offer(offerOf("c", "p", 400), cache.epoch);
    expect(cache.byteSize).toBeLessThanOrEqual(1000);
    expect(cache.find("b")).toBeUndefined();
    expect(cache.find("a")).toBeDefined();
    expect(cache.find("c")).toBeDefined();
    expect(cache.byteSize).toBe(800);
  });

  it("counts a replaced entry once", () => {
    const { cache } = createCache();
    cache.offer(offerOf("a", "p", 300), cache.epoch);
    cache.offer(offerOf("a", "p", 200), cache.epoch);
    expect(cache.size).toBe(1);
    expect(cache.byteSize).toBe(200);
  });

  it("trusts an entry only for its time to live", () => {
    const { cache, clock } = createCache({ ttlMs: 10_000 });
    cache.offer(offerOf("a", "p", 100), cache.epoch);
    clock.now += 9_999;
    expect(cache.find("a")).toBeDefined();
    clock.now += 1;
    expect(cache.find("a")).toBeUndefined();
    expect(cache.byteSize).toBe(0);
    // A new offer (the route checked again) starts a new period.
    cache.offer(offerOf("a", "p", 100), cache.epoch);
    expect(cache.find("a")).toBeDefined();
  });

  it("drops every variant of a photo at once, and only that photo's", () => {
    const { cache } = createCache();
    cache.offer(offerOf("a-400", "photo-a", 100), cache.epoch);
    cache.offer(offerOf("a-800", "photo-a", 100), cache.epoch);
    cache.offer(offerOf("b-400", "photo-b", 100), cache.epoch);
    cache.dropPhoto("photo-a");
    expect(cache.find("a-400")).toBeUndefined();
    expect(cache.find("a-800")).toBeUndefined();
    expect(cache.find("b-400")).toBeDefined();
    expect(cache.byteSize).toBe(100);
  });

  it("refuses an offer that raced with an invalidation", () => {
    const { cache } = createCache();
    const epochAtLookup = cache.epoch; // the route reads the row (still public)...
    cache.dropPhoto("photo-a"); // ...the owner makes it private meanwhile...
    expect(cache.offer(offerOf("a-400", "photo-a", 100), epochAtLookup)).toBe(false); // ...the stale offer is refused
    expect(cache.find("a-400")).toBeUndefined();
    expect(cache.offer(offerOf("a-400", "photo-a", 100), cache.epoch)).toBe(true);
  });

  it("forgets everything on clear, and refuses offers from before it", () => {
    const { cache } = createCache();
    const before = cache.epoch;
    cache.offer(offerOf("a", "p", 100), before);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.byteSize).toBe(0);
    expect(cache.offer(offerOf("b", "p", 100), before)).toBe(false);
  });

  it("remembers a variant too large to hold by where it is stored, weighing no bytes, within its count bound", () => {
    const { cache } = createCache({ maxEntryBytes: 400, maxEntries: 2 });
    expect(cache.offer(storedOfferOf("video-1", "v", 50_000_000), cache.epoch)).toBe(true);
    expect(cache.find("video-1")).toMatchObject({ bytes: null, storageKey: "variants/video-1", size: 50_000_000 });
    expect(cache.byteSize).toBe(0);
    cache.offer(offerOf("small", "p", 300), cache.epoch);
    cache.offer(storedOfferOf("video-2", "v", 60_000_000), cache.epoch);
    expect([cache.size, cache.find("video-1"), cache.byteSize]).toEqual([2, undefined, 300]);
    // Its photo's change drops it as it drops held bytes.
    cache.dropPhoto("v");
    expect(cache.find("video-2")).toBeUndefined();
  });
});
