import { describe, expect, it } from "vitest";
import { countFirstRow, PHONE_SCREEN, planTileLoading, WIDE_SCREEN } from "./grid-loading";

const LANDSCAPE = 4 / 3;
const PORTRAIT = 3 / 4;

describe("countFirstRow", () => {
  it("adds up the tiles' bases and gaps as flex-wrap does", () => {
    // 110 px rows in 411 px: 4:3 is 146.7 px, 3:4 is 82.5 px; two landscapes and a portrait take
    // 146.7 + 3 + 146.7 + 3 + 82.5 = 381.8 px, and another portrait would make 467.3.
    expect(countFirstRow([LANDSCAPE, LANDSCAPE, PORTRAIT, PORTRAIT], PHONE_SCREEN)).toBe(3);
    expect(countFirstRow([PORTRAIT, PORTRAIT, PORTRAIT, PORTRAIT, PORTRAIT], PHONE_SCREEN)).toBe(4);
  });

  it("puts a tile wider than the row alone in it, and answers 0 for no tiles", () => {
    expect(countFirstRow([8, LANDSCAPE], PHONE_SCREEN)).toBe(1);
    expect(countFirstRow([], PHONE_SCREEN)).toBe(0);
  });
});

describe("planTileLoading", () => {
  it("fetches the phone's first row at high priority, the wide screen's first row eagerly, and the rest lazily", () => {
    const ratios = Array.from({ length: 30 }, (_unused, index) => (index % 3 === 2 ? PORTRAIT : LANDSCAPE));
    const plan = planTileLoading(ratios);
    const highCount = countFirstRow(ratios, PHONE_SCREEN);
    const eagerCount = countFirstRow(ratios, WIDE_SCREEN);
    expect(highCount).toBe(3);
    expect(eagerCount).toBeGreaterThan(highCount);
    expect(plan.slice(0, highCount)).toEqual(Array(highCount).fill("high"));
    expect(plan.slice(highCount, eagerCount)).toEqual(Array(eagerCount - highCount).fill("eager"));
    expect(plan.slice(eagerCount)).toEqual(Array(30 - eagerCount).fill("lazy"));
    // Never every tile at once: most of a page of 30 waits until it nears the screen.
    expect(plan.filter((loading) => loading === "lazy").length).toBeGreaterThan(20);
  });

  it("always loads the first tile at high priority, however wide", () => {
    expect(planTileLoading([12])).toEqual(["high"]);
  });
});
