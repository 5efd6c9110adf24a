import { XMLParser } from "fast-xml-parser";
import { normaliseTakenAt } from "@/src/photos/taken-at-input";
import { COLOUR_LABELS, type ColourLabel, type ImportMetadata } from "./import-metadata";
import { ImportReadError, type ImportReadResult } from "./import-read-error";
import { decodeSidecarText } from "./sidecar-text";

// An XMP sidecar (Lightroom's `a.xmp`, darktable's `a.jpg.xmp`, …) read into ImportMetadata.
// Properties are looked up by namespace URI, not by prefix: a writer may bind `dc` to any prefix,
// and XMP allows a property as an attribute or as an element (simple, Alt, Bag or Seq) alike.
// A DOCTYPE is refused outright: XMP never needs one, and it is how entity expansion ("billion
// laughs") and external entities get in.

const NS = {
  rdf: "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
  dc: "http://purl.org/dc/elements/1.1/",
  xmp: "http://ns.adobe.com/xap/1.0/",
  lr: "http://ns.adobe.com/lightroom/1.0/",
  exif: "http://ns.adobe.com/exif/1.0/",
  exifEX: "http://cipa.jp/exif/1.0/",
  photoshop: "http://ns.adobe.com/photoshop/1.0/",
  tiff: "http://ns.adobe.com/tiff/1.0/",
} as const;

/** Lightroom's default label set writes these English names; the German and French sets, theirs. */
const LABEL_NAMES: Record<string, ColourLabel> = {
  ...Object.fromEntries(COLOUR_LABELS.map((label) => [label, label])),
  rot: "red", gelb: "yellow", grün: "green", blau: "blue", lila: "purple",
  rouge: "red", jaune: "yellow", vert: "green", bleu: "blue", violet: "purple",
};

type Properties = Map<string, string[]>;

/** Reads one sidecar's bytes; throws ImportReadError (naming the file) when it refuses the file. */
export function readXmpSidecar(bytes: Uint8Array, fileName: string): ImportReadResult<ImportMetadata> {
  const text = decodeSidecarText(bytes, fileName);
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new ImportReadError(fileName, "XMP with a DOCTYPE or entity declarations is refused");
  const properties = readProperties(parseXml(text, fileName));
  const warnings: string[] = [];
  const warn = (what: string) => warnings.push(`${fileName}: ${what}`);
  const metadata: ImportMetadata = {};

  const title = firstText(properties, NS.dc, "title");
  if (title) metadata.title = title;
  const description = firstText(properties, NS.dc, "description");
  if (description) metadata.description = description;

  const tags = uniqueTags([
    ...values(properties, NS.dc, "subject"),
    ...values(properties, NS.lr, "hierarchicalSubject").map((path) => path.split("|").at(-1) ?? ""),
  ]);
  if (tags.length > 0) metadata.tags = tags;

  const rating = firstText(properties, NS.xmp, "Rating");
  if (rating !== undefined) {
    const stars = Number(rating);
    if (Number.isInteger(stars) && stars >= 0 && stars <= 5) metadata.rating = stars;
    else if (stars !== -1) warn(`rating "${rating}" is not 0-5 stars, left out`);
  }

  const label = firstText(properties, NS.xmp, "Label");
  if (label) {
    const colour = LABEL_NAMES[label.toLowerCase()];
    if (colour) metadata.label = colour;
    else warn(`colour label "${label}" is not one of ${COLOUR_LABELS.join(", ")}, left out`);
  }

  const dateText =
    firstText(properties, NS.exif, "DateTimeOriginal") ??
    firstText(properties, NS.exifEX, "DateTimeOriginal") ??
    firstText(properties, NS.photoshop, "DateCreated") ??
    firstText(properties, NS.xmp, "CreateDate");
  if (dateText) {
    const takenAt = xmpDateToTakenAt(dateText);
    if (takenAt) metadata.takenAt = takenAt;
    else warn(`date taken "${dateText}" is not a real date, left out`);
  }

  const latitudeText = firstText(properties, NS.exif, "GPSLatitude");
  const longitudeText = firstText(properties, NS.exif, "GPSLongitude");
  if (latitudeText && longitudeText) {
    const latitude = xmpCoordinate(latitudeText, "NS", 90);
    const longitude = xmpCoordinate(longitudeText, "EW", 180);
    if (latitude !== null && longitude !== null) metadata.location = { latitude, longitude };
    else warn(`GPS position "${latitudeText}", "${longitudeText}" is not a place on Earth, left out`);
  }

  const orientation = firstText(properties, NS.tiff, "Orientation");
  if (orientation !== undefined) {
    const value = Number(orientation);
    if (Number.isInteger(value) && value >= 1 && value <= 8) metadata.orientation = value;
    else warn(`orientation "${orientation}" is not 1-8, left out`);
  }

  return { value: metadata, warnings };
}

function parseXml(text: string, fileName: string): unknown {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@_",
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    // Only XML's five built-in entities can remain (declarations were refused above).
    processEntities: true,
    htmlEntities: false,
  });
  try {
    return parser.parse(text, true);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ImportReadError(fileName, `not well-formed XML (${reason})`);
  }
}

/** Every rdf:Description's properties, keyed "namespace-URI localName", values as text. */
function readProperties(root: unknown): Properties {
  const properties: Properties = new Map();
  const visit = (node: unknown, scope: ReadonlyMap<string, string>) => {
    for (const element of asArray(node)) {
      if (!isRecord(element)) continue;
      const inner = withDeclarations(element, scope);
      for (const [name, child] of Object.entries(element)) {
        if (name.startsWith("@_") || name.startsWith("#") || name.startsWith("?")) continue;
        if (resolve(name, inner) === `${NS.rdf} Description`) {
          for (const description of asArray(child)) collectDescription(description, inner, properties);
        } else {
          visit(child, inner);
        }
      }
    }
  };
  visit(root, new Map([["xml", "http://www.w3.org/XML/1998/namespace"]]));
  return properties;
}

function collectDescription(description: unknown, outer: ReadonlyMap<string, string>, into: Properties): void {
  if (!isRecord(description)) return;
  const scope = withDeclarations(description, outer);
  const add = (key: string | null, texts: string[]) => {
    if (key === null || key.startsWith(NS.rdf) || texts.length === 0) return;
    into.set(key, [...(into.get(key) ?? []), ...texts]);
  };
  for (const [name, value] of Object.entries(description)) {
    if (name.startsWith("@_xmlns")) continue;
    if (name.startsWith("@_")) add(resolve(name.slice(2), scope), typeof value === "string" ? [value] : []);
    else if (!name.startsWith("#")) for (const property of asArray(value)) add(resolve(name, scope), propertyTexts(property, withDeclarations(isRecord(property) ? property : {}, scope)));
  }
}

/** A simple value, or the items of an Alt (x-default first), Bag or Seq. */
function propertyTexts(property: unknown, scope: ReadonlyMap<string, string>): string[] {
  if (typeof property === "string") return [property];
  if (!isRecord(property)) return [];
  for (const [name, container] of Object.entries(property)) {
    const resolved = resolve(name, scope);
    if (resolved !== `${NS.rdf} Alt` && resolved !== `${NS.rdf} Bag` && resolved !== `${NS.rdf} Seq`) continue;
    const items = Object.entries(isRecord(container) ? container : {})
      .filter(([itemName]) => resolve(itemName, scope) === `${NS.rdf} li`)
      .flatMap(([, item]) => asArray(item));
    const texts = items.map((item) => ({
      text: typeof item === "string" ? item : isRecord(item) && typeof item["#text"] === "string" ? item["#text"] : "",
      isDefault: isRecord(item) && item["@_xml:lang"] === "x-default",
    }));
    return [...texts.filter((item) => item.isDefault), ...texts.filter((item) => !item.isDefault)].map((item) => item.text);
  }
  return typeof property["#text"] === "string" ? [property["#text"]] : [];
}

function withDeclarations(element: Record<string, unknown>, outer: ReadonlyMap<string, string>): ReadonlyMap<string, string> {
  const declarations = Object.entries(element).filter(([name, value]) => name.startsWith("@_xmlns:") && typeof value === "string");
  if (declarations.length === 0) return outer;
  const scope = new Map(outer);
  for (const [name, uri] of declarations) scope.set(name.slice("@_xmlns:".length), uri as string);
  return scope;
}

function resolve(qualifiedName: string, scope: ReadonlyMap<string, string>): string | null {
  const colon = qualifiedName.indexOf(":");
  if (colon < 0) return null;
  const uri = scope.get(qualifiedName.slice(0, colon));
  return uri === undefined ? null : `${uri} ${qualifiedName.slice(colon + 1)}`;
}

function values(properties: Properties, namespace: string, name: string): string[] {
  return properties.get(`${namespace} ${name}`) ?? [];
}

function firstText(properties: Properties, namespace: string, name: string): string | undefined {
  const text = values(properties, namespace, name).map((value) => value.trim()).find((value) => value !== "");
  return text;
}

function uniqueTags(names: string[]): string[] {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const raw of names) {
    const name = raw.normalize("NFC").replace(/\s+/g, " ").trim();
    const key = name.toLowerCase();
    if (name === "" || seen.has(key)) continue;
    seen.add(key);
    tags.push(name);
  }
  return tags;
}

/**
 * XMP's dates are ISO 8601 cut at any precision ("2009", "2009-11-28", "2009-11-28T13:42",
 * "2009-11-28T13:42:39.25+01:00"). A day without a time is taken as its midnight (Lightroom shows
 * it so); a year or month alone says too little and is left out.
 */
export function xmpDateToTakenAt(text: string): string | null {
  const match = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}(?::\d{2})?)(?:\.\d+)?(Z|[+-]\d{2}:\d{2})?)?$/.exec(text.trim());
  if (!match) return null;
  return normaliseTakenAt(`${match[1]}T${match[2] ?? "00:00"}${match[3] ?? ""}`);
}

/** XMP's GPSCoordinate: "DDD,MM.mmk" or "DDD,MM,SSk", k one of N/S (latitude) or E/W (longitude). */
export function xmpCoordinate(text: string, hemispheres: "NS" | "EW", limit: number): number | null {
  const match = /^(\d{1,3}),(\d{1,2}(?:\.\d+)?)(?:,(\d{1,2}(?:\.\d+)?))?([NSEW])$/i.exec(text.trim());
  if (!match) return null;
  const [degrees, minutes, seconds] = [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
  const hemisphere = match[4].toUpperCase();
  if (!hemispheres.includes(hemisphere) || minutes >= 60 || seconds >= 60) return null;
  const value = degrees + minutes / 60 + seconds / 3600;
  if (value > limit) return null;
  return hemisphere === "S" || hemisphere === "W" ? -value : value;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
