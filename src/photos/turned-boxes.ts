import type { PhotoRotation } from "@/src/db/database";

/** A box in fractions (0-1) of the upright photo, as faces store theirs. */
export interface FractionBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** How far a photo turns, clockwise, going from one rotation to another. */
export function turnBetween(from: PhotoRotation, to: PhotoRotation): PhotoRotation {
  return (((to - from) % 360) + 360) % 360 as PhotoRotation;
}

/**
 * Where a box lands when its photo turns `degrees` clockwise. A point (x, y) of the photo goes to
 * (1 - y, x) at 90°, (1 - x, 1 - y) at 180° and (y, 1 - x) at 270°; the box's far corner follows,
 * so width and height swap at a quarter turn. Fractions stay fractions: the photo's new width is its
 * old height, and the box is exactly where it was on the picture.
 */
export function turnBox(box: FractionBox, degrees: PhotoRotation): FractionBox {
  const { left, top, width, height } = box;
  // 1 - 0.8 - 0.2 is -5.6e-17 in floating point: a box at the edge must not start outside the photo.
  const from = (value: number) => Math.max(0, value);
  switch (degrees) {
    case 90:
      return { left: from(1 - top - height), top: left, width: height, height: width };
    case 180:
      return { left: from(1 - left - width), top: from(1 - top - height), width, height };
    case 270:
      return { left: top, top: from(1 - left - width), width: height, height: width };
    default:
      return { left, top, width, height };
  }
}
