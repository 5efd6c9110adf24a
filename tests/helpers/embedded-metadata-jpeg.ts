// Small JPEGs carrying the metadata a photographer's tool writes into the file: XMP through sharp's
// withXmp, IPTC-IIM as Photoshop's APP13 segment spliced in after SOI (the bytes Photoshop, Bridge
// and Photo Mechanic write), so tests need no ExifTool and CI no new package.
import sharp from "sharp";

export interface EmbeddedText {
  title?: string;
  description?: string;
  /** dc:subject */
  keywords?: string[];
  /** lr:hierarchicalSubject, "Places|Japan|Kyoto" */
  hierarchicalSubjects?: string[];
  rating?: number;
  label?: string;
}

export interface IptcText {
  objectName?: string;
  caption?: string;
  keywords?: string[];
}

function escapeXml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}

/** An XMP packet as Lightroom writes one (Alt for title and description, Bag for the subjects). */
export function xmpPacket(text: EmbeddedText): string {
  const alt = (name: string, value: string | undefined) =>
    value === undefined ? "" : `<dc:${name}><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(value)}</rdf:li></rdf:Alt></dc:${name}>`;
  const bag = (name: string, values: string[] | undefined) =>
    values === undefined ? "" : `<${name}><rdf:Bag>${values.map((value) => `<rdf:li>${escapeXml(value)}</rdf:li>`).join("")}</rdf:Bag></${name}>`;
  const attributes = [
    text.rating === undefined ? "" : ` xmp:Rating="${text.rating}"`,
    text.label === undefined ? "" : ` xmp:Label="${escapeXml(text.label)}"`,
  ].join("");
  return (
    `<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">` +
    `<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:lr="http://ns.adobe.com/lightroom/1.0/"${attributes}>` +
    `${alt("title", text.title)}${alt("description", text.description)}${bag("dc:subject", text.keywords)}${bag("lr:hierarchicalSubject", text.hierarchicalSubjects)}` +
    `</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`
  );
}

/** Photoshop's APP13 segment holding one IPTC-IIM resource (8BIM 0x0404), UTF-8 declared in 1:90. */
export function iptcSegment(text: IptcText): Buffer {
  const dataset = (record: number, number: number, value: Buffer) => {
    const head = Buffer.from([0x1c, record, number, 0, 0]);
    head.writeUInt16BE(value.length, 3);
    return Buffer.concat([head, value]);
  };
  const datasets = [
    dataset(1, 90, Buffer.from("\u001b%G", "latin1")),
    ...(text.objectName === undefined ? [] : [dataset(2, 5, Buffer.from(text.objectName, "utf8"))]),
    ...(text.keywords ?? []).map((keyword) => dataset(2, 25, Buffer.from(keyword, "utf8"))),
    ...(text.caption === undefined ? [] : [dataset(2, 120, Buffer.from(text.caption, "utf8"))]),
  ];
  let iptc = Buffer.concat(datasets);
  const size = Buffer.alloc(4);
  size.writeUInt32BE(iptc.length);
  if (iptc.length % 2 === 1) iptc = Buffer.concat([iptc, Buffer.from([0])]);
  // "8BIM", resource 0x0404, an empty name (a Pascal string padded to even length), the size, the data.
  const resource = Buffer.concat([Buffer.from("8BIM", "latin1"), Buffer.from([0x04, 0x04, 0, 0]), size, iptc]);
  const payload = Buffer.concat([Buffer.from("Photoshop 3.0\0", "latin1"), resource]);
  const marker = Buffer.from([0xff, 0xed, 0, 0]);
  marker.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([marker, payload]);
}

/** A small JPEG of its own pixels (`seed` keeps two files apart), with XMP and/or IPTC as asked. */
export async function jpegWithEmbeddedText(seed: number, options: { xmp?: EmbeddedText; iptc?: IptcText }): Promise<Uint8Array<ArrayBuffer>> {
  let image = sharp({ create: { width: 48, height: 32, channels: 3, background: { r: seed % 256, g: 90, b: 140 }, noise: { type: "gaussian", mean: 100, sigma: 30 } } }).jpeg();
  if (options.xmp) image = image.withXmp(xmpPacket(options.xmp));
  let bytes = await image.toBuffer();
  if (options.iptc) bytes = Buffer.concat([bytes.subarray(0, 2), iptcSegment(options.iptc), bytes.subarray(2)]);
  return new Uint8Array(bytes);
}

/**
 * A small JPEG whose only EXIF is IFD0's Rating (0x4746) and/or RatingPercent (0x4749), as Windows
 * writes them (libvips keeps neither, so the APP1 segment is written here: a little-endian TIFF
 * with one IFD of SHORT entries).
 */
export async function jpegWithExifRating(seed: number, tags: { rating?: number; ratingPercent?: number }): Promise<Uint8Array<ArrayBuffer>> {
  const entries = [
    ...(tags.rating === undefined ? [] : [[0x4746, tags.rating]]),
    ...(tags.ratingPercent === undefined ? [] : [[0x4749, tags.ratingPercent]]),
  ];
  const tiff = Buffer.alloc(8 + 2 + entries.length * 12 + 4);
  tiff.write("II*\0", 0, "latin1");
  tiff.writeUInt32LE(8, 4);
  tiff.writeUInt16LE(entries.length, 8);
  entries.forEach(([tag, value], index) => {
    const at = 10 + index * 12;
    tiff.writeUInt16LE(tag, at);
    tiff.writeUInt16LE(3, at + 2); // SHORT
    tiff.writeUInt32LE(1, at + 4);
    tiff.writeUInt16LE(value, at + 8);
  });
  const payload = Buffer.concat([Buffer.from("Exif\0\0", "latin1"), tiff]);
  const marker = Buffer.from([0xff, 0xe1, 0, 0]);
  marker.writeUInt16BE(payload.length + 2, 2);
  const bytes = await sharp({ create: { width: 16, height: 16, channels: 3, background: { r: seed % 256, g: 60, b: 60 } } }).jpeg().toBuffer();
  return new Uint8Array(Buffer.concat([bytes.subarray(0, 2), marker, payload, bytes.subarray(2)]));
}
