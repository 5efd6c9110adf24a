/**
 * One display name per camera, the same in the library filter, the photo page, browse and search:
 * the maker once, in the maker's usual casing, then the model without the maker repeated.
 * EXIF writes makers every which way ("NIKON CORPORATION", "PENTAX Corporation", "OLYMPUS IMAGING
 * CORP.", "samsung") and some models repeat them ("NIKON D70", "Canon EOS 40D"); the name is
 * "Nikon D70", "Pentax K10D", "Olympus E-P3", "Samsung SM-G930F", "Canon EOS 40D".
 * The camera's URL name (camera-slug.ts) is made from this name. Client-safe.
 */

// Company words after a maker's name that no photographer says.
const COMPANY_SUFFIX = /[\s,]+(corporation|corp\.?|company|co\.?,?\s*ltd\.?|ltd\.?|inc\.?|ag|gmbh|imaging|optical|computer|electric|camera|techwin|global|digital solutions)$/i;

// Makers whose usual name is not their EXIF name with the company words taken off and
// capitalised (short names in capitals, names in mixed case, renamed companies).
const USUAL_MAKER_NAMES: Record<string, string> = {
  "eastman kodak": "Kodak",
  fuji: "Fujifilm",
  fujifilm: "Fujifilm",
  "konica minolta": "Konica Minolta",
  "om digital solutions": "OM System",
  oneplus: "OnePlus",
  gopro: "GoPro",
  dji: "DJI",
  hmd: "HMD",
  htc: "HTC",
  lg: "LG",
  lge: "LG",
};

/** "Nikon" for "NIKON CORPORATION", "Olympus" for "OLYMPUS IMAGING CORP.", "Kodak" for "EASTMAN KODAK COMPANY". */
export function usualMakerName(make: string): string {
  let name = make.trim();
  for (let previous = ""; previous !== name; ) {
    previous = name;
    name = name.replace(COMPANY_SUFFIX, "").trim();
  }
  if (!name) name = make.trim();
  const known = USUAL_MAKER_NAMES[name.toLowerCase()];
  if (known) return known;
  // A name written in one case only ("NIKON", "samsung") gets the usual capital; a name that mixes
  // cases ("Canon", "Jolla") is already written as its maker writes it.
  const isOneCase = name === name.toUpperCase() || name === name.toLowerCase();
  return isOneCase ? name.toLowerCase().replace(/(^|[\s-])(\p{L})/gu, (_, before: string, letter: string) => before + letter.toUpperCase()) : name;
}

/** The model without the maker it starts with ("D70" from "NIKON D70" by NIKON CORPORATION). */
function modelWithoutMaker(model: string, make: string, maker: string): string {
  const trimmed = model.trim();
  for (const prefix of new Set([maker, make.trim(), make.trim().split(/\s+/)[0]])) {
    if (prefix && trimmed.toLowerCase().startsWith(`${prefix.toLowerCase()} `)) return trimmed.slice(prefix.length).trim();
    if (prefix && trimmed.toLowerCase() === prefix.toLowerCase()) return "";
  }
  return trimmed;
}

export function describeCamera(make: string | null, model: string | null): string | null {
  const cleanMake = make?.trim() || null;
  const cleanModel = model?.trim() || null;
  if (!cleanMake) return cleanModel;
  const maker = usualMakerName(cleanMake);
  if (!cleanModel) return maker;
  const rest = modelWithoutMaker(cleanModel, cleanMake, maker);
  return rest ? `${maker} ${rest}` : maker;
}
