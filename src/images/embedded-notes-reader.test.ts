import path from "node:path";
import { describe, expect, it } from "vitest";
import { jpegWithEmbeddedText, jpegWithExifRating } from "../../tests/helpers/embedded-metadata-jpeg";
import { readEmbeddedNotes } from "./embedded-notes-reader";
import { CORPUS_DIR } from "./image-test-helpers";

const NOTHING = { rating: null, label: null, title: null, caption: null, keywords: [] };

describe("readEmbeddedNotes", () => {
  it("reads xmp:Rating, not Windows' percentage beside it (50 in this file, for its 3 stars), and the title and caption", async () => {
    expect(await readEmbeddedNotes(path.join(CORPUS_DIR, "immich-test-assets/metadata/rating/mongolels.jpg"))).toEqual({
      ...NOTHING,
      rating: 3,
      title: "Mongol Els",
      caption: "Mongol Els",
    });
  });

  it("reads Picasa's IPTC keywords and its XMP description", async () => {
    expect(await readEmbeddedNotes(path.join(CORPUS_DIR, "immich-test-assets/metadata/tags/picasa.jpg"))).toEqual({
      ...NOTHING,
      caption: "Image-Description",
      keywords: ["Frost", "Yard"],
    });
  });

  it("reads XMP's title, description, subjects and Lightroom's hierarchical subjects in UTF-8, entities decoded", async () => {
    const bytes = await jpegWithEmbeddedText(1, {
      xmp: {
        title: "Café à Kyōto 京都の朝",
        description: "Tea & rain\nsecond line",
        keywords: ["Kyoto", "寺", "kyoto"],
        hierarchicalSubjects: ["Places|Japan|Gion"],
        rating: 4,
        label: "Green",
      },
    });
    expect(await readEmbeddedNotes(bytes)).toEqual({
      rating: 4,
      label: "green",
      title: "Café à Kyōto 京都の朝",
      caption: "Tea & rain\nsecond line",
      keywords: ["Kyoto", "寺", "Gion"],
    });
  });

  it("reads IPTC's Object Name, Caption-Abstract and Keywords written in UTF-8", async () => {
    const bytes = await jpegWithEmbeddedText(2, { iptc: { objectName: "Zürich, Œuvre 東京", caption: "Légende", keywords: ["Straße", "東京"] } });
    expect(await readEmbeddedNotes(bytes)).toEqual({ ...NOTHING, title: "Zürich, Œuvre 東京", caption: "Légende", keywords: ["Straße", "東京"] });
  });

  it("prefers XMP over IPTC field by field, and keeps IPTC where XMP says nothing", async () => {
    const bytes = await jpegWithEmbeddedText(3, {
      xmp: { title: "From XMP" },
      iptc: { objectName: "From IPTC", caption: "IPTC caption", keywords: ["iptc-only"] },
    });
    expect(await readEmbeddedNotes(bytes)).toEqual({ ...NOTHING, title: "From XMP", caption: "IPTC caption", keywords: ["iptc-only"] });
  });

  it("cuts a title at the editor's 200 characters without splitting a character, and drops control characters", async () => {
    const bytes = await jpegWithEmbeddedText(4, { xmp: { title: `${"界".repeat(199)}😀 tail`, description: "a\u0007b" } });
    const notes = await readEmbeddedNotes(bytes);
    expect(notes?.title).toBe("界".repeat(199));
    expect(notes?.caption).toBe("ab");
  });

  it("falls back to EXIF's Rating tag, then to Windows' RatingPercent, when there is no xmp:Rating", async () => {
    expect((await readEmbeddedNotes(await jpegWithExifRating(5, { rating: 4, ratingPercent: 1 })))?.rating).toBe(4);
    expect((await readEmbeddedNotes(await jpegWithExifRating(6, { ratingPercent: 75 })))?.rating).toBe(4);
    expect((await readEmbeddedNotes(await jpegWithExifRating(7, { ratingPercent: 99 })))?.rating).toBe(5);
    expect(await readEmbeddedNotes(await jpegWithExifRating(8, { rating: 0 }))).toBeNull();
  });

  it("takes no camera's placeholder for a caption (the corpus's Sony JPEG: \"SONY DSC\")", async () => {
    expect(await readEmbeddedNotes(path.join(CORPUS_DIR, "immich-test-assets/formats/jpg/el_torcal_rocks.jpg"))).toBeNull();
    expect((await readEmbeddedNotes(await jpegWithEmbeddedText(9, { xmp: { title: "Rocks", description: "OLYMPUS DIGITAL CAMERA" } })))?.caption).toBeNull();
  });

  it("finds nothing in a file without XMP, or in a corrupt one, and never throws", async () => {
    expect(await readEmbeddedNotes(path.join(CORPUS_DIR, "exif-samples/jpg/Canon_40D.jpg"))).toBeNull();
    expect(await readEmbeddedNotes(path.join(CORPUS_DIR, "exif-samples/jpg/corrupted.jpg"))).toBeNull();
    expect(await readEmbeddedNotes(Buffer.from("not an image"))).toBeNull();
  });
});
