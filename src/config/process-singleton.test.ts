import { afterEach, describe, expect, it, vi } from "vitest";
import { processSingleton, processSlot, processSlotKey } from "./process-singleton";

afterEach(() => {
  processSlot("test.singleton").set(undefined);
  vi.resetModules();
});

describe("processSingleton", () => {
  it("makes the value once per process, for every copy of the module that asks", async () => {
    const create = vi.fn(() => ({ made: true }));
    const first = processSingleton("test.singleton", create);
    // A second copy of the module, as Next.js makes one per route bundle.
    vi.resetModules();
    const copy = await import("./process-singleton");
    expect(copy.processSingleton("test.singleton", create)).toBe(first);
    expect(create).toHaveBeenCalledTimes(1);
  });

  it("lives under Symbol.for('contact-sheet.<name>'), where server.mjs looks", () => {
    const value = processSingleton("test.singleton", () => "here");
    expect(processSlotKey("test.singleton")).toBe(Symbol.for("contact-sheet.test.singleton"));
    expect((globalThis as unknown as Record<symbol, unknown>)[Symbol.for("contact-sheet.test.singleton")]).toBe(value);
  });

  it("keeps nothing when making the value throws, so the next caller tries again", () => {
    expect(() => processSingleton("test.singleton", () => { throw new Error("no database"); })).toThrow("no database");
    expect(processSingleton("test.singleton", () => "second try")).toBe("second try");
  });
});

describe("processSlot", () => {
  it("is the singleton's slot, and can be replaced and emptied", () => {
    const slot = processSlot<string>("test.singleton");
    expect(slot.get()).toBeUndefined();
    slot.set("swapped");
    expect(processSingleton("test.singleton", () => "made")).toBe("swapped");
    slot.set(undefined);
    expect(processSingleton("test.singleton", () => "made")).toBe("made");
  });
});
