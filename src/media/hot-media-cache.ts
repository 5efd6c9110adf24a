/**
 * A bounded in-memory cache of hot PUBLIC variants, so that server.mjs can answer the gallery's
 * image requests without going through Next.js (a file through a Next.js route serves about 0.07×
 * what nginx does; from memory in plain Node about 0.55×).
 *
 * Privacy rules, in order of importance:
 * - Only the /media route puts bytes in, and only after it has itself decided that the variant is
 *   public (`offer`). The cache never decides who may see anything.
 * - When a photo changes or is deleted in this process, its entries go at once (`dropPhoto`), and
 *   an offer that raced with such a change is refused (`epoch`).
 * - Changes made by other instances of the app are caught before every answer by the fast path's
 *   access-version check (access-version-gate.ts), which clears the whole cache when they happened.
 * - Every entry is kept for `ttlMs` only; after that the request goes through the route again,
 *   which re-checks the database and offers anew.
 */

/** One cached variant: the bytes and what its headers are made of. */
export interface HotMediaEntry {
  /** The storage key, i.e. the URL path after `/media/`. */
  key: string;
  photoId: string;
  bytes: Buffer;
  contentType: string;
  etag: string;
  /** When the route offered it (ms, the cache's clock). */
  storedAt: number;
}

export type HotMediaOffer = Omit<HotMediaEntry, "storedAt">;

export interface HotMediaCacheOptions {
  /** Upper bound on the sum of all entries' bytes; the least recently used go first. */
  maxTotalBytes: number;
  /** Larger variants are never cached (they are rare requests and would push out many small ones). */
  maxEntryBytes: number;
  /** How long an entry is trusted without the route checking the photo again. */
  ttlMs: number;
  /** The clock; tests pass their own. */
  now?: () => number;
}

export class HotMediaCache {
  // A Map keeps insertion order: re-inserting on every hit makes its first key the least recently used.
  private readonly entries = new Map<string, HotMediaEntry>();
  private totalBytes = 0;
  private invalidations = 0;
  private readonly now: () => number;

  constructor(private readonly options: HotMediaCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * A counter that moves on every invalidation. The route reads it before it looks the variant up
   * in the database and hands it to `offer`: if a photo was changed in between, the route's view
   * may be stale and the offer is refused.
   */
  get epoch(): number {
    return this.invalidations;
  }

  get byteSize(): number {
    return this.totalBytes;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Stores a variant the route has just served as public. Answers whether it was taken: not when it
   * is too large, or when any photo was invalidated since `epochAtLookup`.
   */
  offer(offer: HotMediaOffer, epochAtLookup: number): boolean {
    if (epochAtLookup !== this.invalidations) return false;
    if (offer.bytes.length > this.options.maxEntryBytes || offer.bytes.length > this.options.maxTotalBytes) return false;
    this.remove(offer.key);
    this.entries.set(offer.key, { ...offer, storedAt: this.now() });
    this.totalBytes += offer.bytes.length;
    for (const [oldestKey] of this.entries) {
      if (this.totalBytes <= this.options.maxTotalBytes) break;
      this.remove(oldestKey);
    }
    return true;
  }

  /** The entry for this key while it may still be trusted; an expired one is dropped. */
  find(key: string): HotMediaEntry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.storedAt >= this.options.ttlMs) {
      this.remove(key);
      return undefined;
    }
    // Most recently used goes last.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  /** Forgets every variant of this photo, at once: its visibility changed or it was deleted. */
  dropPhoto(photoId: string): void {
    this.invalidations += 1;
    for (const [key, entry] of this.entries) {
      if (entry.photoId === photoId) this.remove(key);
    }
  }

  /** Forgets everything (e.g. when many photos change at once). */
  clear(): void {
    this.invalidations += 1;
    this.entries.clear();
    this.totalBytes = 0;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.totalBytes -= entry.bytes.length;
  }
}
