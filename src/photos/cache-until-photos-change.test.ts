import { afterEach, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "@/src/db/client";
import { cacheUntilPhotosChange } from "./cache-until-photos-change";
import { announcePhotosChanged } from "./photo-changes";

// Only `isTransaction` is read; the handle is otherwise just an identity.
const handle = (isTransaction = false) => ({ isTransaction }) as unknown as DatabaseHandle;

/** A load that counts its calls and answers `value`. */
function counting<T>(value: T) {
  const load = vi.fn(async () => value);
  return load;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("cacheUntilPhotosChange", () => {
  it("remembers a value per key and per database handle", async () => {
    const cache = cacheUntilPhotosChange<number>({ lifetimeMs: 5_000, maxEntries: 10 });
    const [one, other] = [handle(), handle()];
    const load = counting(7);
    expect(await cache.get(one, "a", load)).toBe(7);
    expect(await cache.get(one, "a", load)).toBe(7);
    expect(load).toHaveBeenCalledTimes(1);
    await cache.get(one, "b", load);
    await cache.get(other, "a", load);
    expect(load).toHaveBeenCalledTimes(3);
  });

  it("shares one read between callers asking at once", async () => {
    const cache = cacheUntilPhotosChange<number>({ lifetimeMs: 5_000, maxEntries: 10 });
    const db = handle();
    const load = counting(1);
    await Promise.all([cache.get(db, "a", load), cache.get(db, "a", load), cache.get(db, "a", load)]);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("drops everything when photos change in this process, reads still loading included", async () => {
    const cache = cacheUntilPhotosChange<string>({ lifetimeMs: 60_000, maxEntries: 10 });
    const db = handle();
    expect(await cache.get(db, "a", async () => "before")).toBe("before");
    let finish: (value: string) => void = () => undefined;
    const loading = cache.get(db, "b", () => new Promise<string>((resolve) => (finish = resolve)));

    announcePhotosChanged();
    finish("read before the change");
    await loading;
    expect(await cache.get(db, "a", async () => "after")).toBe("after");
    expect(await cache.get(db, "b", async () => "after")).toBe("after");
  });

  it("forgets a value after its lifetime", async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const cache = cacheUntilPhotosChange<number>({ lifetimeMs: 5_000, maxEntries: 10 });
    const db = handle();
    const load = counting(3);
    await cache.get(db, "a", load);
    vi.setSystemTime(1_004_999);
    await cache.get(db, "a", load);
    expect(load).toHaveBeenCalledTimes(1);
    vi.setSystemTime(1_005_000);
    await cache.get(db, "a", load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("holds at most maxEntries per handle, dropping the least recently used", async () => {
    const cache = cacheUntilPhotosChange<string>({ lifetimeMs: 60_000, maxEntries: 2 });
    const db = handle();
    const load = vi.fn(async () => "value");
    await cache.get(db, "a", load);
    await cache.get(db, "b", load);
    await cache.get(db, "a", load); // a is now the most recently used
    await cache.get(db, "c", load); // b goes
    expect(load).toHaveBeenCalledTimes(3);
    await cache.get(db, "a", load);
    await cache.get(db, "c", load);
    expect(load).toHaveBeenCalledTimes(3);
    await cache.get(db, "b", load);
    expect(load).toHaveBeenCalledTimes(4);
  });

  it("does not keep a failed read", async () => {
    const cache = cacheUntilPhotosChange<number>({ lifetimeMs: 60_000, maxEntries: 10 });
    const db = handle();
    await expect(cache.get(db, "a", () => Promise.reject(new Error("database gone")))).rejects.toThrow("database gone");
    expect(await cache.get(db, "a", async () => 5)).toBe(5);
  });

  it("never remembers inside a transaction", async () => {
    const cache = cacheUntilPhotosChange<number>({ lifetimeMs: 60_000, maxEntries: 10 });
    const transaction = handle(true);
    const load = counting(1);
    await cache.get(transaction, "a", load);
    await cache.get(transaction, "a", load);
    await cache.getMany(transaction, ["a"], (id) => id, async () => () => 1);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("getMany reads only the items not remembered, in one call, and answers in the items' order", async () => {
    const cache = cacheUntilPhotosChange<number>({ lifetimeMs: 60_000, maxEntries: 10 });
    const db = handle();
    const counts: Record<string, number> = { x: 1, y: 2, z: 3 };
    const loadMissing = vi.fn(async (missing: string[]) => (id: string) => (missing.includes(id) ? counts[id] : -1));
    expect(await cache.getMany(db, ["x", "y"], (id) => `album:${id}`, loadMissing)).toEqual([1, 2]);
    expect(await cache.getMany(db, ["z", "x", "y"], (id) => `album:${id}`, loadMissing)).toEqual([3, 1, 2]);
    expect(loadMissing.mock.calls).toEqual([[["x", "y"]], [["z"]]]);
    expect(await cache.getMany(db, ["y"], (id) => `album:${id}`, loadMissing)).toEqual([2]);
    expect(loadMissing).toHaveBeenCalledTimes(2);
  });
});
