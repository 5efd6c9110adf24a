import { describe, expect, it } from "vitest";
import { assertValidStorageKey, assertValidStoragePrefix, InvalidStorageKeyError, resolveByteRange } from "./storage";

describe("assertValidStorageKey", () => {
  it.each([
    "a",
    "0",
    "originals/ab/cd/0123456789abcdef.jpg",
    "variants/x_1-2.avif",
    "a/b.c/d..e", // ".." inside a segment is just a name
    "k".repeat(512),
  ])("accepts %j", (key) => {
    expect(() => assertValidStorageKey(key)).not.toThrow();
  });

  it.each([
    ["parent segment", "../x"],
    ["parent segment inside", "a/../../b"],
    ["trailing parent segment", "a/.."],
    ["dot segment", "a/./b"],
    ["absolute path", "/abs"],
    ["URL-encoded dots", "%2e%2e/x"],
    ["NUL byte", "a\0b"],
    ["backslash", "a\\b"],
    ["backslash traversal", "..\\x"],
    ["10 kB key", "a".repeat(10_000)],
    ["513 characters", "a".repeat(513)],
    ["empty", ""],
    ["upper case", "Photo.jpg"],
    ["leading dot", ".tmp/x"],
    ["leading dash", "-x"],
    ["empty segment", "a//b"],
    ["trailing slash", "a/"],
    ["space", "a b"],
    ["new line", "a\nb"],
    ["non-ASCII", "caf\u00e9"],
    ["colon (Windows drive)", "c:/x"],
  ])("refuses a key with %s", (_label, key) => {
    expect(() => assertValidStorageKey(key)).toThrow(InvalidStorageKeyError);
  });

  it("refuses a value that is not a string", () => {
    expect(() => assertValidStorageKey(42 as unknown as string)).toThrow(InvalidStorageKeyError);
  });

  it("keeps an overlong key out of its message", () => {
    expect(() => assertValidStorageKey("a".repeat(10_000))).toThrow(/10000 characters/);
    try {
      assertValidStorageKey("a".repeat(10_000));
    } catch (error) {
      expect((error as Error).message.length).toBeLessThan(200);
    }
  });
});

describe("assertValidStoragePrefix", () => {
  it.each(["", "a", "originals/", "originals/ab"])("accepts %j", (prefix) => {
    expect(() => assertValidStoragePrefix(prefix)).not.toThrow();
  });

  it.each(["/", "../", "a//", "/a", "a/../", "%2e"])("refuses %j", (prefix) => {
    expect(() => assertValidStoragePrefix(prefix)).toThrow(InvalidStorageKeyError);
  });
});

describe("resolveByteRange", () => {
  it.each([
    [{ start: 0, end: 0 }, 10, { start: 0, end: 0 }],
    [{ start: 9, end: 9 }, 10, { start: 9, end: 9 }],
    [{ start: 3, end: 6 }, 10, { start: 3, end: 6 }],
    [{ start: 0, end: 9 }, 10, { start: 0, end: 9 }],
    [{ start: 5, end: 1_000 }, 10, { start: 5, end: 9 }],
  ])("resolves %j of %i bytes to %j", (range, size, expected) => {
    expect(resolveByteRange(range, size)).toEqual(expected);
  });

  it.each([
    [{ start: 10, end: 10 }, 10],
    [{ start: 0, end: 0 }, 0],
    [{ start: 5, end: 4 }, 10],
    [{ start: -1, end: 4 }, 10],
    [{ start: 0.5, end: 4 }, 10],
    [{ start: Number.NaN, end: 4 }, 10],
  ])("refuses %j of %i bytes", (range, size) => {
    expect(() => resolveByteRange(range, size)).toThrow(RangeError);
  });
});
