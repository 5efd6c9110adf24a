import { afterEach, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "@/src/db/client";
import { announcePhotosChanged } from "@/src/photos/photo-changes";
import { MAX_CHANGED_PHOTOS, type MapIndexSource, type PhotoChangeFeed, refreshingMapIndexes } from "./refreshing-map-indexes";

// Only `isTransaction` is read; the handle is otherwise just an identity.
const handle = () => ({ isTransaction: false }) as unknown as DatabaseHandle;

const LIMITS = { maxBytes: Number.POSITIVE_INFINITY, sizeOf: () => 1 };
const FOLLOW_EVERY_MS = 5_000;
const TRUST_FEED_FOR_MS = 60 * 60 * 1000;

/** The database's log of photos changed, as the test writes it (what other instances change); a mark is its length. */
function changeLog() {
  const rows: string[] = [];
  const changedAfter = vi.fn(async (_db: DatabaseHandle, mark: number, limit: number) => [...new Set(rows.slice(mark))].slice(0, limit));
  const feed: PhotoChangeFeed = { mark: async () => rows.length, changedAfter };
  return { feed, changedAfter, write: (...photoIds: string[]) => rows.push(...photoIds) };
}

/** The options every case shares; a log nobody writes unless the case hands its own. */
const settings = (feed: PhotoChangeFeed = changeLog().feed) => ({ feed, followEveryMs: FOLLOW_EVERY_MS, trustFeedForMs: TRUST_FEED_FOR_MS });

/** Indexes that are only ever built whole (a change naming photos must not reach `update` here). */
const wholeOnly = (build: () => Promise<number>): MapIndexSource<number> => ({
  build,
  update: () => Promise.reject(new Error("not patched in this test")),
});

/**
 * A build answering 1, 2, 3, … on each call, each only when `release` is called (or at once with
 * `immediate`). A release before the build is asked for (a reader first looks at the change log)
 * lets the next build answer at once.
 */
function builds(immediate = true) {
  let count = 0;
  let released = 0;
  const pending: Array<() => void> = [];
  const build = vi.fn(() => {
    count += 1;
    const value = count;
    if (immediate) return Promise.resolve(value);
    if (released > 0) {
      released -= 1;
      return Promise.resolve(value);
    }
    return new Promise<number>((resolve) => pending.push(() => resolve(value)));
  });
  const release = () => {
    const next = pending.shift();
    if (next) next();
    else released += 1;
  };
  return { build, release };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("refreshingMapIndexes", () => {
  it("builds once per key and handle, and readers asking at once share the build", async () => {
    const indexes = refreshingMapIndexes<number>({ ...settings(), maxEntries: 10, ...LIMITS });
    const db = handle();
    const { build, release } = builds(false);
    const readers = [indexes.get(db, "map:anonymous", wholeOnly(build)), indexes.get(db, "map:anonymous", wholeOnly(build))];
    release();
    expect(await Promise.all(readers)).toEqual([1, 1]);
    expect(await indexes.get(db, "map:anonymous", wholeOnly(build))).toBe(1);
    expect(build).toHaveBeenCalledTimes(1);
    const otherDatabase = indexes.get(handle(), "map:anonymous", wholeOnly(build));
    release();
    expect(await otherDatabase).toBe(2);
  });

  it("follows other instances' changes from the log: every followEveryMs, a patch behind the reader, never a full build", async () => {
    vi.useFakeTimers();
    const log = changeLog();
    const work: string[] = [];
    const indexes = refreshingMapIndexes<number>({ ...settings(log.feed), maxEntries: 10, ...LIMITS, onWork: (kind) => work.push(kind) });
    const db = handle();
    const source = { build: vi.fn(async () => 10), update: vi.fn(async (current: number, photoIds: ReadonlySet<string>) => current + photoIds.size) };
    expect(await indexes.get(db, "key", source)).toBe(10);
    log.write("a", "b", "a");
    // Within the period the log is not read at all.
    vi.advanceTimersByTime(FOLLOW_EVERY_MS - 1);
    expect(await indexes.get(db, "key", source)).toBe(10);
    expect(log.changedAfter).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    // Then once for the readers asking at once, who get the index as it was while it is patched behind them.
    expect(await Promise.all([indexes.get(db, "key", source), indexes.get(db, "key", source)])).toEqual([10, 10]);
    expect(log.changedAfter).toHaveBeenCalledTimes(1);
    await vi.waitFor(async () => expect(await indexes.get(db, "key", source)).toBe(12));
    expect([...source.update.mock.calls[0][1]].sort()).toEqual(["a", "b"]);
    // Read from where it stood: the same photos are not patched again, a new one is.
    log.write("c");
    vi.advanceTimersByTime(FOLLOW_EVERY_MS);
    expect(await indexes.get(db, "key", source)).toBe(12);
    await vi.waitFor(async () => expect(await indexes.get(db, "key", source)).toBe(13));
    expect(source.build).toHaveBeenCalledTimes(1);
    expect(work).toEqual(["first", "follow", "follow"]);
  });

  it("builds behind the readers when the log is too far behind: more photos than a patch takes, or not read for trustFeedForMs", async () => {
    vi.useFakeTimers();
    const log = changeLog();
    const work: string[] = [];
    const indexes = refreshingMapIndexes<number>({ ...settings(log.feed), maxEntries: 10, ...LIMITS, onWork: (kind) => work.push(kind) });
    const db = handle();
    const { build, release } = builds(false);
    const source = { build, update: vi.fn(async (current: number) => current) };
    const first = indexes.get(db, "key", source);
    release();
    expect(await first).toBe(1);
    log.write(...Array.from({ length: MAX_CHANGED_PHOTOS + 1 }, (_, index) => `photo-${index}`));
    vi.advanceTimersByTime(FOLLOW_EVERY_MS);
    expect(await indexes.get(db, "key", source)).toBe(1);
    release();
    await vi.waitFor(async () => expect(await indexes.get(db, "key", source)).toBe(2));
    vi.advanceTimersByTime(TRUST_FEED_FOR_MS + 1);
    expect(await indexes.get(db, "key", source)).toBe(2);
    release();
    await vi.waitFor(async () => expect(await indexes.get(db, "key", source)).toBe(3));
    expect(source.update).not.toHaveBeenCalled();
    expect(work).toEqual(["first", "refresh", "refresh"]);
  });

  it("keeps following when the log cannot be read for a while: the reader is answered, a later one reads it", async () => {
    vi.useFakeTimers();
    const log = changeLog();
    const failing = { ...log.feed, changedAfter: vi.fn().mockRejectedValueOnce(new Error("database gone")).mockImplementation(log.feed.changedAfter) };
    const indexes = refreshingMapIndexes<number>({ ...settings(failing), maxEntries: 10, ...LIMITS });
    const db = handle();
    const source = { build: vi.fn(async () => 10), update: vi.fn(async (current: number, photoIds: ReadonlySet<string>) => current + photoIds.size) };
    expect(await indexes.get(db, "key", source)).toBe(10);
    log.write("a");
    vi.advanceTimersByTime(FOLLOW_EVERY_MS);
    expect(await indexes.get(db, "key", source)).toBe(10);
    await vi.waitFor(async () => expect(await indexes.get(db, "key", source)).toBe(11));
    expect(failing.changedAfter).toHaveBeenCalledTimes(2);
    expect(source.build).toHaveBeenCalledTimes(1);
  });

  it("never answers an index built before a change in this process: the next reader waits for a fresh one", async () => {
    const indexes = refreshingMapIndexes<number>({ ...settings(), maxEntries: 10, ...LIMITS });
    const db = handle();
    const { build, release } = builds(false);
    const first = indexes.get(db, "key", wholeOnly(build));
    release();
    expect(await first).toBe(1);
    // A build still running when photos change is not answered either.
    const { build: slow, release: releaseSlow } = builds(false);
    announcePhotosChanged();
    const during = indexes.get(db, "other", wholeOnly(slow));
    await vi.waitFor(() => expect(slow).toHaveBeenCalledTimes(1));
    announcePhotosChanged();
    const after = indexes.get(db, "key", wholeOnly(build));
    const afterOther = indexes.get(db, "other", wholeOnly(slow));
    release();
    releaseSlow();
    releaseSlow();
    expect(await after).toBe(2);
    // Even a reader who asked between the two changes waits for a build started after the last.
    expect(await during).toBe(2);
    expect(await afterOther).toBe(2);
    expect(slow).toHaveBeenCalledTimes(2);
  });

  it("uses a build behind the readers even when this process patched the index meanwhile, patching it again", async () => {
    vi.useFakeTimers();
    const indexes = refreshingMapIndexes<number>({ ...settings(), maxEntries: 10, ...LIMITS });
    const db = handle();
    let built = 0;
    const pending: Array<() => void> = [];
    const build = vi.fn(() => {
      built += 1;
      const value = built * 100;
      return new Promise<number>((resolve) => pending.push(() => resolve(value)));
    });
    const source = { build, update: vi.fn(async (current: number, photoIds: ReadonlySet<string>) => current + photoIds.size) };
    const first = indexes.get(db, "key", source);
    await vi.waitFor(() => expect(build).toHaveBeenCalledTimes(1));
    pending.shift()?.();
    expect(await first).toBe(100);
    vi.advanceTimersByTime(TRUST_FEED_FOR_MS + 1);
    // The log not read for so long: the reader gets the index, and a build starts behind.
    expect(await indexes.get(db, "key", source)).toBe(100);
    announcePhotosChanged(["a"]);
    expect(await indexes.get(db, "key", source)).toBe(101);
    // The build ends after that patch: it is used, and the patch applied to it again.
    pending.shift()?.();
    await vi.waitFor(async () => expect(await indexes.get(db, "key", source)).toBe(201));
    expect(build).toHaveBeenCalledTimes(2);
  });

  it("keeps the old index when a build behind it fails, and tries again for a later reader", async () => {
    vi.useFakeTimers();
    const indexes = refreshingMapIndexes<number>({ ...settings(), maxEntries: 10, ...LIMITS });
    const db = handle();
    expect(await indexes.get(db, "key", wholeOnly(async () => 1))).toBe(1);
    vi.advanceTimersByTime(TRUST_FEED_FOR_MS + 1);
    const failing = vi.fn(async () => {
      throw new Error("database gone");
    });
    expect(await indexes.get(db, "key", wholeOnly(failing))).toBe(1);
    await vi.waitFor(() => expect(failing).toHaveBeenCalledTimes(1));
    vi.advanceTimersByTime(TRUST_FEED_FOR_MS + 1);
    expect(await indexes.get(db, "key", wholeOnly(async () => 3))).toBe(1);
    await vi.waitFor(async () => expect(await indexes.get(db, "key", wholeOnly(async () => 4))).toBe(3));
  });

  it("forgets a first build that failed, so the next reader builds again", async () => {
    const indexes = refreshingMapIndexes<number>({ ...settings(), maxEntries: 10, ...LIMITS });
    const db = handle();
    await expect(indexes.get(db, "key", wholeOnly(() => Promise.reject(new Error("no"))))).rejects.toThrow("no");
    expect(await indexes.get(db, "key", wholeOnly(async () => 5))).toBe(5);
  });

  it("holds at most maxEntries indexes, the least recently read going first", async () => {
    const indexes = refreshingMapIndexes<number>({ ...settings(), maxEntries: 2, ...LIMITS });
    const db = handle();
    await indexes.get(db, "a", wholeOnly(async () => 1));
    await indexes.get(db, "b", wholeOnly(async () => 2));
    await indexes.get(db, "a", wholeOnly(async () => 9));
    await indexes.get(db, "c", wholeOnly(async () => 3));
    expect(await indexes.get(db, "a", wholeOnly(async () => 9))).toBe(1);
    expect(await indexes.get(db, "b", wholeOnly(async () => 8))).toBe(8);
  });

  it("patches the index with the photos a change names, before the next answer, without a full build", async () => {
    const indexes = refreshingMapIndexes<number>({ ...settings(), maxEntries: 10, ...LIMITS });
    const db = handle();
    const build = vi.fn(async () => 10);
    const update = vi.fn(async (current: number, photoIds: ReadonlySet<string>) => current + photoIds.size);
    expect(await indexes.get(db, "key", { build, update })).toBe(10);
    announcePhotosChanged(["a"]);
    announcePhotosChanged(["b", "a"]);
    // Both changes in one update, and every reader at once shares it.
    const readers = [indexes.get(db, "key", { build, update }), indexes.get(db, "key", { build, update })];
    expect(await Promise.all(readers)).toEqual([12, 12]);
    expect(update).toHaveBeenCalledTimes(1);
    expect([...update.mock.calls[0][1]].sort()).toEqual(["a", "b"]);
    expect(await indexes.get(db, "key", { build, update })).toBe(12);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it("builds again after a change that names no photos, or too many", async () => {
    const indexes = refreshingMapIndexes<number>({ ...settings(), maxEntries: 10, ...LIMITS });
    const db = handle();
    let built = 0;
    const source = { build: vi.fn(async () => (built += 1)), update: vi.fn(async (current: number) => current) };
    expect(await indexes.get(db, "key", source)).toBe(1);
    announcePhotosChanged(["a"]);
    announcePhotosChanged();
    expect(await indexes.get(db, "key", source)).toBe(2);
    announcePhotosChanged(Array.from({ length: MAX_CHANGED_PHOTOS + 1 }, (_, index) => `photo-${index}`));
    expect(await indexes.get(db, "key", source)).toBe(3);
    for (let index = 0; index <= MAX_CHANGED_PHOTOS / 2; index += 1) announcePhotosChanged([`first-${index}`, `second-${index}`]);
    expect(await indexes.get(db, "key", source)).toBe(4);
    expect(source.update).not.toHaveBeenCalled();
  });

  it("keeps the index as it is after changes that name no photo's row, and says what each build or patch was for", async () => {
    const work: string[] = [];
    const indexes = refreshingMapIndexes<number>({ ...settings(), maxEntries: 10, ...LIMITS, onWork: (kind) => work.push(kind) });
    const db = handle();
    let built = 0;
    const source = { build: vi.fn(async () => (built += 1)), update: vi.fn(async (current: number) => current + 10) };
    expect(await indexes.get(db, "key", source)).toBe(1);
    announcePhotosChanged([]);
    expect(await indexes.get(db, "key", source)).toBe(1);
    expect(source.update).not.toHaveBeenCalled();
    announcePhotosChanged(["a"]);
    announcePhotosChanged([]);
    expect(await indexes.get(db, "key", source)).toBe(11);
    announcePhotosChanged(null);
    expect(await indexes.get(db, "key", source)).toBe(2);
    expect(work).toEqual(["first", "patch", "changes"]);
  });

  it("does not answer a patch that failed: the reader is told, and the next reader patches again", async () => {
    const indexes = refreshingMapIndexes<number>({ ...settings(), maxEntries: 10, ...LIMITS });
    const db = handle();
    const update = vi.fn().mockRejectedValueOnce(new Error("database gone")).mockResolvedValueOnce(7);
    expect(await indexes.get(db, "key", { build: async () => 1, update })).toBe(1);
    announcePhotosChanged(["a"]);
    await expect(indexes.get(db, "key", { build: async () => 1, update })).rejects.toThrow("database gone");
    expect(await indexes.get(db, "key", { build: async () => 1, update })).toBe(7);
  });

  it("holds at most maxBytes of indexes, the least recently read going first, but always the one being read", async () => {
    const indexes = refreshingMapIndexes<number>({ ...settings(), maxEntries: 10, maxBytes: 100, sizeOf: (value) => value });
    const db = handle();
    await indexes.get(db, "a", wholeOnly(async () => 40));
    await indexes.get(db, "b", wholeOnly(async () => 50));
    await indexes.get(db, "a", wholeOnly(async () => 1));
    await indexes.get(db, "c", wholeOnly(async () => 30));
    expect(await indexes.get(db, "a", wholeOnly(async () => 1))).toBe(40);
    expect(await indexes.get(db, "b", wholeOnly(async () => 2))).toBe(2);
    expect(await indexes.get(db, "huge", wholeOnly(async () => 500))).toBe(500);
    expect(await indexes.get(db, "huge", wholeOnly(async () => 3))).toBe(500);
  });
});
