import { describe, expect, it } from "vitest";
import { isWellFormedShareKey, newShareKey, shareKeyFromPath } from "./share-key";

describe("share keys", () => {
  it("carry at least 128 random bits and are all different", () => {
    const keys = new Set(Array.from({ length: 1000 }, newShareKey));
    expect(keys.size).toBe(1000);
    for (const key of keys) {
      expect(isWellFormedShareKey(key)).toBe(true);
      expect(Buffer.from(key, "base64url").length * 8).toBeGreaterThanOrEqual(128);
    }
  });

  it("refuse anything of another shape before the database is asked", () => {
    const key = newShareKey();
    expect(isWellFormedShareKey(key.slice(1))).toBe(false);
    expect(isWellFormedShareKey(`${key}a`)).toBe(false);
    expect(isWellFormedShareKey(`${key.slice(1)}/`)).toBe(false);
    expect(isWellFormedShareKey("")).toBe(false);
  });

  it("are read from paths below /s/", () => {
    expect(shareKeyFromPath("/s/abc/media/x")).toBe("abc");
    expect(shareKeyFromPath("/s/abc")).toBe("abc");
    expect(shareKeyFromPath("/p/abc")).toBe("");
  });
});
