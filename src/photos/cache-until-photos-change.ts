import type { DatabaseHandle } from "@/src/db/client";
import { onPhotosChanged } from "./photo-changes";

/**
 * "Remember until photos change": values read from photo rows (counts, facets, slugs, a sitemap's
 * boundaries) kept for a short while because reading them walks many rows, and dropped at once
 * when photos change in this process (`announcePhotosChanged`, src/photos/photo-changes.ts).
 *
 * - Per database handle: a value read from one database is never answered for another (tests and
 *   benches open several in one process).
 * - Bounded: at most `maxEntries` per handle, the least recently used going first.
 * - Never inside a transaction: what it reads may not commit.
 * - A failed load is not kept: the next call asks again.
 * - The promise is kept from the start, so callers asking at once share one read; a change drops
 *   every entry, those still loading included, so nothing read before a change is answered after it.
 *
 * Another instance's change is seen here when an entry's `lifetimeMs` runs out (a few seconds): that
 * lag is accepted for what these caches hold. Whether a photo's bytes or a visitor's cached page may
 * still be served is not decided here, but by the media access version that every instance reads
 * (src/media/access-version-gate.ts), so a photo that stopped being public is refused everywhere
 * from the next request whatever these caches still hold.
 */
export interface CacheUntilPhotosChange<T> {
  /** The remembered value for `key` on this handle, or `load()`'s, remembered. */
  get(db: DatabaseHandle, key: string, load: () => Promise<T>): Promise<T>;
  /**
   * One value per item, in the items' order: the remembered ones, and the others from ONE call of
   * `loadMissing` with only the items not remembered, which answers a lookup for them.
   */
  getMany<I>(db: DatabaseHandle, items: readonly I[], keyOf: (item: I) => string, loadMissing: (missing: I[]) => Promise<(item: I) => T>): Promise<T[]>;
  /** Drops every remembered value (what a change to photos does). */
  clear(): void;
}

interface Entry<T> {
  value: Promise<T>;
  until: number;
}

export function cacheUntilPhotosChange<T>(options: { lifetimeMs: number; maxEntries: number }): CacheUntilPhotosChange<T> {
  const { lifetimeMs, maxEntries } = options;
  // A new WeakMap on every change: entries still loading stay in the old one, out of reach.
  let stores = new WeakMap<DatabaseHandle, Map<string, Entry<T>>>();

  const storeOf = (db: DatabaseHandle) => {
    let store = stores.get(db);
    if (!store) stores.set(db, (store = new Map()));
    return store;
  };

  /** The fresh entry for `key`, moved to the most recently used end; expired ones go. */
  const lookUp = (store: Map<string, Entry<T>>, key: string, now: number): Entry<T> | undefined => {
    const entry = store.get(key);
    if (!entry) return undefined;
    store.delete(key);
    if (entry.until <= now) return undefined;
    store.set(key, entry);
    return entry;
  };

  const keep = (store: Map<string, Entry<T>>, key: string, value: Promise<T>, now: number) => {
    const entry = { value, until: now + lifetimeMs };
    store.delete(key);
    store.set(key, entry);
    // Map keeps insertion order, and every hit re-inserts: the first key is the least recently used.
    while (store.size > maxEntries) store.delete(store.keys().next().value as string);
    value.catch(() => {
      if (store.get(key) === entry) store.delete(key);
    });
  };

  const cache: CacheUntilPhotosChange<T> = {
    get(db, key, load) {
      if (db.isTransaction) return load();
      const store = storeOf(db);
      const now = Date.now();
      const held = lookUp(store, key, now);
      if (held) return held.value;
      const value = load();
      keep(store, key, value, now);
      return value;
    },

    async getMany(db, items, keyOf, loadMissing) {
      if (db.isTransaction) {
        const lookup = await loadMissing([...items]);
        return items.map(lookup);
      }
      const store = storeOf(db);
      const now = Date.now();
      const values: Array<Promise<T> | undefined> = items.map((item) => lookUp(store, keyOf(item), now)?.value);
      const missing = items.filter((_, index) => values[index] === undefined);
      if (missing.length > 0) {
        const loaded = loadMissing(missing);
        items.forEach((item, index) => {
          if (values[index] !== undefined) return;
          const value = loaded.then((lookup) => lookup(item));
          values[index] = value;
          keep(store, keyOf(item), value, now);
        });
      }
      return Promise.all(values as Array<Promise<T>>);
    },

    clear() {
      stores = new WeakMap();
    },
  };
  onPhotosChanged(cache.clear);
  return cache;
}
