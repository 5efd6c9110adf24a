import { describe, expect, it } from "vitest";
import { albumTargetFor } from "./album-folders";

describe("albumTargetFor", () => {
  it("nests one album per folder level from the named folder down", () => {
    expect(albumTargetFor(["Trips", "2024", "Rome"], { kind: "folders" })).toEqual({ titles: ["Trips", "2024", "Rome"], folded: false });
  });

  it("folds folders deeper than the album limit into the deepest allowed level, and says so", () => {
    expect(albumTargetFor(["a", "b", "c", "d", "e", "f"], { kind: "folders" }, 4)).toEqual({ titles: ["a", "b", "c", "d"], folded: true });
    expect(albumTargetFor(["a", "b", "c", "d"], { kind: "folders" }, 4)?.folded).toBe(false);
  });

  it("gives a file named directly no folder album, one --album to everything, none without a mode", () => {
    expect(albumTargetFor([], { kind: "folders" })).toBeNull();
    expect(albumTargetFor(["Trips"], { kind: "none" })).toBeNull();
    expect(albumTargetFor(["Trips", "2024"], { kind: "one", title: "Holidays" })).toEqual({ titles: ["Holidays"], folded: false });
  });

  it("makes a folder name an album title the API takes: no control characters, at most 200 characters, never empty", () => {
    expect(albumTargetFor(["a\tb\u0007", " ", "x".repeat(300)], { kind: "folders" })?.titles).toEqual(["a b", "Untitled", "x".repeat(200)]);
  });
});
