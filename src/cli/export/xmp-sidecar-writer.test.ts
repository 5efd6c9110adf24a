import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { readXmpSidecar } from "@/src/import/xmp-sidecar-reader";
import { escapeXmlText, xmpSidecarFor } from "./xmp-sidecar-writer";

const PHOTO = {
  title: "Harbour & boats <at dawn>",
  caption: "Closing the packet: ]]></x:xmpmeta><x:xmpmeta> & \"quotes\" 'too'\nsecond line",
  tags: ["Sea & sky", "</rdf:li>", "Ünïcode"],
  rating: 4,
  label: "purple" as const,
  takenAt: "2019-05-03T14:32+02:00",
  location: { latitude: -33.856784, longitude: 151.215297, altitude: null },
};

describe("the XMP sidecar an export writes", () => {
  it("reads back with the importer's reader exactly, whatever the text holds", () => {
    const bytes = new TextEncoder().encode(xmpSidecarFor(PHOTO));
    const { value, warnings } = readXmpSidecar(bytes, "a.jpg.xmp");
    expect(warnings).toEqual([]);
    expect(value).toEqual({
      title: PHOTO.title,
      description: PHOTO.caption,
      tags: PHOTO.tags,
      rating: 4,
      label: "purple",
      takenAt: "2019-05-03T14:32:00+02:00",
      location: { latitude: expect.closeTo(PHOTO.location.latitude, 6), longitude: expect.closeTo(PHOTO.location.longitude, 6) },
    });
  });

  it("keeps a caption that closes the packet inside one text node: one xmpmeta, one Description", () => {
    const text = xmpSidecarFor(PHOTO);
    expect(text.match(/<\/x:xmpmeta>/g)).toHaveLength(1);
    expect(text).not.toContain("]]>");
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(text) as Record<string, Record<string, Record<string, Record<string, unknown>>>>;
    const description = parsed["x:xmpmeta"]["rdf:RDF"]["rdf:Description"];
    expect(Object.keys(description).filter((key) => !key.startsWith("@_"))).toEqual(["dc:title", "dc:description", "dc:subject", "xmp:Rating", "xmp:Label", "photoshop:DateCreated", "exif:GPSVersionID", "exif:GPSLatitude", "exif:GPSLongitude"]);
  });

  it("drops what XML 1.0 cannot carry and escapes markup", () => {
    expect(escapeXmlText("a\u0000b\u0007c\uFFFEd\tline\n& <x>")).toBe("abcd\tline\n&amp; &lt;x&gt;");
  });

  it("writes no element for what a photo does not have", () => {
    const text = xmpSidecarFor({ title: "", caption: "", tags: [], rating: 0, label: null, takenAt: null, location: null });
    expect(readXmpSidecar(new TextEncoder().encode(text), "b.xmp").value).toEqual({});
    expect(text).not.toContain("dc:title");
  });
});
