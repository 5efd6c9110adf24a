import path from "node:path";
import sharp, { type Sharp } from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import {
  corpusPath,
  listFiles,
  meanAbsoluteDifference,
  processToVisible,
  renderGreyThumbnail,
} from "./image-test-helpers";

/**
 * Upright means: the smallest variant shows the same picture as the `_1` file (EXIF orientation 1,
 * stored upright). Both are reduced to 32 × 32 grey so that JPEG noise and the variants' different
 * sizes do not count. The threshold of 12 (of 255) sits between the two measured populations on
 * these 34 files: correctly oriented outputs differ from their reference by at most 1.12, while
 * the closest wrong orientation (a mirror of these fairly symmetric test pictures) differs by at
 * least 28.9.
 */
const UPRIGHT_THRESHOLD = 12;

// The seven ways of getting it wrong, applied to the reference: mirror, turn, or both.
const WRONG_ORIENTATIONS: { name: string; apply: (image: Sharp) => Sharp }[] = [
  { name: "mirrored", apply: (image) => image.flop() },
  { name: "turned 180°", apply: (image) => image.rotate(180) },
  { name: "upside down", apply: (image) => image.flip() },
  { name: "turned 90°", apply: (image) => image.rotate(90) },
  { name: "turned 270°", apply: (image) => image.rotate(270) },
  { name: "transposed", apply: (image) => image.rotate(90).flop() },
  { name: "transversed", apply: (image) => image.rotate(270).flop() },
];

const sets = [
  // Landscape_0 … Landscape_8 and Portrait_0 … Portrait_8; 0 is an invalid value that means "as stored".
  { directory: corpusPath("orientation"), reference: (name: string) => name.replace(/_\d\.jpg$/, "_1.jpg") },
  { directory: corpusPath("exif-samples/jpg/orientation"), reference: (name: string) => name.replace(/_\d\.jpg$/, "_1.jpg") },
];
const cases = sets.flatMap(({ directory, reference }) =>
  listFiles(directory)
    .filter((file) => file.endsWith(".jpg"))
    .map((file) => ({ file, reference: path.join(directory, reference(path.basename(file))) })),
);
const measured = { worstUpright: 0, closestWrong: Number.POSITIVE_INFINITY };

describe("photos come out upright whatever their EXIF orientation", () => {
  it("covers the 18 + 16 orientation files", () => {
    expect(cases).toHaveLength(34);
  });

  it.each(cases.map(({ file, reference }) => [path.relative(corpusPath(), file), file, reference]))(
    "%s",
    async (_name, file, reference) => {
      const { variants: [output] } = await processToVisible(file);
      const { variants: [referenceOutput] } = await processToVisible(reference);
      expect(output.width / output.height).toBeCloseTo(referenceOutput.width / referenceOutput.height, 2);

      const outputThumbnail = await renderGreyThumbnail(output.bytes);
      const difference = meanAbsoluteDifference(outputThumbnail, await renderGreyThumbnail(referenceOutput.bytes));
      expect(difference).toBeLessThan(UPRIGHT_THRESHOLD);
      measured.worstUpright = Math.max(measured.worstUpright, difference);

      // The threshold must be able to fail: every wrong orientation of the reference is far above it.
      for (const wrong of WRONG_ORIENTATIONS) {
        const wrongBytes = await wrong.apply(sharp(referenceOutput.bytes)).toBuffer();
        const wrongDifference = meanAbsoluteDifference(outputThumbnail, await renderGreyThumbnail(wrongBytes));
        expect(wrongDifference, wrong.name).toBeGreaterThan(UPRIGHT_THRESHOLD);
        measured.closestWrong = Math.min(measured.closestWrong, wrongDifference);
      }
    },
    30_000,
  );
});

afterAll(() => {
  console.log(
    `Orientation: largest difference when upright ${measured.worstUpright.toFixed(2)}, ` +
      `smallest difference for a wrong orientation ${measured.closestWrong.toFixed(2)} (threshold ${UPRIGHT_THRESHOLD}).`,
  );
});
