import { describe, expect, it } from "vitest";
import { describeCamera } from "./describe-camera";

describe("describeCamera", () => {
  it.each([
    ["Canon", "Canon EOS 40D", "Canon EOS 40D"],
    ["NIKON CORPORATION", "NIKON D70", "NIKON D70"],
    ["NIKON", "COOLPIX P6000", "NIKON COOLPIX P6000"],
    ["Apple", "iPhone 13 Pro Max", "Apple iPhone 13 Pro Max"],
    ["samsung", "SAMSUNG Digimax i50", "SAMSUNG Digimax i50"],
    [null, "Some Model", "Some Model"],
    ["Make Only", null, "Make Only"],
    [null, null, null],
  ])("%s + %s → %s", (make, model, expected) => {
    expect(describeCamera(make, model)).toBe(expected);
  });
});
