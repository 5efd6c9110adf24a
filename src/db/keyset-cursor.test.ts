import { describe, expect, it } from "vitest";
import { decodeKeysetCursor, encodeKeysetCursor } from "./keyset-cursor";

describe("keyset cursors", () => {
  it("reads back the parts it wrote", () => {
    const cursor = encodeKeysetCursor("2026-11-24T10:00:00.000Z", "3f2a");
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeKeysetCursor(cursor, 2)).toEqual(["2026-11-24T10:00:00.000Z", "3f2a"]);
    expect(decodeKeysetCursor(encodeKeysetCursor("manual", "a0", "id"), 3)).toEqual(["manual", "a0", "id"]);
  });

  it("refuses what it did not write with a 400", () => {
    const refused = (cursor: string, count = 2) => {
      try {
        decodeKeysetCursor(cursor, count, "Start again.");
        return null;
      } catch (error) {
        return error as { code: string; message: string };
      }
    };
    expect(refused(encodeKeysetCursor("a", "b"), 3)).toMatchObject({ code: "BAD_REQUEST", message: "Start again." });
    expect(refused(encodeKeysetCursor("a", ""))).toMatchObject({ code: "BAD_REQUEST" });
    expect(refused(Buffer.from("a|b\u0000").toString("base64url"))).toMatchObject({ code: "BAD_REQUEST" });
    expect(refused("not base64 at all!")).toMatchObject({ code: "BAD_REQUEST" });
  });
});
