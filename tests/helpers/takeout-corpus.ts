import fs from "node:fs";
import path from "node:path";

// A generated Google Takeout: a folder tree in a temporary directory whose names are derived from
// the real corpus's file names and cover every form Google names a photo's JSON in (see
// src/import/takeout-json-matcher.ts for the forms and where they were reported). The JSON names
// here are written the way Takeout writes them, phrased as the writer's rule ("the first 51
// characters of name + .supplemental-metadata.json, .json kept"), not as the matcher derives them,
// so the matcher is tested against an independent statement of the rule.
// Media bytes are the real corpus JPEG each name came from (so the importer's integration tests can
// upload them), or a few bytes when `copyBytes` is false (name matching only).

const EXIF_SAMPLES = path.resolve(import.meta.dirname, "../../../shared/corpus/exif-samples/jpg");
const FILL = "_Summer-holiday-in-the-Alps-with-the-whole-family-2019";

export interface TakeoutCorpusFolder {
  /** Path relative to the corpus root ("Takeout/Google Photos/Trip to Rome"). */
  path: string;
  /** The album title its metadata.json holds, when it has one. */
  albumTitle: string | null;
  /** Media file name → the JSON name that describes it, or null when it has none. */
  expected: Map<string, string | null>;
  /** JSON files that belong to no media file in the folder. */
  strayJson: string[];
  /** What each JSON says, by JSON name (the photo's takenAt, as the reader should give it). */
  takenAtByJson: Map<string, string>;
}

export interface TakeoutCorpus {
  root: string;
  folders: TakeoutCorpusFolder[];
}

/** Google's rule for the new form: first 51 characters of `name.supplemental-metadata.json`, `.json` kept, index behind. */
export function supplementalJsonName(name: string, index = ""): string {
  return `${Array.from(`${name}.supplemental-metadata`).slice(0, 46).join("")}${index}.json`;
}

/** Google's rule for the old form: first 46 characters of the name, index behind, `.json`. */
export function legacyJsonName(name: string, index = ""): string {
  return `${Array.from(name).slice(0, 46).join("")}${index}.json`;
}

/** A real corpus name made exactly `length` characters long by filling its stem. */
export function lengthen(realName: string, length: number): string {
  const extension = path.extname(realName);
  const stem = path.basename(realName, extension);
  const needed = length - extension.length;
  const grown = (stem + FILL + FILL).slice(0, needed);
  if (grown.length !== needed) throw new Error(`cannot grow ${realName} to ${length}`);
  return grown + extension;
}

export function writeTakeoutCorpus(root: string, options: { copyBytes?: boolean } = {}): TakeoutCorpus {
  const real = fs.readdirSync(EXIF_SAMPLES).filter((name) => name.endsWith(".jpg") && !name.includes("corrupted")).sort();
  const pick = (position: number) => real[position % real.length];
  let second = 1_262_304_000; // 2010-01-01T00:00:00Z; each JSON a day later than the one before
  const folders: TakeoutCorpusFolder[] = [];

  const folder = (relative: string, albumTitle: string | null) => {
    const dir = path.join(root, relative);
    fs.mkdirSync(dir, { recursive: true });
    const entry: TakeoutCorpusFolder = { path: relative, albumTitle, expected: new Map(), strayJson: [], takenAtByJson: new Map() };
    if (albumTitle) fs.writeFileSync(path.join(dir, "metadata.json"), JSON.stringify({ title: albumTitle, description: "", access: "protected" }));
    folders.push(entry);
    const writeMedia = (name: string, source: string) =>
      fs.writeFileSync(path.join(dir, name), options.copyBytes === false ? Buffer.from(name) : fs.readFileSync(path.join(EXIF_SAMPLES, source)));
    const writeJson = (jsonName: string, title: string) => {
      second += 86_400;
      entry.takenAtByJson.set(jsonName, `${new Date(second * 1000).toISOString().slice(0, 19)}+00:00`);
      fs.writeFileSync(
        path.join(dir, jsonName),
        JSON.stringify({ title, description: "", photoTakenTime: { timestamp: String(second), formatted: "" }, geoData: { latitude: 0, longitude: 0, altitude: 0 } }),
      );
    };
    return {
      /** A media file and its JSON named by `jsonName(mediaKey, index)`. */
      photo(source: string, mediaName: string, jsonName: string | null) {
        writeMedia(mediaName, source);
        if (jsonName) writeJson(jsonName, mediaName);
        entry.expected.set(mediaName, jsonName);
      },
      /** An edited copy: no JSON of its own, the original's is expected. */
      edited(source: string, mediaName: string, originalJson: string) {
        writeMedia(mediaName, source);
        entry.expected.set(mediaName, originalJson);
      },
      stray(jsonName: string, body: unknown) {
        fs.writeFileSync(path.join(dir, jsonName), JSON.stringify(body));
        entry.strayJson.push(jsonName);
      },
    };
  };

  // The old form: `name.json`, cut at 46; the duplicate's index behind the extension.
  const legacy = folder("Takeout/Google Photos/Photos from 2010", null);
  legacy.photo(pick(0), pick(0), legacyJsonName(pick(0)));
  const legacyLong = lengthen(pick(1), 47); // one over: `….jp.json`
  legacy.photo(pick(1), legacyLong, legacyJsonName(legacyLong));
  const legacyVeryLong = lengthen(pick(2), 51); // Google cut the media name too (47 + extension)
  legacy.photo(pick(2), legacyVeryLong, legacyJsonName(legacyVeryLong));
  const duplicate = `${path.basename(pick(0), ".jpg")}(1).jpg`;
  legacy.photo(pick(0), duplicate, legacyJsonName(pick(0), "(1)"));
  const edited = `${path.basename(pick(0), ".jpg")}-edited.jpg`;
  legacy.edited(pick(0), edited, legacyJsonName(pick(0)));
  legacy.photo(pick(3), pick(3), null);
  legacy.stray("print-subscriptions.json", []);

  // The new form: `name.supplemental-metadata.json` cut at 51, every length of the cut.
  const album = folder("Takeout/Google Photos/Trip to Rome", "Trip to Rome");
  album.photo(pick(4), pick(4), supplementalJsonName(pick(4)));
  const suffixCuts = new Set<string>();
  for (let length = 24; length <= 52; length += 1) {
    const source = pick(5 + length);
    const name = lengthen(source, length);
    const jsonName = supplementalJsonName(name);
    suffixCuts.add(jsonName.slice(Math.min(name.length, 46)));
    album.photo(source, name, jsonName);
  }
  const newDuplicate = `${path.basename(pick(4), ".jpg")}(2).jpg`;
  album.photo(pick(4), newDuplicate, supplementalJsonName(pick(4), "(2)"));
  const longDuplicateKey = lengthen(pick(6), 40);
  const longDuplicate = `${path.basename(longDuplicateKey, ".jpg")}(1).jpg`;
  album.photo(pick(6), longDuplicate, supplementalJsonName(longDuplicateKey, "(1)"));
  const newEdited = `${path.basename(pick(4), ".jpg")}-edited.jpg`;
  album.edited(pick(4), newEdited, supplementalJsonName(pick(4)));
  album.stray("shared_album_comments.json", []);

  if (![".supplemental-m.json", ".suppl.json", ".s.json", ".json"].every((form) => suffixCuts.has(form))) {
    throw new Error(`the generated corpus is missing a cut form: ${[...suffixCuts].join(" ")}`);
  }
  return { root, folders };
}
