import { describe, expect, it } from "vitest";
import { countFirstRow, countFirstScreen, FIRST_SCREEN_PHONE, largestOnFirstScreen, layOutRows, LIGHTHOUSE_PHONE, planTileLoading } from "./grid-loading";

const LANDSCAPE = 4 / 3;
const PORTRAIT = 3 / 4;
const PANORAMA = 3;

/** A page of 30 tiles: two landscapes and a portrait, over and over. */
const PAGE = Array.from({ length: 30 }, (_unused, index) => (index % 3 === 2 ? PORTRAIT : LANDSCAPE));

describe("countFirstRow", () => {
  it("adds up the tiles' bases and gaps as flex-wrap does", () => {
    // 110 px rows in 411 px: 4:3 is 146.7 px, 3:4 is 82.5 px; two landscapes and a portrait take
    // 146.7 + 3 + 146.7 + 3 + 82.5 = 381.8 px, and another portrait would make 467.3.
    expect(countFirstRow([LANDSCAPE, LANDSCAPE, PORTRAIT, PORTRAIT], FIRST_SCREEN_PHONE)).toBe(3);
    expect(countFirstRow([PORTRAIT, PORTRAIT, PORTRAIT, PORTRAIT, PORTRAIT], FIRST_SCREEN_PHONE)).toBe(4);
  });

  it("puts a tile wider than the row alone in it, and answers 0 for no tiles", () => {
    expect(countFirstRow([8, LANDSCAPE], FIRST_SCREEN_PHONE)).toBe(1);
    expect(countFirstRow([], FIRST_SCREEN_PHONE)).toBe(0);
  });
});

describe("layOutRows", () => {
  it("grows a full row until it fills the width, and leaves the last row at the row height", () => {
    const rows = layOutRows([LANDSCAPE, LANDSCAPE, PORTRAIT, LANDSCAPE], LIGHTHOUSE_PHONE);
    // (394 - 2 x 3) / (4/3 + 4/3 + 3/4) = 113.6 px; the lone last landscape stays 110 px.
    expect(rows.map((row) => row.count)).toEqual([3, 1]);
    expect(rows[0]!.height).toBeCloseTo(113.6, 1);
    expect(rows[1]!.height).toBe(110);
  });

  it("stops at the screen's bottom: the row it cuts is on the screen, the ones after are not", () => {
    // Rows of 116.6 px (113.6 and a gap): the 8th starts at 816 px, above 823.
    expect(countFirstScreen(PAGE, LIGHTHOUSE_PHONE)).toBe(24);
    expect(countFirstScreen(PAGE, FIRST_SCREEN_PHONE)).toBe(24);
  });
});

describe("largestOnFirstScreen", () => {
  it("finds the largest tile as drawn, in whichever row it is", () => {
    // Row 1: two landscapes and a portrait, 113.6 px tall; a 3:1 panorama and a landscape are wider
    // than the row, so the panorama is alone in row 2 and grows to 394 x 131 px, three times the
    // area of a landscape in row 1.
    const ratios = [LANDSCAPE, LANDSCAPE, PORTRAIT, PANORAMA, LANDSCAPE, LANDSCAPE, PORTRAIT];
    const rows = layOutRows(ratios, LIGHTHOUSE_PHONE);
    expect(rows.map((row) => row.count)).toEqual([3, 1, 3]);
    expect(largestOnFirstScreen(ratios, LIGHTHOUSE_PHONE, 1)).toEqual([3]);
  });

  it("takes the earlier of tiles the same size", () => {
    expect(largestOnFirstScreen(PAGE, LIGHTHOUSE_PHONE, 2)).toEqual([0, 1]);
  });
});

describe("planTileLoading", () => {
  it("loads every tile of a phone's first screen at once, the two largest at high priority, and the rest lazily", () => {
    const plan = planTileLoading(PAGE);
    expect(plan.slice(0, 2)).toEqual(["high", "high"]);
    expect(plan.slice(2, 24)).toEqual(Array(22).fill("eager"));
    expect(plan.slice(24)).toEqual(Array(6).fill("lazy"));
  });

  it("fetches the largest tile early when it is below the first row (it was the 5th tile on album, camera and search pages)", () => {
    const ratios = [LANDSCAPE, LANDSCAPE, PORTRAIT, PANORAMA, ...PAGE];
    const plan = planTileLoading(ratios);
    expect(plan[3]).toBe("high");
    expect(plan.filter((loading) => loading === "high")).toHaveLength(2);
  });

  it("always loads the first tile at high priority, however wide", () => {
    expect(planTileLoading([12])).toEqual(["high"]);
  });
});
