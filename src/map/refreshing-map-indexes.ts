import "server-only";
import type { DatabaseHandle } from "@/src/db/client";
import { type ChangedPhotoIds, onPhotosChanged } from "@/src/photos/photo-changes";

/**
 * The map's indexes, one per kind of viewer, kept so that a reader waits for a full build only when
 * it must. A full build reads every geotagged photo the viewer may see and clusters them: 2.3 s at
 * 100,000 photos under load (issue 31), so:
 *
 * - after a change to photos in THIS process that names its photos (announcePhotosChanged(ids)),
 *   the next reader waits only for `update`: those photos read again under the viewer's rules and
 *   the index patched (src/map/map-clusters.service.ts re-clusters only if a point the viewer has
 *   moved, left or came). Nothing built before the change is answered again, so a photo just
 *   hidden or deleted is never counted, not even for a moment;
 * - after a change that names no photos (an album's, a tag's, a job's), or more than
 *   MAX_CHANGED_PHOTOS of them since the index was built, the next reader waits for a full build;
 * - once an index is older than `lifetimeMs` (how late another instance's changes may show), the
 *   reader still gets it, and one full build starts behind it; its result replaces the index when
 *   done. A failed build keeps the old index and is tried again by a later reader;
 * - readers asking at once share one build or update; per database handle; at most `maxEntries`
 *   indexes and at most `maxBytes` of them by `sizeOf`, least recently used going first.
 */
export interface MapIndexSource<T> {
  /** The index from scratch. */
  build(): Promise<T>;
  /** The index once these photos changed: `current` itself if nothing the viewer sees changed. */
  update(current: T, photoIds: ReadonlySet<string>): Promise<T>;
}

export interface RefreshingMapIndexes<T> {
  get(db: DatabaseHandle, key: string, source: MapIndexSource<T>): Promise<T>;
}

interface Ready<T> {
  value: T;
  builtAt: number;
  /** The last change (its sequence number) the value includes. */
  seenChange: number;
}

interface Entry<T> {
  /** The last index built and kept up to date, null until the first build is done. */
  ready: Ready<T> | null;
  /** The full build in flight and the change it started after, if any. */
  building: { promise: Promise<unknown>; afterChange: number } | null;
  /** The update in flight, if any: one at a time, as an update patches the value it is given. */
  updating: Promise<unknown> | null;
  bytes: number;
}

/** More photos changed than this since an index was built: reading them again is no cheaper than a full build. */
export const MAX_CHANGED_PHOTOS = 2_000;

/**
 * The changes announced in this process, numbered; only the last MAX_CHANGED_PHOTOS photo ids are
 * kept (an index further behind is built again). A change naming no photos is kept as null.
 */
function changeLog() {
  let last = 0;
  let entries: Array<{ change: number; photoIds: ChangedPhotoIds }> = [];
  let loggedIds = 0;
  onPhotosChanged((photoIds) => {
    last += 1;
    // A change too big to patch is as good as one naming no photos.
    const ids = photoIds !== null && photoIds.length <= MAX_CHANGED_PHOTOS ? photoIds : null;
    entries.push({ change: last, photoIds: ids });
    loggedIds += ids?.length ?? 0;
    while (loggedIds > MAX_CHANGED_PHOTOS || entries.length > MAX_CHANGED_PHOTOS) {
      loggedIds -= entries[0].photoIds?.length ?? 0;
      entries = entries.slice(1);
    }
  });
  return {
    last: () => last,
    /** The photos changed after `seenChange`, or null when only a full build will do. */
    since(seenChange: number): Set<string> | null {
      const pending = entries.filter((entry) => entry.change > seenChange);
      if (pending.length < last - seenChange) return null;
      const ids = new Set<string>();
      for (const { photoIds } of pending) {
        if (photoIds === null) return null;
        for (const id of photoIds) ids.add(id);
      }
      return ids.size > MAX_CHANGED_PHOTOS ? null : ids;
    },
  };
}

export function refreshingMapIndexes<T>(options: { lifetimeMs: number; maxEntries: number; maxBytes: number; sizeOf: (value: T) => number }): RefreshingMapIndexes<T> {
  const { lifetimeMs, maxEntries, maxBytes, sizeOf } = options;
  const changes = changeLog();
  const stores = new WeakMap<DatabaseHandle, Map<string, Entry<T>>>();

  const storeOf = (db: DatabaseHandle) => {
    let store = stores.get(db);
    if (!store) stores.set(db, (store = new Map()));
    return store;
  };

  /** Drops the least recently used indexes until the store is within its limits; the one being read stays. */
  const evict = (store: Map<string, Entry<T>>, keep: string) => {
    let bytes = 0;
    for (const entry of store.values()) bytes += entry.bytes;
    for (const [key, entry] of store) {
      if (store.size <= maxEntries && bytes <= maxBytes) break;
      if (key === keep) continue;
      store.delete(key);
      bytes -= entry.bytes;
    }
  };

  const keep = (store: Map<string, Entry<T>>, key: string, entry: Entry<T>, ready: Ready<T>) => {
    entry.ready = ready;
    entry.bytes = sizeOf(ready.value);
    if (store.get(key) === entry) evict(store, key);
  };

  /** One full build for the entry; its value replaces the entry's when done, unless a newer one did. */
  const startBuild = (store: Map<string, Entry<T>>, key: string, entry: Entry<T>, source: MapIndexSource<T>) => {
    const afterChange = changes.last();
    const promise = source.build().then(
      (value) => {
        if (entry.building?.promise === promise) entry.building = null;
        if (entry.ready === null || entry.ready.seenChange <= afterChange) keep(store, key, entry, { value, builtAt: Date.now(), seenChange: afterChange });
      },
      (error: unknown) => {
        if (entry.building?.promise === promise) entry.building = null;
        // Nothing to answer with: forget the entry, so the next reader tries again from scratch.
        if (entry.ready === null && store.get(key) === entry) store.delete(key);
        throw error;
      },
    );
    entry.building = { promise, afterChange };
    return promise;
  };

  /** Patches the entry's index with the photos changed since it was built (one update at a time). */
  const startUpdate = (store: Map<string, Entry<T>>, key: string, entry: Entry<T>, source: MapIndexSource<T>, ready: Ready<T>, photoIds: Set<string>) => {
    const upTo = changes.last();
    const promise = source.update(ready.value, photoIds).then(
      (value) => {
        entry.updating = null;
        // A full build that finished meanwhile is at least as new.
        if (entry.ready === ready) keep(store, key, entry, { value, builtAt: ready.builtAt, seenChange: upTo });
      },
      (error: unknown) => {
        entry.updating = null;
        throw error;
      },
    );
    entry.updating = promise;
    return promise;
  };

  /** Waits until the entry holds an index that includes every change announced so far. */
  const bringUpToDate = async (store: Map<string, Entry<T>>, key: string, entry: Entry<T>, source: MapIndexSource<T>): Promise<Ready<T>> => {
    for (;;) {
      const ready = entry.ready;
      if (ready !== null && ready.seenChange === changes.last()) return ready;
      if (entry.updating) {
        await entry.updating;
        continue;
      }
      const photoIds = ready === null ? null : changes.since(ready.seenChange);
      if (ready !== null && photoIds !== null) {
        await startUpdate(store, key, entry, source, ready, photoIds);
        continue;
      }
      // A full build started after the last change will do; an older one will not.
      const building = entry.building;
      await (building !== null && building.afterChange === changes.last() ? building.promise : startBuild(store, key, entry, source));
    }
  };

  return {
    async get(db, key, source) {
      if (db.isTransaction) return source.build();
      const store = storeOf(db);
      let entry = store.get(key);
      if (entry) {
        // Most recently used at the end: Map keeps insertion order.
        store.delete(key);
        store.set(key, entry);
      } else {
        entry = { ready: null, building: null, updating: null, bytes: 0 };
        store.set(key, entry);
        evict(store, key);
      }
      const upToDate = await bringUpToDate(store, key, entry, source);
      // A build may have finished while this reader resumed: answer the newer one, and do not start another.
      const ready = entry.ready !== null && entry.ready.seenChange >= upToDate.seenChange ? entry.ready : upToDate;
      if (Date.now() - ready.builtAt >= lifetimeMs && entry.building === null) {
        // Behind the reader: a failure is not theirs (the old index stays, a later reader retries).
        startBuild(store, key, entry, source).catch(() => undefined);
      }
      return ready.value;
    },
  };
}
