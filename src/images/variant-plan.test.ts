import { describe, expect, it } from "vitest";
import { planVariantWidths, VARIANT_WIDTHS } from "./variant-plan";

describe("planVariantWidths", () => {
  it.each([
    [6000, [400, 800, 1200, 1600, 2400, 3200]],
    [3300, [400, 800, 1200, 1600, 2400, 3200]],
    [3200, [400, 800, 1200, 1600, 2400, 3200]],
    [3024, [400, 800, 1200, 1600, 2400, 3024]],
    [2566, [400, 800, 1200, 1600, 2400]],
    [1000, [400, 800, 1000]],
    [820, [400, 800]],
    [640, [400, 640]],
    [450, [400]],
    [400, [400]],
    [300, [300]],
    [1, [1]],
  ])("a %i px wide photo gets %j", (originalWidth, expected) => {
    expect(planVariantWidths(originalWidth)).toEqual(expected);
  });

  it("never upscales, always gives at least one width, smallest first", () => {
    for (let originalWidth = 1; originalWidth <= 4000; originalWidth += 7) {
      const widths = planVariantWidths(originalWidth);
      expect(widths.length).toBeGreaterThan(0);
      expect(Math.max(...widths)).toBeLessThanOrEqual(originalWidth);
      expect([...widths].sort((left, right) => left - right)).toEqual(widths);
      expect(widths.length).toBeLessThanOrEqual(VARIANT_WIDTHS.length + 1);
    }
  });
});
