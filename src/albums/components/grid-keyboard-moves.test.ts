import { describe, expect, it } from "vitest";
import { columnsOf, targetIndex } from "./grid-keyboard-moves";

describe("moving a photo in the album editor's grid by keyboard", () => {
  it("reads the row length from where the tiles are", () => {
    expect(columnsOf([0, 0, 0, 180, 180, 180, 360])).toBe(3);
    expect(columnsOf([10, 10.5, 10, 10])).toBe(4);
    expect(columnsOf([0])).toBe(1);
    expect(columnsOf([])).toBe(1);
  });

  it("moves one place with Left and Right, across the end of a row", () => {
    expect(targetIndex("ArrowRight", 2, 7, 3)).toBe(3);
    expect(targetIndex("ArrowLeft", 3, 7, 3)).toBe(2);
    expect(targetIndex("ArrowLeft", 0, 7, 3)).toBeNull();
    expect(targetIndex("ArrowRight", 6, 7, 3)).toBeNull();
  });

  it("moves one visual row with Up and Down, to the last tile when the row below is shorter", () => {
    expect(targetIndex("ArrowDown", 1, 7, 3)).toBe(4);
    expect(targetIndex("ArrowUp", 4, 7, 3)).toBe(1);
    expect(targetIndex("ArrowDown", 5, 7, 3)).toBe(6);
    expect(targetIndex("ArrowDown", 6, 7, 3)).toBeNull();
    expect(targetIndex("ArrowUp", 2, 7, 3)).toBeNull();
  });

  it("stays put on Up and Down in a one-row grid, and ignores other keys", () => {
    expect(targetIndex("ArrowDown", 1, 4, 4)).toBeNull();
    expect(targetIndex("ArrowUp", 1, 4, 4)).toBeNull();
    expect(targetIndex("KeyA", 1, 4, 4)).toBeNull();
  });
});
