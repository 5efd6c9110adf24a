import { describe, expect, it } from "vitest";
import { AccessVersionGate } from "./access-version-gate";

/** A version read that the test finishes by hand, to see which requests share which read. */
function controlledReads() {
  const pending: Array<(version: number) => void> = [];
  let startedCount = 0;
  return {
    read: () =>
      new Promise<number>((resolve) => {
        startedCount += 1;
        pending.push(resolve);
      }),
    finishNext: async (version: number) => {
      pending.shift()?.(version);
      // Lets the promise chain behind the read run.
      for (let turn = 0; turn < 5; turn += 1) await Promise.resolve();
    },
    get startedCount() {
      return startedCount;
    },
  };
}

describe("the access version gate", () => {
  it("lets requests that arrived before a read share it, and makes later ones wait for the next read", async () => {
    const reads = controlledReads();
    let changes = 0;
    const gate = new AccessVersionGate(reads.read, () => (changes += 1));
    const settled: string[] = [];
    void gate.confirm().then(() => settled.push("first"));
    // Arrives while the first read runs: it may not use that read, which may have started before a change.
    void gate.confirm().then(() => settled.push("second"));
    void gate.confirm().then(() => settled.push("third"));
    expect(reads.startedCount).toBe(1);

    await reads.finishNext(7);
    expect(settled).toEqual(["first"]);
    expect(reads.startedCount).toBe(2);

    await reads.finishNext(7);
    expect(settled).toEqual(["first", "second", "third"]);
    // The first read saw a version for the first time; the second saw it unchanged.
    expect(changes).toBe(1);
  });

  it("drops the cache when the version moved, and not when it stayed", async () => {
    const versions = [1, 1, 2, 2, 3];
    let changes = 0;
    const gate = new AccessVersionGate(async () => versions.shift() ?? 3, () => (changes += 1));
    const counts: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      await gate.confirm();
      counts.push(changes);
    }
    expect(counts).toEqual([1, 1, 2, 2, 3]);
  });

  it("rejects the requests of a read that failed, and reads again for the next one", async () => {
    let isFailing = true;
    const gate = new AccessVersionGate(async () => {
      if (isFailing) throw new Error("database down");
      return 1;
    }, () => undefined);
    await expect(gate.confirm()).rejects.toThrow("database down");
    isFailing = false;
    await expect(gate.confirm()).resolves.toBeUndefined();
  });

  it("reads the version at once for every request when a synchronous read is given", async () => {
    let version = 1;
    let asyncReads = 0;
    let changes = 0;
    const gate = new AccessVersionGate(
      async () => {
        asyncReads += 1;
        return version;
      },
      () => (changes += 1),
      () => version,
    );
    expect(gate.confirmNow()).toBe(true);
    expect(gate.confirmNow()).toBe(true);
    version = 2;
    await gate.confirm();
    expect(changes).toBe(2);
    expect(asyncReads).toBe(0);
  });

  it("says it cannot confirm at once without a synchronous read", () => {
    expect(new AccessVersionGate(async () => 1, () => undefined).confirmNow()).toBe(false);
  });
});
