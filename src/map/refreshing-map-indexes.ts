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
 * - other processes' changes (and this one's, whoever wrote them) are in the database's own log
 *   (`feed`, written by triggers on photos): a reader at least `followEveryMs` after the last look
 *   reads the photos logged since (one small query, shared by the readers asking at once), and
 *   each index is patched for them behind its readers, who get the index as it was meanwhile. So
 *   another instance's upload, edit, place, visibility, trash or deletion shows within
 *   `followEveryMs` and one patch, and no full build runs for it. Only a log too far behind (more
 *   than MAX_CHANGED_PHOTOS photos, or not read for `trustFeedForMs`: it is pruned by age) starts a
 *   full build behind the readers; its result replaces the index when done, also when this process
 *   patched the index meanwhile (the next reader patches the build with those photos again). A
 *   failed build or patch behind the readers keeps the old index and is tried again by a later reader;
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
 * Photos changed by any process, as the database logs them (photo-map-changes.repository.ts). A
 * mark is where the log stands; it only grows.
 */
export interface PhotoChangeFeed {
  /** Where the log stands now: whatever commits from now on is found after it. */
  mark(db: DatabaseHandle): Promise<number>;
  /** The photos logged after `mark`, each once, at most `limit` of them. */
  changedAfter(db: DatabaseHandle, mark: number, limit: number): Promise<readonly string[]>;
}

/**
 * Why an index was built or patched, for the operator's figures (/metrics): a first build; one
 * after a change in this process that named no photos or too many; one behind the readers when the
 * database's log was too far behind to follow; a patch for the photos a change in this process
 * named; one behind the readers for the photos the log named (other instances' changes).
 */
export type MapIndexWork = "first" | "changes" | "refresh" | "patch" | "follow";

export interface RefreshingMapIndexes<T> {
  get(db: DatabaseHandle, key: string, source: MapIndexSource<T>): Promise<T>;
}

interface Ready<T> {
  value: T;
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
 * The changes known to this process, numbered: those announced in it (local: a reader waits until
 * they are in) and those read from the database's log (a reader need not wait for them). Only the
 * last MAX_CHANGED_PHOTOS photo ids are kept (an index further behind is built again). A change
 * naming no photos is kept as null.
 */
function changeLog() {
  let last = 0;
  let lastLocal = 0;
  let entries: Array<{ change: number; photoIds: ChangedPhotoIds }> = [];
  let loggedIds = 0;
  const record = (photoIds: ChangedPhotoIds, local: boolean) => {
    last += 1;
    if (local) lastLocal = last;
    // A change too big to patch is as good as one naming no photos.
    const ids = photoIds !== null && photoIds.length <= MAX_CHANGED_PHOTOS ? photoIds : null;
    entries.push({ change: last, photoIds: ids });
    loggedIds += ids?.length ?? 0;
    while (loggedIds > MAX_CHANGED_PHOTOS || entries.length > MAX_CHANGED_PHOTOS) {
      loggedIds -= entries[0].photoIds?.length ?? 0;
      entries = entries.slice(1);
    }
  };
  onPhotosChanged((photoIds) => record(photoIds, true));
  return {
    last: () => last,
    /** The last change made in this process: no index older than it is answered. */
    lastLocal: () => lastLocal,
    /** A change read from the database's log. */
    recordFollowed: (photoIds: ChangedPhotoIds) => record(photoIds, false),
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

/** Where this process stands in the database's log, per handle. */
interface Follower {
  mark: number;
  /** When the log was last read (Date.now()). */
  readAt: number;
  /** The read in flight, if any: readers asking at once share it. */
  reading: Promise<void> | null;
  /**
   * The log was too far behind to list what changed (more photos than a patch takes, or not read
   * for so long it may have been pruned): an index whose build began before this change number is
   * built again, behind its readers. 0: never.
   */
  rebuildFrom: number;
}

export function refreshingMapIndexes<T>(options: {
  feed: PhotoChangeFeed;
  /** How often the log is read, while readers come: how late another instance's changes may show. */
  followEveryMs: number;
  /** A log not read for this long may have been pruned past where this process stands: build again. */
  trustFeedForMs: number;
  maxEntries: number;
  maxBytes: number;
  sizeOf: (value: T) => number;
  /** Told of every build and patch that succeeded, and how long it took. */
  onWork?: (work: MapIndexWork, milliseconds: number) => void;
}): RefreshingMapIndexes<T> {
  const { feed, followEveryMs, trustFeedForMs, maxEntries, maxBytes, sizeOf, onWork } = options;
  const changes = changeLog();
  const stores = new WeakMap<DatabaseHandle, Map<string, Entry<T>>>();
  const followers = new WeakMap<DatabaseHandle, Promise<Follower>>();

  /** Where this process stands in the handle's log: the first reader waits for the mark, so every build starts after it. */
  const followerOf = (db: DatabaseHandle): Promise<Follower> => {
    let follower = followers.get(db);
    if (!follower) {
      follower = feed.mark(db).then((mark) => ({ mark, readAt: Date.now(), reading: null, rebuildFrom: 0 }));
      // A failed first look is not kept: the next reader tries again.
      follower.catch(() => followers.delete(db));
      followers.set(db, follower);
    }
    return follower;
  };

  /** Records the photos logged since the last look as a change, or asks for builds when they cannot be listed. */
  const readFeed = async (db: DatabaseHandle, follower: Follower) => {
    const silentMs = Date.now() - follower.readAt;
    // The mark first: whatever commits after it is read next time, so nothing falls between two reads.
    const mark = await feed.mark(db);
    const photoIds = silentMs > trustFeedForMs ? null : await feed.changedAfter(db, follower.mark, MAX_CHANGED_PHOTOS + 1);
    follower.mark = mark;
    follower.readAt = Date.now();
    if (photoIds !== null && photoIds.length <= MAX_CHANGED_PHOTOS) {
      if (photoIds.length > 0) changes.recordFollowed(photoIds);
      return;
    }
    // A change naming no photo's row, so that only builds begun from now on count as including it.
    changes.recordFollowed([]);
    follower.rebuildFrom = changes.last();
  };

  /** Reads the log if the last look is `followEveryMs` old. A failure is not the reader's: a later reader tries again (and past `trustFeedForMs`, builds). */
  const follow = async (db: DatabaseHandle): Promise<Follower> => {
    const follower = await followerOf(db);
    if (Date.now() - follower.readAt < followEveryMs) return follower;
    follower.reading ??= readFeed(db, follower)
      .catch(() => undefined)
      .finally(() => {
        follower.reading = null;
      });
    await follower.reading;
    return follower;
  };

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
        // index meanwhile (busy with uploads, it always has), else the changes only a build
        // brings (a log too far behind) would never show. The patches since the build began are
        // applied again by the next reader (seenChange goes back to when it began).
        if (entry.ready === null || entry.ready.builtAfterChange <= afterChange) {
          keep(store, key, entry, { value, seenChange: afterChange, builtAfterChange: afterChange });
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
  const startUpdate = (
    store: Map<string, Entry<T>>,
    key: string,
    entry: Entry<T>,
    source: MapIndexSource<T>,
    ready: Ready<T>,
    photoIds: Set<string>,
    work: "patch" | "follow",
  ) => {
    const upTo = changes.last();
    const started = performance.now();
    const promise = source.update(ready.value, photoIds).then(
      (value) => {
        onWork?.(work, performance.now() - started);
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

  /** Waits until the entry holds an index that includes every change made in this process so far. */
  const bringUpToDate = async (store: Map<string, Entry<T>>, key: string, entry: Entry<T>, source: MapIndexSource<T>): Promise<Ready<T>> => {
    for (;;) {
      const ready = entry.ready;
      if (ready !== null && ready.seenChange >= changes.lastLocal()) return ready;
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
        await startUpdate(store, key, entry, source, ready, photoIds, "patch");
        continue;
      }
      // A full build started after this process's last change will do; an older one will not.
      const building = entry.building;
      await (building !== null && building.afterChange >= changes.lastLocal() ? building.promise : startBuild(store, key, entry, source, ready === null ? "first" : "changes"));
    }
  };

  /**
   * Brings the entry up to the changes read from the log, behind the reader: a build when the log
   * could not list them, else a patch (or a full build if the entry is too far behind to patch).
   */
  const catchUpBehind = (store: Map<string, Entry<T>>, key: string, entry: Entry<T>, source: MapIndexSource<T>, follower: Follower) => {
    const ready = entry.ready;
    if (ready === null || entry.updating !== null || entry.building !== null) return;
    if (ready.builtAfterChange < follower.rebuildFrom) {
      startBuild(store, key, entry, source, "refresh").catch(() => undefined);
      return;
    }
    if (ready.seenChange >= changes.last()) return;
    const photoIds = changes.since(ready.seenChange);
    if (photoIds?.size === 0) entry.ready = { ...ready, seenChange: changes.last() };
    else if (photoIds !== null) startUpdate(store, key, entry, source, ready, photoIds, "follow").catch(() => undefined);
    else startBuild(store, key, entry, source, "refresh").catch(() => undefined);
  };

  return {
    async get(db, key, source) {
      if (db.isTransaction) return source.build();
      const follower = await follow(db);
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
      // A build may have finished while this reader resumed: answer the newer one.
      const ready = entry.ready !== null && entry.ready.seenChange >= upToDate.seenChange ? entry.ready : upToDate;
      // Behind the reader: a failure is not theirs (the old index stays, a later reader retries).
      catchUpBehind(store, key, entry, source, follower);
      return ready.value;
    },
  };
}
