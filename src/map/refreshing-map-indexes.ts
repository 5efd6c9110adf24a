import "server-only";
import type { DatabaseHandle } from "@/src/db/client";
import { onPhotosChanged } from "@/src/photos/photo-changes";

/**
 * The map's indexes, one per kind of viewer, kept so that a reader waits for a build only when it
 * must. Building one reads every geotagged photo the viewer may see and clusters them: about a
 * second at 100,000 photos on an idle core, much more under load (issue 31). cacheUntilPhotosChange
 * made every reader wait for that whenever the entry's short lifetime ran out, so a busy map stalled
 * every few seconds, more the larger the library. Here:
 *
 * - after a change to photos in THIS process (announcePhotosChanged), no index built before it is
 *   answered again: the next reader waits for a fresh one (a photo just hidden is never counted);
 * - once an index is older than `lifetimeMs` (how late another instance's changes may show, as
 *   before), the reader still gets it, and one fresh build starts behind it; its result replaces the
 *   index when done. A failed build keeps the old index and is tried again by a later reader;
 * - readers asking at once share one build; per database handle; at most `maxEntries`, least
 *   recently used first.
 */
export interface RefreshingMapIndexes<T> {
  get(db: DatabaseHandle, key: string, build: () => Promise<T>): Promise<T>;
}

interface Entry<T> {
  /** The last index built, and when; null until the first build is done. */
  ready: { value: T; builtAt: number } | null;
  /** The build in flight, if any. */
  building: Promise<T> | null;
}

export function refreshingMapIndexes<T>(options: { lifetimeMs: number; maxEntries: number }): RefreshingMapIndexes<T> {
  const { lifetimeMs, maxEntries } = options;
  // A new WeakMap on every change: the builds still running keep filling the old one, out of reach.
  let stores = new WeakMap<DatabaseHandle, Map<string, Entry<T>>>();
  onPhotosChanged(() => {
    stores = new WeakMap();
  });

  const storeOf = (db: DatabaseHandle) => {
    let store = stores.get(db);
    if (!store) stores.set(db, (store = new Map()));
    return store;
  };

  /** Starts one build for the entry; its value replaces the entry's when done, if the entry is still held. */
  const startBuild = (store: Map<string, Entry<T>>, key: string, entry: Entry<T>, build: () => Promise<T>): Promise<T> => {
    const building = build().then(
      (value) => {
        entry.ready = { value, builtAt: Date.now() };
        entry.building = null;
        return value;
      },
      (error: unknown) => {
        entry.building = null;
        // Nothing to answer with: forget the entry, so the next reader tries again from scratch.
        if (entry.ready === null && store.get(key) === entry) store.delete(key);
        throw error;
      },
    );
    entry.building = building;
    return building;
  };

  return {
    async get(db, key, build) {
      if (db.isTransaction) return build();
      const store = storeOf(db);
      let entry = store.get(key);
      if (entry) {
        // Most recently used at the end: Map keeps insertion order.
        store.delete(key);
        store.set(key, entry);
      } else {
        entry = { ready: null, building: null };
        store.set(key, entry);
        while (store.size > maxEntries) store.delete(store.keys().next().value as string);
      }
      if (entry.ready === null) return entry.building ?? startBuild(store, key, entry, build);
      if (Date.now() - entry.ready.builtAt >= lifetimeMs && entry.building === null) {
        // Behind the reader: a failure is not theirs (the old index stays, a later reader retries).
        startBuild(store, key, entry, build).catch(() => undefined);
      }
      return entry.ready.value;
    },
  };
}
