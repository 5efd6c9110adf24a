import { afterEach, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "@/src/db/client";
import { announcePhotosChanged } from "@/src/photos/photo-changes";
import { MAX_CHANGED_PHOTOS, type MapIndexSource, refreshingMapIndexes } from "./refreshing-map-indexes";

// Only `isTransaction` is read; the handle is otherwise just an identity.
const handle = () => ({ isTransaction: false }) as unknown as DatabaseHandle;

const LIMITS = { maxBytes: Number.POSITIVE_INFINITY, sizeOf: () => 1 };

/** Indexes that are only ever built whole (a change naming photos must not reach `update` here). */
const wholeOnly = (build: () => Promise<number>): MapIndexSource<number> => ({
  build,
  update: () => Promise.reject(new Error("not patched in this test")),
});

/** A build answering 1, 2, 3, … on each call, each only when `release` is called (or at once with `immediate`). */
function builds(immediate = true) {
  let count = 0;
  const pending: Array<() => void> = [];
  const build = vi.fn(() => {
    count += 1;
    const value = count;
    if (immediate) return Promise.resolve(value);
    return new Promise<number>((resolve) => pending.push(() => resolve(value)));
  });
  return { build, release: () => pending.shift()?.() };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("refreshingMapIndexes", () => {
  it("builds once per key and handle, and readers asking at once share the build", async () => {
    const indexes = refreshingMapIndexes<number>({ lifetimeMs: 10_000, maxEntries: 10, ...LIMITS });
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

  it("answers an expired index at once and replaces it when the build behind it is done", async () => {
    vi.useFakeTimers();
    const indexes = refreshingMapIndexes<number>({ lifetimeMs: 10_000, maxEntries: 10, ...LIMITS });
    const db = handle();
    const { build, release } = builds(false);
    const first = indexes.get(db, "key", wholeOnly(build));
    release();
    expect(await first).toBe(1);
    vi.advanceTimersByTime(10_001);
    // The reader does not wait: the old index, and one build started behind it.
    expect(await indexes.get(db, "key", wholeOnly(build))).toBe(1);
    expect(await indexes.get(db, "key", wholeOnly(build))).toBe(1);
    expect(build).toHaveBeenCalledTimes(2);
    release();
    await vi.waitFor(async () => expect(await indexes.get(db, "key", wholeOnly(build))).toBe(2));
    expect(build).toHaveBeenCalledTimes(2);
  });

  it("never answers an index built before a change in this process: the next reader waits for a fresh one", async () => {
    const indexes = refreshingMapIndexes<number>({ lifetimeMs: 10_000, maxEntries: 10, ...LIMITS });
    const db = handle();
    const { build, release } = builds(false);
    const first = indexes.get(db, "key", wholeOnly(build));
    release();
    expect(await first).toBe(1);
    // A build still running when photos change is not answered either.
    const { build: slow, release: releaseSlow } = builds(false);
    announcePhotosChanged();
    const during = indexes.get(db, "other", wholeOnly(slow));
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
    const indexes = refreshingMapIndexes<number>({ lifetimeMs: 10_000, maxEntries: 10, ...LIMITS });
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
    pending.shift()?.();
    expect(await first).toBe(100);
    vi.advanceTimersByTime(10_001);
    // Old: the reader gets it, and a build (for other instances' changes) starts behind.
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
    const indexes = refreshingMapIndexes<number>({ lifetimeMs: 10_000, maxEntries: 10, ...LIMITS });
    const db = handle();
    expect(await indexes.get(db, "key", wholeOnly(async () => 1))).toBe(1);
    vi.advanceTimersByTime(10_001);
    const failing = vi.fn(async () => {
      throw new Error("database gone");
    });
    expect(await indexes.get(db, "key", wholeOnly(failing))).toBe(1);
    await vi.waitFor(() => expect(failing).toHaveBeenCalledTimes(1));
    expect(await indexes.get(db, "key", wholeOnly(async () => 3))).toBe(1);
    await vi.waitFor(async () => expect(await indexes.get(db, "key", wholeOnly(async () => 4))).toBe(3));
  });

  it("forgets a first build that failed, so the next reader builds again", async () => {
    const indexes = refreshingMapIndexes<number>({ lifetimeMs: 10_000, maxEntries: 10, ...LIMITS });
    const db = handle();
    await expect(indexes.get(db, "key", wholeOnly(() => Promise.reject(new Error("no"))))).rejects.toThrow("no");
    expect(await indexes.get(db, "key", wholeOnly(async () => 5))).toBe(5);
  });

  it("holds at most maxEntries indexes, the least recently read going first", async () => {
    const indexes = refreshingMapIndexes<number>({ lifetimeMs: 10_000, maxEntries: 2, ...LIMITS });
    const db = handle();
    await indexes.get(db, "a", wholeOnly(async () => 1));
    await indexes.get(db, "b", wholeOnly(async () => 2));
    await indexes.get(db, "a", wholeOnly(async () => 9));
    await indexes.get(db, "c", wholeOnly(async () => 3));
    expect(await indexes.get(db, "a", wholeOnly(async () => 9))).toBe(1);
    expect(await indexes.get(db, "b", wholeOnly(async () => 8))).toBe(8);
  });

  it("patches the index with the photos a change names, before the next answer, without a full build", async () => {
    const indexes = refreshingMapIndexes<number>({ lifetimeMs: 10_000, maxEntries: 10, ...LIMITS });
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
    const indexes = refreshingMapIndexes<number>({ lifetimeMs: 10_000, maxEntries: 10, ...LIMITS });
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
    const indexes = refreshingMapIndexes<number>({ lifetimeMs: 10_000, maxEntries: 10, ...LIMITS, onWork: (kind) => work.push(kind) });
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
    const indexes = refreshingMapIndexes<number>({ lifetimeMs: 10_000, maxEntries: 10, ...LIMITS });
    const db = handle();
    const update = vi.fn().mockRejectedValueOnce(new Error("database gone")).mockResolvedValueOnce(7);
    expect(await indexes.get(db, "key", { build: async () => 1, update })).toBe(1);
    announcePhotosChanged(["a"]);
    await expect(indexes.get(db, "key", { build: async () => 1, update })).rejects.toThrow("database gone");
    expect(await indexes.get(db, "key", { build: async () => 1, update })).toBe(7);
  });

  it("holds at most maxBytes of indexes, the least recently read going first, but always the one being read", async () => {
    const indexes = refreshingMapIndexes<number>({ lifetimeMs: 10_000, maxEntries: 10, maxBytes: 100, sizeOf: (value) => value });
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
