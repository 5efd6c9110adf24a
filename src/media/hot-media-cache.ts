/**
 * A bounded in-memory cache of hot PUBLIC variants, so that server.mjs can answer the gallery's
 * image requests without going through Next.js (a file through a Next.js route serves about 0.07×
 * what nginx does; from memory in plain Node about 0.55×). Variants too large to hold (a video's
 * playable copy) are remembered by where they are stored instead, so that the fast path can stream
 * their Range requests from storage without Next.js either (about 26 ms a request saved).
 *
 * Privacy rules, in order of importance:
 * - Only the /media route puts entries in, and only after it has itself decided that the variant
 *   is public (`offer`). The cache never decides who may see anything.
 * - When a photo changes or is deleted in this process, its entries go at once (`dropPhoto`), and
 *   an offer that raced with such a change is refused (`epoch`).
 * - Changes made by other instances of the app are caught before every answer by the fast path's
 *   access-version check (access-version-gate.ts), which clears the whole cache when they happened.
 * - Every entry is kept for `ttlMs` only; after that the request goes through the route again,
 *   which re-checks the database and offers anew.
 */

interface HotMediaAnswerParts {
  /** The storage key, i.e. the URL path after `/media/`. */
  key: string;
  photoId: string;
  contentType: string;
  etag: string;
}

/** A variant held in memory. */
export interface HeldMediaOffer extends HotMediaAnswerParts {
  bytes: Buffer;
}

/** A variant too large to hold, streamed from storage on every request. */
export interface StoredMediaOffer extends HotMediaAnswerParts {
  bytes: null;
  /** Where it is stored (the media path's storage key, without the publication key). */
  storageKey: string;
  /** Its size in bytes, as storage reported it when the route read it. */
  size: number;
}

export type HotMediaOffer = HeldMediaOffer | StoredMediaOffer;

/** One cached variant: its bytes or where they are, and what its headers are made of. */
export type HotMediaEntry = HotMediaOffer & {
  /** When the route offered it (ms, the cache's clock). */
  storedAt: number;
};

/** The variant's size in bytes, held or stored. */
export function sizeOfEntry(entry: HotMediaOffer): number {
  return entry.bytes ? entry.bytes.length : entry.size;
}

export interface HotMediaCacheOptions {
  /** Upper bound on the sum of all held entries' bytes; the least recently used go first. */
  maxTotalBytes: number;
  /** Larger variants are never held (they are rare requests and would push out many small ones). */
  maxEntryBytes: number;
  /** Upper bound on the number of entries, held or stored (a stored one costs a few hundred bytes). */
  maxEntries?: number;
  /** How long an entry is trusted without the route checking the photo again. */
  ttlMs: number;
  /** The clock; tests pass their own. */
  now?: () => number;
}

const DEFAULT_MAX_ENTRIES = 10_000;

export class HotMediaCache {
  // A Map keeps insertion order: re-inserting on every hit makes its first key the least recently used.
  private readonly entries = new Map<string, HotMediaEntry>();
  private totalBytes = 0;
  private invalidations = 0;
  private readonly now: () => number;
  private readonly maxEntries: number;

  constructor(private readonly options: HotMediaCacheOptions) {
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
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
   * Stores a variant the route has just served as public, its bytes or where they are. Answers
   * whether it was taken: not when its bytes are too large to hold, or when any photo was
   * invalidated since `epochAtLookup`.
   */
  offer(offer: HotMediaOffer, epochAtLookup: number): boolean {
    if (epochAtLookup !== this.invalidations) return false;
    const heldBytes = offer.bytes?.length ?? 0;
    if (heldBytes > this.options.maxEntryBytes || heldBytes > this.options.maxTotalBytes) return false;
    this.remove(offer.key);
    this.entries.set(offer.key, { ...offer, storedAt: this.now() });
    this.totalBytes += heldBytes;
    for (const [oldestKey] of this.entries) {
      if (this.totalBytes <= this.options.maxTotalBytes && this.entries.size <= this.maxEntries) break;
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
    this.totalBytes -= entry.bytes?.length ?? 0;
  }
}
