import path from "node:path";
import { describe, expect, it } from "vitest";
import { readEmbeddedNotes } from "./embedded-notes-reader";
import { CORPUS_DIR } from "./image-test-helpers";

describe("readEmbeddedNotes", () => {
  it("reads xmp:Rating, not Windows' percentage beside it (50 in this file, for its 3 stars)", async () => {
    expect(await readEmbeddedNotes(path.join(CORPUS_DIR, "immich-test-assets/metadata/rating/mongolels.jpg"))).toEqual({ rating: 3, label: null });
  });

  it("finds nothing in a file without XMP, or in a corrupt one, and never throws", async () => {
    expect(await readEmbeddedNotes(path.join(CORPUS_DIR, "exif-samples/jpg/Canon_40D.jpg"))).toBeNull();
    expect(await readEmbeddedNotes(path.join(CORPUS_DIR, "exif-samples/jpg/corrupted.jpg"))).toBeNull();
    expect(await readEmbeddedNotes(Buffer.from("not an image"))).toBeNull();
  });
});
