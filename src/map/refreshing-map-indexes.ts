import "server-only";
import type { DatabaseHandle } from "@/src/db/client";
import { type ChangedPhotoIds, onPhotosChanged } from "@/src/photos/photo-changes";

/**
 * The map's indexes, one per kind of viewer, kept so that a reader waits for a full build only when
 * it must. A full build reads every geotagged photo the viewer may see and clusters them: 2.3 s at
 * 100,000 photos under load (issue 31; done in slices that let other requests run, see
 * map-clusters.service.ts), so:
 *
 * - after a change to photos in THIS process that names its photos (announcePhotosChanged(ids)),
 *   the next reader waits only for `update`: those photos read again under the viewer's rules and
 *   the index patched (src/map/map-clusters.service.ts re-clusters only if a point the viewer has
 *   moved, left or came). Nothing built before the change is answered again, so a photo just
 *   hidden or deleted is never counted, not even for a moment;
 * - after a change that says no photo's row changed (an album's, a tag's: an empty list), the
 *   index is answered as it is;
 * - after a change that names no photos (null: the caller could not list them), or more than
 *   MAX_CHANGED_PHOTOS of them since the index was built, the next reader waits for a full build;
 * - once an index is older than `lifetimeMs` (how late another instance's changes may show), the
 *   reader still gets it, and one full build starts behind it; its result replaces the index when
 *   done, also when this process patched the index meanwhile (the next reader patches the build
 *   with those photos again), so a busy instance still shows the others' changes within
 *   `lifetimeMs` and one build. A failed build keeps the old index and is tried again by a later reader;
 * - readers asking at once share one build or update; per database handle; at most `maxEntries`
 *   indexes and at most `maxBytes` of them by `sizeOf`, least recently used going first.
 */
export interface MapIndexSource<T> {
  /** The index from scratch. */
  build(): Promise<T>;
  /** The index once these photos changed: `current` itself if nothing the viewer sees changed. */
  update(current: T, photoIds: ReadonlySet<string>): Promise<T>;
}

/**
 * Why an index was built or patched, for the operator's figures (/metrics): a first build; one
 * after a change that named no photos or too many; one behind the readers once the index outlived
 * its lifetime (for other instances' changes); a patch for the photos a change named.
 */
export type MapIndexWork = "first" | "changes" | "refresh" | "patch";

export interface RefreshingMapIndexes<T> {
  get(db: DatabaseHandle, key: string, source: MapIndexSource<T>): Promise<T>;
}

interface Ready<T> {
  value: T;
  builtAt: number;
  /** The last change (its sequence number) the value includes. */
  seenChange: number;
  /** The change the full build this value comes from started after (patches keep it). */
  builtAfterChange: number;
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

export function refreshingMapIndexes<T>(options: {
  lifetimeMs: number;
  maxEntries: number;
  maxBytes: number;
  sizeOf: (value: T) => number;
  /** Told of every build and patch that succeeded, and how long it took. */
  onWork?: (work: MapIndexWork, milliseconds: number) => void;
}): RefreshingMapIndexes<T> {
  const { lifetimeMs, maxEntries, maxBytes, sizeOf, onWork } = options;
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
  const startBuild = (store: Map<string, Entry<T>>, key: string, entry: Entry<T>, source: MapIndexSource<T>, work: MapIndexWork) => {
    const afterChange = changes.last();
    const started = performance.now();
    const promise = source.build().then(
      (value) => {
        onWork?.(work, performance.now() - started);
        if (entry.building?.promise === promise) entry.building = null;
        // Kept unless a build started later is already in: also when this process patched the
        // index meanwhile (busy with uploads, it always has), else another instance's changes,
        // which only a build brings, would never show. The patches since the build began are
        // applied again by the next reader (seenChange goes back to when it began).
        if (entry.ready === null || entry.ready.builtAfterChange <= afterChange) {
          keep(store, key, entry, { value, builtAt: Date.now(), seenChange: afterChange, builtAfterChange: afterChange });
        }
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
    const started = performance.now();
    const promise = source.update(ready.value, photoIds).then(
      (value) => {
        onWork?.("patch", performance.now() - started);
        entry.updating = null;
        // A full build that finished meanwhile is at least as new.
        if (entry.ready === ready) keep(store, key, entry, { ...ready, value, seenChange: upTo });
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
      if (ready !== null && photoIds?.size === 0) {
        // Only changes that named no photo's row (a tag's, an album's): the index is as it was.
        entry.ready = { ...ready, seenChange: changes.last() };
        continue;
      }
      if (ready !== null && photoIds !== null) {
        await startUpdate(store, key, entry, source, ready, photoIds);
        continue;
      }
      // A full build started after the last change will do; an older one will not.
      const building = entry.building;
      await (building !== null && building.afterChange === changes.last() ? building.promise : startBuild(store, key, entry, source, ready === null ? "first" : "changes"));
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
      // A build that landed just now, behind patches this reader already has, is fresh enough: the next reader patches it.
      const builtAt = Math.max(ready.builtAt, entry.ready?.builtAt ?? 0);
      if (Date.now() - builtAt >= lifetimeMs && entry.building === null) {
        // Behind the reader: a failure is not theirs (the old index stays, a later reader retries).
        startBuild(store, key, entry, source, "refresh").catch(() => undefined);
      }
      return ready.value;
    },
  };
}
