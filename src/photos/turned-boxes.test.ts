import { describe, expect, it } from "vitest";
import { type FractionBox, turnBetween, turnBox } from "./turned-boxes";

// A box near the top-left corner of a photo: wide, short, off the centre both ways.
const BOX: FractionBox = { left: 0.1, top: 0.2, width: 0.3, height: 0.1 };

function close(box: FractionBox): FractionBox {
  return { left: Number(box.left.toFixed(6)), top: Number(box.top.toFixed(6)), width: Number(box.width.toFixed(6)), height: Number(box.height.toFixed(6)) };
}

describe("turnBox", () => {
  it("a quarter turn clockwise puts the top-left corner at the top right and swaps the sides", () => {
    expect(close(turnBox(BOX, 90))).toEqual({ left: 0.7, top: 0.1, width: 0.1, height: 0.3 });
  });

  it("a half turn puts it at the bottom right", () => {
    expect(close(turnBox(BOX, 180))).toEqual({ left: 0.6, top: 0.7, width: 0.3, height: 0.1 });
  });

  it("three quarters puts it at the bottom left", () => {
    expect(close(turnBox(BOX, 270))).toEqual({ left: 0.2, top: 0.6, width: 0.1, height: 0.3 });
  });

  it("no turn changes nothing; four quarter turns come back; 90 then 270 undo each other", () => {
    expect(turnBox(BOX, 0)).toEqual(BOX);
    expect(close(turnBox(turnBox(turnBox(turnBox(BOX, 90), 90), 90), 90))).toEqual(BOX);
    expect(close(turnBox(turnBox(BOX, 90), 270))).toEqual(BOX);
  });

  it("a box stays inside the photo", () => {
    const edge = { left: 0.8, top: 0, width: 0.2, height: 0.5 };
    for (const degrees of [90, 180, 270] as const) {
      const turned = turnBox(edge, degrees);
      expect(turned.left).toBeGreaterThanOrEqual(0);
      expect(turned.top).toBeGreaterThanOrEqual(0);
      expect(turned.left + turned.width).toBeLessThanOrEqual(1 + 1e-9);
      expect(turned.top + turned.height).toBeLessThanOrEqual(1 + 1e-9);
    }
  });
});

describe("turnBetween", () => {
  it("is the clockwise turn from one rotation to the other", () => {
    expect(turnBetween(0, 90)).toBe(90);
    expect(turnBetween(90, 0)).toBe(270);
    expect(turnBetween(270, 90)).toBe(180);
    expect(turnBetween(180, 180)).toBe(0);
  });
});
