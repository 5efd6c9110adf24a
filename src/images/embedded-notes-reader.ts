import { open } from "node:fs/promises";
import exifr from "exifr";
import { isStorableText, withoutControlCharacters } from "@/src/validation/text-characters";
import { readAscii, startsWith } from "./file-head";
import { configureSharp, getHeaderInputOptions } from "./sharp-setup";

// What the photographer wrote into the file itself, as Lightroom, Bridge, digiKam, darktable,
// Picasa and Photo Mechanic write it: the title, the caption and the keywords (XMP's dc:title,
// dc:description, dc:subject and Lightroom's lr:hierarchicalSubject; IPTC-IIM's Object Name 2:05,
// Caption-Abstract 2:120 and Keywords 2:25), the star rating (xmp:Rating, else EXIF's Rating
// 0x4746 or RatingPercent 0x4749) and the colour label (xmp:Label). The one reader of them: an
// upload's processing reads them here, and so does every file `contact-sheet import` sends (it
// uploads the file; its sidecars are applied over the top through the editor's API). They are
// defaults: the owner's own values, and a sidecar's, always win over them (src/photos keeps that
// rule in its UPDATEs).
//
// XMP comes before IPTC: writers that keep both in step write XMP first, and IPTC-IIM has no
// reliable charset (exifr hands its values over byte for byte as Latin-1; they are decoded again as
// UTF-8 when they are valid UTF-8, which is what every current writer uses). Namespaces are kept
// apart: merged, exifr lets Windows' MicrosoftPhoto:Rating (a percentage, 50 for three stars)
// overwrite xmp:Rating.
//
// Where the XMP is found: in a JPEG, exifr reads its APP1 packet itself (at most 64 KiB, the
// segment's size). exifr finds no XMP in WebP, AVIF or HEIC (nor EXIF in WebP), and loops for ever on
// an ISO-BMFF box of length 0 before the `meta` box; so for every other format libvips reads the
// container (and refuses a broken one), hands over its XMP packet, and exifr parses only that packet.
// The packet is bounded like a JPEG's, because exifr's XMP parser takes time in the square of an
// unclosed list's length (measured: 110 ms at 62 KiB, 6 s at 450 KiB): a longer one is not read at
// all, nor one that declares a DOCTYPE or entities (XMP has no use for them; billion laughs do).

export interface EmbeddedNotes {
  /** 1–5 stars; 0 (none) and -1 (Lightroom's "rejected") are no rating. */
  rating: number | null;
  /** The label as written, lower-cased ("red" for Lightroom's "Red"); the caller keeps only its known labels. */
  label: string | null;
  /** One line, at most the editor's 200 characters. */
  title: string | null;
  /** Line breaks kept, at most the editor's 5000 characters. */
  caption: string | null;
  /** As written, trimmed, one per spelling; src/tags cleans and folds them as it does every tag name. */
  keywords: string[];
}

/** The photo editor's limits (src/photos/photos.schemas.ts): the file's text never holds more than the owner could type. */
const TITLE_MAXIMUM = 200;
const CAPTION_MAXIMUM = 5000;
/** A photo holds at most 50 tags; a file that lists thousands of keywords is not read past this. */
const KEYWORDS_MAXIMUM = 50;

const NOTES_ONLY = {
  // IFD0 for EXIF's rating only; the EXIF sub-IFD, GPS and maker notes are read elsewhere or not at all.
  tiff: true,
  exif: false,
  gps: false,
  ifd1: false,
  interop: false,
  makerNote: false,
  userComment: false,
  xmp: true,
  iptc: true,
  icc: false,
  jfif: false,
  ihdr: false,
  // One packet: the extended XMP segments of a JPEG hold no title or rating and may be large.
  multiSegment: false,
  mergeOutput: false,
  reviveValues: false,
  translateValues: false,
};

/** How a JPEG's APP1 segment names the XMP it carries. */
const XMP_APP1_NAME = Buffer.from("http://ns.adobe.com/xap/1.0/\0", "latin1");
/** The longest XMP packet one APP1 segment holds (its length field counts itself): the bound on a packet read. */
export const XMP_PACKET_MAXIMUM_BYTES = 0xffff - 2 - XMP_APP1_NAME.length;

/** The bytes a file's container is told by: RIFF/WEBP and ISO-BMFF's ftyp fit in 12. */
const HEAD_BYTES = 12;

type Block = Record<string, unknown>;

/** The file's own notes, or null when it has none (or no readable XMP, IPTC or EXIF). Never throws. */
export async function readEmbeddedNotes(input: string | Uint8Array): Promise<EmbeddedNotes | null> {
  let parsed: Block;
  try {
    parsed = await parseNotes(input, await headOf(input));
  } catch {
    return null;
  }
  const xmp = block(parsed.xmp);
  const dc = block(parsed.dc);
  const iptc = block(parsed.iptc);
  const notes: EmbeddedNotes = {
    rating: readRating(xmp.Rating) ?? readRating(block(parsed.ifd0).Rating) ?? ratingFromPercent(block(parsed.ifd0).RatingPercent),
    label: typeof xmp.Label === "string" && /^[\p{L} ]{1,20}$/u.test(xmp.Label.trim()) ? xmp.Label.trim().toLowerCase() : null,
    title: firstText([xmpText(dc.title), iptcText(iptc.ObjectName), xmpText(block(parsed.photoshop).Headline), iptcText(iptc.Headline)], TITLE_MAXIMUM, false),
    caption: firstText([xmpText(dc.description), iptcText(iptc.Caption)], CAPTION_MAXIMUM, true),
    keywords: readKeywords(parsed, dc, iptc),
  };
  const isEmpty = notes.rating === null && notes.label === null && notes.title === null && notes.caption === null && notes.keywords.length === 0;
  return isEmpty ? null : notes;
}

async function headOf(input: string | Uint8Array): Promise<Uint8Array> {
  if (typeof input !== "string") return input.subarray(0, HEAD_BYTES);
  const file = await open(input, "r");
  try {
    const head = new Uint8Array(HEAD_BYTES);
    const { bytesRead } = await file.read(head, 0, HEAD_BYTES, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/** exifr's blocks (`ifd0`, `iptc`, and XMP's namespaces: `xmp`, `dc`, `lr`, `photoshop`) as it gives them unmerged. */
async function parseNotes(input: string | Uint8Array, head: Uint8Array): Promise<Block> {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return block(await exifr.parse(input as string, NOTES_ONLY));
  const { exif, xmp } = await configureSharp()(typeof input === "string" ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength), getHeaderInputOptions()).metadata();
  const isWebp = readAscii(head, 0, 4) === "RIFF" && readAscii(head, 8, 12) === "WEBP";
  const isIsoBmff = readAscii(head, 4, 8) === "ftyp";
  // PNG and TIFF: exifr reads their EXIF and IPTC, not their XMP (taken from libvips' packet below).
  const parsed = isWebp || isIsoBmff ? await parseExifBlock(exif) : block(await exifr.parse(input as string, { ...NOTES_ONLY, xmp: false }).catch(() => undefined));
  return { ...parsed, ...(await parseXmpPacket(xmp)) };
}

/** The EXIF block libvips found (with or without its "Exif" prefix), for IFD0's rating. */
async function parseExifBlock(exif: Buffer | undefined): Promise<Block> {
  if (!exif || exif.length < 8) return {};
  const hasExifPrefix = exif.subarray(0, 6).toString("latin1") === "Exif\0\0";
  return block(await exifr.parse(hasExifPrefix ? exif.subarray(6) : exif, { ...NOTES_ONLY, xmp: false, iptc: false }).catch(() => undefined));
}

/**
 * One XMP packet parsed, or nothing when it is longer than a JPEG's can be or declares a DOCTYPE or
 * entities. It is handed to exifr as a JPEG carries it (SOI, one APP1 segment, EOI), so it is read
 * exactly as a JPEG's packet is; exifr's `sidecar`, which takes a bare packet, is not on the default
 * export of its ESM build, which Next.js and vitest load.
 */
async function parseXmpPacket(xmp: Buffer | undefined): Promise<Block> {
  if (!xmp || xmp.length === 0 || xmp.length > XMP_PACKET_MAXIMUM_BYTES) return {};
  if (/<!DOCTYPE|<!ENTITY/i.test(xmp.toString("latin1"))) return {};
  const segmentHead = Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0, 0]);
  segmentHead.writeUInt16BE(2 + XMP_APP1_NAME.length + xmp.length, 4);
  // EOI after it: exifr reads a segment only when the file goes on past its end.
  const asJpeg = Buffer.concat([segmentHead, XMP_APP1_NAME, xmp, Buffer.from([0xff, 0xd9])]);
  const parsed = block(await exifr.parse(asJpeg, { ...NOTES_ONLY, tiff: false, iptc: false }).catch(() => undefined));
  return { xmp: parsed.xmp, dc: parsed.dc, lr: parsed.lr, photoshop: parsed.photoshop };
}

function readRating(value: unknown): number | null {
  const stars = Number(value);
  return Number.isInteger(stars) && stars >= 1 && stars <= 5 ? stars : null;
}

/** Windows' RatingPercent: 1, 25, 50, 75, 99 for one to five stars (nearest of them, as Windows reads it). */
function ratingFromPercent(value: unknown): number | null {
  const percent = Number(value);
  if (!Number.isFinite(percent) || percent < 1 || percent > 100) return null;
  return Math.min(5, Math.round(percent / 25) + 1);
}

/**
 * Keywords: XMP's dc:subject and Lightroom's hierarchical subjects (their leaf: "Places|Italy|Rome"
 * gives "Rome", as a sidecar's do), else IPTC's Keywords.
 */
function readKeywords(parsed: Block, dc: Block, iptc: Block): string[] {
  const fromXmp = [...texts(dc.subject).map(decodeXmlText), ...texts(block(parsed.lr).hierarchicalSubject).map((path) => decodeXmlText(path).split("|").at(-1) ?? "")];
  const names = fromXmp.length > 0 ? fromXmp : texts(iptc.Keywords).map(decodeIptcText);
  const seen = new Set<string>();
  const keywords: string[] = [];
  for (const name of names) {
    const cleaned = withoutControlCharacters(name.normalize("NFC")).replace(/\s+/gu, " ");
    const key = cleaned.toLowerCase();
    if (cleaned === "" || !isStorableText(cleaned) || seen.has(key)) continue;
    seen.add(key);
    keywords.push(cleaned);
    if (keywords.length === KEYWORDS_MAXIMUM) break;
  }
  return keywords;
}

/**
 * What cameras write as a description when the photographer wrote none (and tools then copy into
 * XMP): not a caption anyone gave. The corpus's Sony JPEGs carry "SONY DSC".
 */
const CAMERA_PLACEHOLDERS = /^(?:sony dsc|olympus digital camera|digital camera|samsung digital camera|(?:konica )?minolta digital camera|kodak digital still camera|sanyo digital camera|default|untitled)$/i;

/** The first candidate that is text once cleaned: control characters out (line feeds kept in a caption), cut to the limit. */
function firstText(candidates: Array<string | null>, maximum: number, keepLineFeeds: boolean): string | null {
  for (const candidate of candidates) {
    if (candidate === null) continue;
    const normalised = candidate.normalize("NFC").replace(/\r\n?/g, "\n");
    const cleaned = withoutControlCharacters(keepLineFeeds ? normalised : normalised.replace(/\s+/gu, " "), { keepLineFeeds });
    if (cleaned === "" || !isStorableText(cleaned) || CAMERA_PLACEHOLDERS.test(cleaned)) continue;
    return cutToLength(cleaned, maximum);
  }
  return null;
}

/** At most `maximum` UTF-16 units (what the editor's limit counts), never half a surrogate pair. */
function cutToLength(text: string, maximum: number): string {
  if (text.length <= maximum) return text;
  let cut = "";
  for (const character of text) {
    if (cut.length + character.length > maximum) break;
    cut += character;
  }
  return cut.trimEnd();
}

/** An XMP Alt (`{ lang, value }` or a list of them, x-default first) or a simple value, as text. */
function xmpText(value: unknown): string | null {
  const items = Array.isArray(value) ? value : [value];
  const chosen = items.find((item) => isBlock(item) && item.lang === "x-default") ?? items[0];
  const text = isBlock(chosen) ? chosen.value : chosen;
  return typeof text === "string" ? decodeXmlText(text) : null;
}

function iptcText(value: unknown): string | null {
  const [first] = texts(value);
  return first === undefined ? null : decodeIptcText(first);
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** exifr reads IPTC's bytes as Latin-1; as UTF-8 when they are valid UTF-8 (an accent written by a current tool). */
function decodeIptcText(latin1: string): string {
  if (!/[\u0080-\u00ff]/.test(latin1)) return latin1;
  try {
    return UTF8.decode(Uint8Array.from(latin1, (character) => character.charCodeAt(0) & 0xff));
  } catch {
    return latin1;
  }
}

/** exifr leaves XML's entities in XMP's text ("&amp;"): XML's five and character references, nothing else. */
function decodeXmlText(text: string): string {
  const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|amp|lt|gt|quot|apos);/gi, (entity, name: string) => {
    if (!name.startsWith("#")) return named[name.toLowerCase()] ?? entity;
    const codePoint = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return codePoint <= 0x10ffff && !(codePoint >= 0xd800 && codePoint <= 0xdfff) ? String.fromCodePoint(codePoint) : entity;
  });
}

function texts(value: unknown): string[] {
  const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return items.filter((item): item is string => typeof item === "string");
}

function block(value: unknown): Block {
  return isBlock(value) ? value : {};
}

function isBlock(value: unknown): value is Block {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
