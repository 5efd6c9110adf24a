import { describe, expect, it } from "vitest";
import type { DecodedPhoto } from "@/src/images/photo-decoder";
import { handOverVisibleDecode, takeVisibleDecode } from "./visible-decode-handoff";

function decodeOf(megabytes: number): DecodedPhoto {
  return { pixels: Buffer.alloc(megabytes * 1024 * 1024) } as DecodedPhoto;
}

describe("handing the upload check's decode to the visible phase", () => {
  it("gives a decode once, to the photo it was kept for", () => {
    const decoded = decodeOf(1);
    handOverVisibleDecode("photo-a", decoded);
    expect(takeVisibleDecode("photo-b")).toBeUndefined();
    expect(takeVisibleDecode("photo-a")).toBe(decoded);
    expect(takeVisibleDecode("photo-a")).toBeUndefined();
  });

  it("lets the oldest go when more than 64 MB are kept, and none older than ten minutes", () => {
    const start = Date.now();
    for (let index = 0; index < 5; index += 1) handOverVisibleDecode(`big-${index}`, decodeOf(20), start);
    // 100 MB were offered: the two oldest went.
    expect(takeVisibleDecode("big-0", start)).toBeUndefined();
    expect(takeVisibleDecode("big-1", start)).toBeUndefined();
    expect(takeVisibleDecode("big-2", start)).toBeDefined();

    handOverVisibleDecode("stale", decodeOf(1), start);
    expect(takeVisibleDecode("stale", start + 11 * 60 * 1000)).toBeUndefined();
    // Keeping another evicts what has expired.
    handOverVisibleDecode("old", decodeOf(1), start);
    handOverVisibleDecode("new", decodeOf(1), start + 11 * 60 * 1000);
    expect(takeVisibleDecode("big-3", start)).toBeUndefined();
    expect(takeVisibleDecode("old", start)).toBeUndefined();
    expect(takeVisibleDecode("new", start + 11 * 60 * 1000)).toBeDefined();
  });
});
