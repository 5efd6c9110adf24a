import type { ExportPhoto } from "@/src/export/export-api.schemas";

// The XMP sidecar written beside each exported original (`IMG_1.jpg.xmp`, the name darktable and
// digiKam look for and Lightroom reads when told to), with what those programs show: title and
// caption (dc:title, dc:description as x-default Alt), tags (dc:subject Bag), stars (xmp:Rating),
// colour label (xmp:Label, Lightroom's English names), date taken (photoshop:DateCreated) and the
// GPS position (exif:GPSLatitude/Longitude, XMP's "DDD,MM.mmmmmmk"). The export reaches only photos
// its token may download the original of, so their coordinates are the reader's to have.
//
// All text is written as element content escaped here (& < > and quotes), after dropping what XML
// 1.0 cannot carry at all (control characters but tab and line breaks, lone surrogates, U+FFFE/F):
// a caption such as `]]></x:xmpmeta>` stays a caption. No CDATA, so there is no section to close.

/** What XML 1.0 allows in a document: Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]. */
const NOT_XML_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function escapeXmlText(text: string): string {
  return text
    .replace(NOT_XML_CHARACTER, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** Lightroom's default label set: what xmp:Label holds for each colour. */
const LABEL_NAMES = { red: "Red", yellow: "Yellow", green: "Green", blue: "Blue", purple: "Purple" } as const;

/** XMP's GPSCoordinate for decimal degrees: "48,51.396000N". */
export function xmpCoordinateOf(value: number, hemispheres: "NS" | "EW"): string {
  const absolute = Math.abs(value);
  const degrees = Math.floor(absolute);
  const minutes = (absolute - degrees) * 60;
  const hemisphere = value < 0 ? hemispheres[1] : hemispheres[0];
  return `${degrees},${minutes.toFixed(6)}${hemisphere}`;
}

/** A stored date taken (`2019-05-03T14:32`, `…:05+02:00`) as XMP's date: seconds always, the offset when known. */
export function xmpDateOf(takenAt: string): string {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(:\d{2})?(?:\.\d+)?(Z|[+-]\d{2}:\d{2})?$/.exec(takenAt);
  if (!match) return takenAt;
  return `${match[1]}${match[2] ?? ":00"}${match[3] ?? ""}`;
}

function alt(tag: string, text: string): string {
  return `   <${tag}>\n    <rdf:Alt>\n     <rdf:li xml:lang="x-default">${escapeXmlText(text)}</rdf:li>\n    </rdf:Alt>\n   </${tag}>\n`;
}

export function xmpSidecarFor(photo: Pick<ExportPhoto, "title" | "caption" | "tags" | "rating" | "label" | "takenAt" | "location">): string {
  let body = "";
  if (photo.title) body += alt("dc:title", photo.title);
  if (photo.caption) body += alt("dc:description", photo.caption);
  if (photo.tags.length > 0) {
    body += `   <dc:subject>\n    <rdf:Bag>\n${photo.tags.map((tag) => `     <rdf:li>${escapeXmlText(tag)}</rdf:li>\n`).join("")}    </rdf:Bag>\n   </dc:subject>\n`;
  }
  if (photo.rating > 0) body += `   <xmp:Rating>${photo.rating}</xmp:Rating>\n`;
  if (photo.label) body += `   <xmp:Label>${LABEL_NAMES[photo.label]}</xmp:Label>\n`;
  if (photo.takenAt) body += `   <photoshop:DateCreated>${escapeXmlText(xmpDateOf(photo.takenAt))}</photoshop:DateCreated>\n`;
  if (photo.location) {
    body += `   <exif:GPSVersionID>2.2.0.0</exif:GPSVersionID>\n`;
    body += `   <exif:GPSLatitude>${xmpCoordinateOf(photo.location.latitude, "NS")}</exif:GPSLatitude>\n`;
    body += `   <exif:GPSLongitude>${xmpCoordinateOf(photo.location.longitude, "EW")}</exif:GPSLongitude>\n`;
  }
  return (
    `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>\n` +
    `<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Contact Sheet">\n` +
    ` <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n` +
    `  <rdf:Description rdf:about=""\n` +
    `    xmlns:dc="http://purl.org/dc/elements/1.1/"\n` +
    `    xmlns:xmp="http://ns.adobe.com/xap/1.0/"\n` +
    `    xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"\n` +
    `    xmlns:exif="http://ns.adobe.com/exif/1.0/">\n` +
    body +
    `  </rdf:Description>\n` +
    ` </rdf:RDF>\n` +
    `</x:xmpmeta>\n` +
    `<?xpacket end="w"?>\n`
  );
}
