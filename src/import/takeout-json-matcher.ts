// Which Google Takeout JSON in a folder describes which media file, from the names alone.
//
// Google names a photo's JSON after the photo, but cuts names to fit a limit, and the forms have
// changed over the years (immich-go #35, GooglePhotosTakeoutHelper #8, #353, #448, ente #4953):
// - `IMG_1234.jpg.json`: the media name, cut to 46 characters, then `.json`
//   (`Urlaub in Knaufspesch in der Schneifel (38).JP.json` for `….JPG`);
// - since late 2024, `IMG_1234.jpg.supplemental-metadata.json`: the media name plus
//   `.supplemental-metadata`, the whole cut to 46 characters, then `.json` (51 in all), so long
//   names give `.supplemental-m.json`, `.suppl.json`, `.s.json`, or lose the suffix and part of
//   the name;
// - a duplicate's `(1)` moves behind everything that was cut: `IMG(1).jpg` ↔ `IMG.jpg(1).json`
//   or `IMG.jpg.supplemental-metadata(1).json`; it is never cut itself;
// - an edited copy (`IMG_1234-edited.jpg`, localised: `-bearbeitet`, `-modifié`, …) has no JSON
//   of its own and shares the original's;
// - old Takeouts sometimes leave the extension out (`IMG_1234.json`).
// The name Google cut is the media's own name on disk (itself cut at 47 when it was longer), so the
// expected JSON names are derived from the media name (the only deterministic direction) and
// looked up. What is left is tried once more by prefix, for names cut in other units than ours
// (emoji): a clipped JSON stem of at least 30 characters that only one media file starts with.
// An album folder's own `metadata.json` (localised: `Metadaten.json`, `métadonnées.json`, …) names
// the album.

const CUT_AT = 46;
const SUPPLEMENTAL = ".supplemental-metadata";
const EDITED_SUFFIXES = ["-edited", "-bearbeitet", "-modifié", "-editado", "-modificato", "-bewerkt", "-redigerad", "-muokattu", "-redigeret"];
const ALBUM_METADATA_NAMES = new Set(["metadata.json", "metadaten.json", "métadonnées.json", "metadatos.json", "metadati.json", "metadane.json"]);
const PREFIX_FALLBACK_MINIMUM = 30;

export interface TakeoutFolderMatch {
  /** Media file name → the JSON that describes it. Several media may share one (edited copies). */
  jsonFor: Map<string, string>;
  /** The album folder's own metadata.json, when there is one. */
  albumMetadata: string | null;
  /** JSON files that describe none of the media here (print orders, comments, or a lost photo). */
  unusedJson: string[];
}

/** `folderNames`: every file name in one folder of the Takeout (media, JSON, anything else). */
export function matchTakeoutJson(folderNames: readonly string[]): TakeoutFolderMatch {
  const jsonNames = folderNames.filter(isJsonName);
  const jsonSet = new Set(jsonNames);
  const media = folderNames.filter((name) => !isJsonName(name) && !name.toLowerCase().endsWith(".xmp"));
  const jsonFor = new Map<string, string>();

  for (const name of media) {
    const found = expectedJsonNames(name).find((candidate) => jsonSet.has(candidate));
    if (found) jsonFor.set(name, found);
  }

  const albumMetadata = jsonNames.find((name) => ALBUM_METADATA_NAMES.has(name.toLowerCase()) && ![...jsonFor.values()].includes(name)) ?? null;
  matchByPrefix(media, jsonNames, jsonFor, albumMetadata);

  const used = new Set(jsonFor.values());
  return { jsonFor, albumMetadata, unusedJson: jsonNames.filter((name) => !used.has(name) && name !== albumMetadata) };
}

/** The JSON names Google may have written for this media file, the likeliest first. */
export function expectedJsonNames(mediaName: string): string[] {
  const { key, index, original } = parseMediaName(mediaName);
  const keys = original === null ? [key] : [key, original.key];
  const names: string[] = [];
  for (const fullName of keys) {
    const dot = fullName.lastIndexOf(".");
    const withoutExtension = dot > 0 ? fullName.slice(0, dot) : fullName;
    for (const stem of [cut(fullName + SUPPLEMENTAL), cut(fullName), cut(withoutExtension)]) {
      names.push(`${stem}${index}.json`);
      // A cut that ends on the dot before "supplemental" may or may not keep it.
      if (stem.endsWith(".")) names.push(`${stem.slice(0, -1)}${index}.json`);
    }
    // Some Takeouts leave the duplicate's index where it was: `IMG(1).jpg.json`.
    if (index !== "") {
      const inPlace = `${withoutExtension}${index}${fullName.slice(withoutExtension.length)}`;
      names.push(`${cut(inPlace + SUPPLEMENTAL)}.json`, `${cut(inPlace)}.json`);
    }
  }
  return [...new Set(names)];
}

interface ParsedMediaName {
  /** The name without the duplicate's index: `IMG.jpg` for `IMG(1).jpg`. */
  key: string;
  /** `(1)` or "". */
  index: string;
  /** For an edited copy, the original's parsed name. */
  original: { key: string } | null;
}

function parseMediaName(name: string): ParsedMediaName {
  const dot = name.lastIndexOf(".");
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
  const indexed = /^(.*)(\(\d+\))$/.exec(stem);
  const [base, index] = indexed ? [indexed[1], indexed[2]] : [stem, ""];
  const edited = EDITED_SUFFIXES.find((suffix) => base.toLowerCase().endsWith(suffix));
  return {
    key: base + extension,
    index,
    original: edited ? { key: base.slice(0, base.length - edited.length) + extension } : null,
  };
}

/** Google's cut: the first 46 characters (counted as code points, which is right for all but emoji). */
function cut(text: string): string {
  const characters = Array.from(text);
  return characters.length <= CUT_AT ? text : characters.slice(0, CUT_AT).join("");
}

function matchByPrefix(media: readonly string[], jsonNames: readonly string[], jsonFor: Map<string, string>, albumMetadata: string | null): void {
  const used = new Set(jsonFor.values());
  const unmatched = media.filter((name) => !jsonFor.has(name));
  for (const json of jsonNames) {
    if (used.has(json) || json === albumMetadata) continue;
    const { stem, index } = parseJsonName(json);
    if (Array.from(stem).length < PREFIX_FALLBACK_MINIMUM) continue;
    const candidates = unmatched.filter((name) => {
      const parsed = parseMediaName(name);
      return parsed.index === index && parsed.key.startsWith(stem);
    });
    if (candidates.length === 1 && !jsonFor.has(candidates[0])) jsonFor.set(candidates[0], json);
  }
}

/** A JSON name's stem with `.json`, the duplicate's index and any cut of `.supplemental-metadata` taken off. */
function parseJsonName(json: string): { stem: string; index: string } {
  const withoutJson = json.slice(0, -".json".length);
  const indexed = /^(.*)(\(\d+\))$/.exec(withoutJson);
  const [stem, index] = indexed ? [indexed[1], indexed[2]] : [withoutJson, ""];
  const lastDot = stem.lastIndexOf(".");
  const tail = lastDot >= 0 ? stem.slice(lastDot) : "";
  const isSupplementalCut = tail.length >= 2 && SUPPLEMENTAL.startsWith(tail);
  return { stem: isSupplementalCut ? stem.slice(0, lastDot) : stem, index };
}

function isJsonName(name: string): boolean {
  return name.toLowerCase().endsWith(".json");
}
