import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { type EmbeddedText, jpegWithEmbeddedText, jpegWithExifRating, xmpPacket } from "../../tests/helpers/embedded-metadata-jpeg";
import { readEmbeddedNotes, XMP_PACKET_MAXIMUM_BYTES } from "./embedded-notes-reader";
import { CORPUS_DIR } from "./image-test-helpers";

/** A small WebP, AVIF or PNG carrying `xmp` as its XMP packet, written by sharp (libvips). */
async function imageWithXmp(format: "webp" | "avif" | "png", xmp: string): Promise<Buffer> {
  const image = sharp({ create: { width: 16, height: 12, channels: 3, background: { r: 40, g: 90, b: 140 } } });
  return (format === "webp" ? image.webp() : format === "avif" ? image.avif() : image.png()).withXmp(xmp).toBuffer();
}

/**
 * A real HEIC (HEVC, from the corpus: libheif writes no HEVC here) whose XMP packet is replaced in
 * place by one saying `text`, padded with spaces to the packet's length so every box stays valid.
 */
function heicWithXmp(text: EmbeddedText): Buffer {
  const heic = readFileSync(path.join(CORPUS_DIR, "exif-samples/heic/samplefilehub.heif"));
  const start = heic.indexOf("<x:xmpmeta");
  const end = heic.indexOf("<?xpacket end", start);
  const ours = /<x:xmpmeta[\s\S]*<\/x:xmpmeta>/.exec(xmpPacket(text))![0];
  const room = end - start;
  expect(Buffer.byteLength(ours)).toBeLessThan(room);
  return Buffer.concat([heic.subarray(0, start), Buffer.from(ours.padEnd(room - (Buffer.byteLength(ours) - ours.length), " ")), heic.subarray(end)]);
}

/** How long reading took, in ms, and what it gave. */
async function timed(input: Uint8Array): Promise<[number, Awaited<ReturnType<typeof readEmbeddedNotes>>]> {
  const started = performance.now();
  const notes = await readEmbeddedNotes(input);
  return [performance.now() - started, notes];
}

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

  it("reads XMP's title, caption, keywords, rating and label from WebP, AVIF and PNG, which exifr alone finds none in", async () => {
    const text: EmbeddedText = { title: "Café à Kyōto", description: "Rain\nat dawn", keywords: ["Kyoto", "寺"], hierarchicalSubjects: ["Places|Japan|Gion"], rating: 4, label: "Red" };
    const expected = { rating: 4, label: "red", title: "Café à Kyōto", caption: "Rain\nat dawn", keywords: ["Kyoto", "寺", "Gion"] };
    expect(await readEmbeddedNotes(await imageWithXmp("webp", xmpPacket(text)))).toEqual(expected);
    expect(await readEmbeddedNotes(await imageWithXmp("avif", xmpPacket(text)))).toEqual(expected);
    expect(await readEmbeddedNotes(await imageWithXmp("png", xmpPacket(text)))).toEqual(expected);
  });

  it("reads them from a HEIC's XMP item, from its path as processing does, and finds nothing in the corpus iPhone HEIC's (dates and the tool only)", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "cs-notes-"));
    try {
      const file = path.join(folder, "phone.heic");
      writeFileSync(file, heicWithXmp({ title: "Nokia's HEIC", keywords: ["Phone", "Test"], rating: 2 }));
      expect(await readEmbeddedNotes(file)).toEqual({ ...NOTHING, rating: 2, title: "Nokia's HEIC", keywords: ["Phone", "Test"] });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    expect(await readEmbeddedNotes(path.join(CORPUS_DIR, "exif-samples/heic/IMG_5195.HEIC"))).toBeNull();
  });

  it("cleans control characters out of XMP in a WebP, and reads nothing from a malformed packet", async () => {
    const controlled = xmpPacket({ title: "Tab\tbell\u0007 nul\u0000 end", keywords: ["Esc\u001bape", "\u0008"] });
    expect(await readEmbeddedNotes(await imageWithXmp("webp", controlled))).toEqual({ ...NOTHING, title: "Tab bell nul end", keywords: ["Escape"] });
    const cut = xmpPacket({ title: "Cut short", keywords: ["a"] });
    expect(await readEmbeddedNotes(await imageWithXmp("webp", cut.slice(0, cut.indexOf("<dc:title>") + 12)))).toBeNull();
    expect(await readEmbeddedNotes(await imageWithXmp("avif", "<x:xmpmeta><rdf:li>"))).toBeNull();
  });

  it("refuses XMP that declares entities (billion laughs): nothing expanded, nothing read", async () => {
    const entities = Array.from({ length: 9 }, (_, level) => `<!ENTITY lol${level + 1} "${`&lol${level};`.repeat(10)}">`).join("");
    const laughs = `<?xml version="1.0"?><!DOCTYPE x:xmpmeta [<!ENTITY lol0 "lol">${entities}]>${xmpPacket({ title: "LAUGH", keywords: ["kept?"] }).replace("LAUGH", "&lol9;")}`;
    const [ms, notes] = await timed(await imageWithXmp("webp", laughs));
    expect(notes).toBeNull();
    expect(ms).toBeLessThan(5000);
  });

  it("reads no XMP packet longer than a JPEG's, huge or built to make the parser crawl, and stays quick", async () => {
    // 10 MB of keywords, and a list left open 2 MB long (exifr's parser takes minutes on it): neither is parsed.
    const huge = xmpPacket({ title: "Huge", keywords: Array.from({ length: 400_000 }, (_, index) => `keyword ${index}`) });
    const crawling = xmpPacket({ title: "Crawl" }).replace("</rdf:Description>", `<dc:subject><rdf:Bag>${"<rdf:li>x".repeat(230_000)}</rdf:Description>`);
    for (const [format, xmp] of [["webp", huge], ["avif", crawling], ["png", crawling]] as const) {
      const [ms, notes] = await timed(await imageWithXmp(format, xmp));
      expect(notes, format).toBeNull();
      expect(ms, format).toBeLessThan(5000);
    }
    // Just under the limit the same shape is read, in a bounded time.
    const nearLimit = xmpPacket({ title: "Near" }).replace("</rdf:Description>", `<dc:subject><rdf:Bag>${"<rdf:li>x".repeat(7000)}</rdf:Description>`);
    expect(Buffer.byteLength(nearLimit)).toBeLessThan(XMP_PACKET_MAXIMUM_BYTES);
    const [ms, notes] = await timed(await imageWithXmp("webp", nearLimit));
    expect(notes?.title).toBe("Near");
    expect(ms).toBeLessThan(5000);
  });

  it("finds nothing in a file without XMP, or in a corrupt one, and never throws", async () => {
    expect(await readEmbeddedNotes(path.join(CORPUS_DIR, "exif-samples/jpg/Canon_40D.jpg"))).toBeNull();
    expect(await readEmbeddedNotes(path.join(CORPUS_DIR, "exif-samples/jpg/corrupted.jpg"))).toBeNull();
    expect(await readEmbeddedNotes(Buffer.from("not an image"))).toBeNull();
  });
});
