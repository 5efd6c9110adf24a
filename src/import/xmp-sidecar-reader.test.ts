import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ImportReadError } from "./import-read-error";
import { SIDECAR_MAX_BYTES } from "./sidecar-text";
import { readXmpSidecar, xmpCoordinate, xmpDateToTakenAt } from "./xmp-sidecar-reader";

const CORPUS = path.resolve(__dirname, "../../../shared/corpus/immich-test-assets");
const corpusFile = (name: string) => new Uint8Array(fs.readFileSync(path.join(CORPUS, name)));
const utf8 = (text: string) => new TextEncoder().encode(text);

const LIGHTROOM = `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:exif="http://ns.adobe.com/exif/1.0/"
    xmlns:tiff="http://ns.adobe.com/tiff/1.0/"
    xmlns:lr="http://ns.adobe.com/lightroom/1.0/"
    xmlns:d="http://purl.org/dc/elements/1.1/"
   xmp:Rating="4"
   xmp:Label="Purple"
   exif:DateTimeOriginal="2019-05-03T14:32:10.35+02:00"
   exif:GPSLatitude="41,24.5N"
   exif:GPSLongitude="2,10,12W"
   tiff:Orientation="6">
   <d:title><rdf:Alt><rdf:li xml:lang="fr">Le pont</rdf:li><rdf:li xml:lang="x-default">The bridge &amp; the river</rdf:li></rdf:Alt></d:title>
   <d:description><rdf:Alt><rdf:li xml:lang="x-default">Evening light</rdf:li></rdf:Alt></d:description>
   <d:subject><rdf:Bag><rdf:li>bridge</rdf:li><rdf:li>Rome</rdf:li></rdf:Bag></d:subject>
   <lr:hierarchicalSubject><rdf:Bag><rdf:li>Places|Italy|Rome</rdf:li><rdf:li>Subjects|River</rdf:li></rdf:Bag></lr:hierarchicalSubject>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;

describe("readXmpSidecar", () => {
  it("reads Lightroom's fields, by namespace and not by prefix", () => {
    const { value, warnings } = readXmpSidecar(utf8(LIGHTROOM), "a.xmp");
    expect(value).toEqual({
      title: "The bridge & the river",
      description: "Evening light",
      tags: ["bridge", "Rome", "River"],
      rating: 4,
      label: "purple",
      takenAt: "2019-05-03T14:32:10+02:00",
      location: { latitude: 41 + 24.5 / 60, longitude: -(2 + 10 / 60 + 12 / 3600) },
      orientation: 6,
    });
    expect(warnings).toEqual([]);
  });

  it("reads the corpus's UTF-16 Lightroom sidecars (xmp:CreateDate is the last date it falls back to)", () => {
    expect(readXmpSidecar(corpusFile("metadata/xmp/dates/2000.xmp"), "2000.xmp").value).toEqual({ takenAt: "2000-09-27T14:35:33+02:00" });
    expect(readXmpSidecar(corpusFile("metadata/xmp/dates/2020.xmp"), "2020.xmp").value).toEqual({ takenAt: "2020-09-27T14:35:33+02:00" });
  });

  it("reads the corpus's exiv2 sidecar: GPS in XMP's form, photoshop:DateCreated, a blank caption left out", () => {
    const { value } = readXmpSidecar(corpusFile("problems/xmp/iso-value-array/iso-value-array.xmp"), "iso-value-array.xmp");
    expect(value.takenAt).toBe("2009-11-28T13:42:39");
    expect(value.location?.latitude).toBeCloseTo(40.234644, 5);
    expect(value.location?.longitude).toBeCloseTo(-76.287141, 5);
    expect(value.orientation).toBe(1);
    expect(value.description).toBeUndefined();
  });

  it("leaves out a rejected (-1) rating silently, and an unknown label or impossible values with a warning", () => {
    const xmp = (attributes: string) =>
      utf8(`<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:tiff="http://ns.adobe.com/tiff/1.0/" xmlns:exif="http://ns.adobe.com/exif/1.0/" ${attributes}/></rdf:RDF></x:xmpmeta>`);
    expect(readXmpSidecar(xmp(`xmp:Rating="-1"`), "r.xmp")).toEqual({ value: {}, warnings: [] });
    expect(readXmpSidecar(xmp(`xmp:Rating="0" xmp:Label="Rot"`), "r.xmp").value).toEqual({ rating: 0, label: "red" });
    const odd = readXmpSidecar(xmp(`xmp:Rating="7" xmp:Label="To Do" tiff:Orientation="9" exif:DateTimeOriginal="2019-02-31T10:00:00" exif:GPSLatitude="95,0N" exif:GPSLongitude="2,0E"`), "odd.xmp");
    expect(odd.value).toEqual({});
    expect(odd.warnings).toHaveLength(5);
    expect(odd.warnings.every((warning) => warning.startsWith("odd.xmp: "))).toBe(true);
  });

  it("refuses hostile XML, naming the file", () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><x:xmpmeta xmlns:x="adobe:ns:meta/">&lol2;</x:xmpmeta>`;
    const external = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><x>&xxe;</x>`;
    for (const [name, bytes] of [
      ["laughs.xmp", utf8(laughs)],
      ["xxe.xmp", utf8(external)],
      ["broken.xmp", utf8("<x:xmpmeta><rdf:RDF></x:xmpmeta>")],
      ["latin1.xmp", new Uint8Array([...utf8("<x>caf"), 0xe9, ...utf8("</x>")])],
      ["huge.xmp", new Uint8Array(SIDECAR_MAX_BYTES + 1)],
    ] as const) {
      expect(() => readXmpSidecar(bytes, name)).toThrow(ImportReadError);
      expect(() => readXmpSidecar(bytes, name)).toThrow(new RegExp(`^${name.replace(".", "\\.")}: `));
    }
  });
});

describe("XMP values", () => {
  it("turns XMP dates into the stored form", () => {
    expect(xmpDateToTakenAt("2009-11-28T13:42:39")).toBe("2009-11-28T13:42:39");
    expect(xmpDateToTakenAt("2009-11-28T13:42Z")).toBe("2009-11-28T13:42:00+00:00");
    expect(xmpDateToTakenAt("2009-11-28")).toBe("2009-11-28T00:00:00");
    expect(xmpDateToTakenAt("2009")).toBeNull();
    expect(xmpDateToTakenAt("1700-01-01T00:00:00")).toBeNull();
  });

  it("reads coordinates only in their own hemispheres and range", () => {
    expect(xmpCoordinate("41,24.5N", "NS", 90)).toBeCloseTo(41.408333, 5);
    expect(xmpCoordinate("0,30S", "NS", 90)).toBe(-0.5);
    expect(xmpCoordinate("41,24.5E", "NS", 90)).toBeNull();
    expect(xmpCoordinate("181,0E", "EW", 180)).toBeNull();
    expect(xmpCoordinate("41.5", "NS", 90)).toBeNull();
  });
});
