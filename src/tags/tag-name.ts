import { CONTROL_CHARACTERS } from "@/src/validation/control-characters";

// How a tag is written and when two spellings are the same tag. Client-safe: the tag input uses the
// same rules to avoid showing one tag twice before the server has answered.

/** The longest tag name, in characters (code points) after cleaning. */
export const MAXIMUM_TAG_LENGTH = 64;

/** The most tags one photo may have, and the most names one request may carry. */
export const MAXIMUM_TAGS_PER_PHOTO = 50;

/**
 * The tag as shown: NFC, without control characters, trimmed, every run of whitespace one space.
 * Commas separate tags in the input, so a name never holds one.
 */
export function cleanTagName(name: string): string {
  return name
    .normalize("NFC")
    .replace(CONTROL_CHARACTERS, " ")
    .replaceAll(",", " ")
    .replace(/\s+/gu, " ")
    .trim();
}

/**
 * What makes two spellings one tag: the cleaned name, case-folded. Upper-casing before lower-casing
 * folds what lower-casing alone keeps apart ("Straße" and "STRASSE", "ﬁ" and "FI"); NFC before and
 * after makes composed and decomposed accents ("Café", "Cafe\u0301", "CAFÉ") the same key.
 */
export function tagKey(name: string): string {
  return cleanTagName(name).toUpperCase().toLowerCase().normalize("NFC");
}

/** The path of a tag's page. */
export function tagPath(key: string): string {
  return `/tags/${encodeURIComponent(key)}`;
}

/** Why a name cannot be a tag, or null when it can. */
export function tagNameProblem(name: string): string | null {
  const cleaned = cleanTagName(name);
  if (cleaned.length === 0) return "A tag cannot be empty.";
  if ([...cleaned].length > MAXIMUM_TAG_LENGTH) return `A tag has at most ${MAXIMUM_TAG_LENGTH} characters.`;
  return null;
}
