import { feature } from "@rapideditor/country-coder";

/** The official names country-coder uses where everyday speech uses a shorter one. */
const SHORT_COUNTRY_NAMES: Record<string, string> = {
  "United States of America": "United States",
  "People's Republic of China": "China",
  "Kingdom of Denmark": "Denmark",
  "Kingdom of the Netherlands": "Netherlands",
};

const PLACE_LEVELS = new Set(["country", "territory", "subterritory", "region"]);

/** "IT" → "Italy", "PR" → "Puerto Rico"; null for a code that names no country or territory. */
export function countryNameOf(code: string): string | null {
  if (!/^[A-Z]{2}$/.test(code)) return null;
  const properties = feature(code)?.properties;
  // Unions and the UN have codes too, but nobody took a photo "in" them; Antarctica is a region.
  if (!properties || properties.iso1A2 !== code || !PLACE_LEVELS.has(properties.level)) return null;
  return SHORT_COUNTRY_NAMES[properties.nameEn] ?? properties.nameEn;
}
