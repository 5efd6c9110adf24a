import { afterEach, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "@/src/db/client";
import { announcePhotosChanged } from "@/src/photos/photo-changes";
import { refreshingMapIndexes } from "./refreshing-map-indexes";

// Only `isTransaction` is read; the handle is otherwise just an identity.
const handle = () => ({ isTransaction: false }) as unknown as DatabaseHandle;

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
    const indexes = refreshingMapIndexes<number>({ lifetimeMs: 10_000, maxEntries: 10 });
    const db = handle();
    const { build, release } = builds(false);
    const readers = [indexes.get(db, "map:anonymous", build), indexes.get(db, "map:anonymous", build)];
    release();
    expect(await Promise.all(readers)).toEqual([1, 1]);
    expect(await indexes.get(db, "map:anonymous", build)).toBe(1);
    expect(build).toHaveBeenCalledTimes(1);
    const otherDatabase = indexes.get(handle(), "map:anonymous", build);
    release();
    expect(await otherDatabase).toBe(2);
  });

  it("answers an expired index at once and replaces it when the build behind it is done", async () => {
    vi.useFakeTimers();
    const indexes = refreshingMapIndexes<number>({ lifetimeMs: 10_000, maxEntries: 10 });
    const db = handle();
    const { build, release } = builds(false);
    const first = indexes.get(db, "key", build);
    release();
    expect(await first).toBe(1);
    vi.advanceTimersByTime(10_001);
    // The reader does not wait: the old index, and one build started behind it.
    expect(await indexes.get(db, "key", build)).toBe(1);
    expect(await indexes.get(db, "key", build)).toBe(1);
    expect(build).toHaveBeenCalledTimes(2);
    release();
    await vi.waitFor(async () => expect(await indexes.get(db, "key", build)).toBe(2));
    expect(build).toHaveBeenCalledTimes(2);
  });

  it("never answers an index built before a change in this process: the next reader waits for a fresh one", async () => {
    const indexes = refreshingMapIndexes<number>({ lifetimeMs: 10_000, maxEntries: 10 });
    const db = handle();
    const { build, release } = builds(false);
    const first = indexes.get(db, "key", build);
    release();
    expect(await first).toBe(1);
    // A build still running when photos change is not answered either.
    const { build: slow, release: releaseSlow } = builds(false);
    announcePhotosChanged();
    const during = indexes.get(db, "other", slow);
    announcePhotosChanged();
    const after = indexes.get(db, "key", build);
    const afterOther = indexes.get(db, "other", slow);
    release();
    releaseSlow();
    releaseSlow();
    expect(await after).toBe(2);
    expect(await during).toBe(1);
    expect(await afterOther).toBe(2);
  });

  it("keeps the old index when a build behind it fails, and tries again for a later reader", async () => {
    vi.useFakeTimers();
    const indexes = refreshingMapIndexes<number>({ lifetimeMs: 10_000, maxEntries: 10 });
    const db = handle();
    expect(await indexes.get(db, "key", async () => 1)).toBe(1);
    vi.advanceTimersByTime(10_001);
    const failing = vi.fn(async () => {
      throw new Error("database gone");
    });
    expect(await indexes.get(db, "key", failing)).toBe(1);
    await vi.waitFor(() => expect(failing).toHaveBeenCalledTimes(1));
    expect(await indexes.get(db, "key", async () => 3)).toBe(1);
    await vi.waitFor(async () => expect(await indexes.get(db, "key", async () => 4)).toBe(3));
  });

  it("forgets a first build that failed, so the next reader builds again", async () => {
    const indexes = refreshingMapIndexes<number>({ lifetimeMs: 10_000, maxEntries: 10 });
    const db = handle();
    await expect(indexes.get(db, "key", () => Promise.reject(new Error("no")))).rejects.toThrow("no");
    expect(await indexes.get(db, "key", async () => 5)).toBe(5);
  });

  it("holds at most maxEntries indexes, the least recently read going first", async () => {
    const indexes = refreshingMapIndexes<number>({ lifetimeMs: 10_000, maxEntries: 2 });
    const db = handle();
    await indexes.get(db, "a", async () => 1);
    await indexes.get(db, "b", async () => 2);
    await indexes.get(db, "a", async () => 9);
    await indexes.get(db, "c", async () => 3);
    expect(await indexes.get(db, "a", async () => 9)).toBe(1);
    expect(await indexes.get(db, "b", async () => 8)).toBe(8);
  });
});
