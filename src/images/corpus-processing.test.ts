import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { AppError } from "@/src/errors/app-error";
import { CORPUS_DIR, listFiles, processToVisible } from "./image-test-helpers";

// Every file of the shared corpus, whatever it is: real camera files, broken EXIF, TIFF, HEIC, and
// the READMEs, licence and sidecars that sit next to them.
const files = listFiles(CORPUS_DIR);
const outcomes = { processed: 0, refused415: 0, refused422: 0 };
const refused: string[] = [];
// The corpus's READMEs and licence, XMP sidecars (read beside their photo, never uploaded alone)
// and JPEG XL, which no browser-ready pipeline of ours decodes yet.
const NOT_A_PHOTO_WE_READ = /(^|\/)(README\.md|LICENSE)$|\.(xmp|jxl)$/i;

describe("every corpus file is processed or refused with 415/422, never another error", () => {
  it("finds the whole corpus", () => {
    expect(files.length).toBeGreaterThanOrEqual(120);
  });

  it.each(files.map((file) => [path.relative(CORPUS_DIR, file), file]))(
    "%s",
    async (_name, file) => {
      let result: Awaited<ReturnType<typeof processToVisible>>;
      try {
        result = await processToVisible(file);
      } catch (error) {
        // Anything but an AppError with one of these two statuses fails the test here.
        expect(error).toBeInstanceOf(AppError);
        const { status, message } = error as AppError;
        expect([415, 422]).toContain(status);
        if (status === 415) outcomes.refused415 += 1;
        else outcomes.refused422 += 1;
        refused.push(`${status} ${path.relative(CORPUS_DIR, file)}: ${message}`);
        return;
      }
      const { decoded, variants } = result;
      expect(variants.map((variant) => variant.format)).toEqual(["jpeg", "webp"]);
      for (const variant of variants) {
        expect(variant.width).toBeLessThanOrEqual(decoded.width);
        const metadata = await sharp(variant.bytes).metadata();
        expect([metadata.format, metadata.width, metadata.height]).toEqual([variant.format, variant.width, variant.height]);
      }
      outcomes.processed += 1;
    },
    60_000,
  );

  it("refuses only what is not a photo we read (415) and the truncated JPEG (422)", () => {
    const expected = files
      .map((file) => path.relative(CORPUS_DIR, file))
      .flatMap((name) => {
        if (name === "exif-samples/jpg/corrupted.jpg") return [`422 ${name}: The image could not be decoded: the file is truncated or corrupt.`];
        return NOT_A_PHOTO_WE_READ.test(name) ? [`415 ${name}: This file is not a supported image. Upload JPEG, PNG, WebP, AVIF, HEIC/HEIF, TIFF or GIF.`] : [];
      });
    expect(expected.length).toBeGreaterThanOrEqual(3);
    expect(refused.sort()).toEqual(expected.sort());
  });
});

afterAll(() => {
  console.log(
    `Corpus: ${files.length} files, ${outcomes.processed} processed, ` +
      `${outcomes.refused415} refused 415, ${outcomes.refused422} refused 422.\n  ${refused.join("\n  ")}`,
  );
});
