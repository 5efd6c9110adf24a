import { z } from "zod";
import { CONTROL_CHARACTERS } from "./control-characters";

// The one place that says what text and identifiers a request may carry into the product. Both
// databases must be able to store and compare whatever leaves the parsing layer: PostgreSQL refuses
// a NUL anywhere in a text value (22021) and SQLite would keep it silently, so a NUL is never
// storable; nor is a string that is not well-formed UTF-16 (a lone surrogate, which is how JSON
// carries what is not a character). Invalid UTF-8 is refused where the bytes are decoded (request
// bodies, path segments). Client-safe: the browser's forms use the same text rules.

/** C0 controls and DEL (defined without zod, for browser code): never part of a title, name, identifier or log line. */
export { CONTROL_CHARACTERS };

/** The same, but keeping line feeds, for text that may run over several lines (captions, descriptions, comments). */
const CONTROL_CHARACTERS_BUT_LINE_FEED = /[\u0000-\u0009\u000b-\u001f\u007f]/g;

/** Whether the text holds a C0 control character or DEL. */
export function hasControlCharacter(text: string): boolean {
  return /[\u0000-\u001f\u007f]/.test(text);
}

/** The text without control characters (line feeds kept when asked), trimmed. */
export function withoutControlCharacters(text: string, options: { keepLineFeeds?: boolean } = {}): string {
  return text.replace(options.keepLineFeeds ? CONTROL_CHARACTERS_BUT_LINE_FEED : CONTROL_CHARACTERS, "").trim();
}

/** Half of a surrogate pair without its other half: not a character, and not encodable as UTF-8. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether both databases can store the text as it is: no NUL, no lone surrogate. */
export function isStorableText(text: string): boolean {
  return !text.includes("\u0000") && !LONE_SURROGATE.test(text);
}

/** The first string anywhere in a parsed value (a query, a JSON body) that is not storable, or undefined. */
export function findUnstorableText(value: unknown, depth = 0): string | undefined {
  if (typeof value === "string") return isStorableText(value) ? undefined : value;
  if (typeof value !== "object" || value === null || depth > 32) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (!isStorableText(key)) return key;
    const found = findUnstorableText(item, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Text a person types on one line (a title, a name): control characters removed, trimmed, then
 * 1 (or `minimum`) to `maximum` characters.
 */
export function singleLineText(maximum: number, options: { minimum?: number; tooShort?: string; tooLong?: string } = {}) {
  return z
    .string()
    .transform((text) => withoutControlCharacters(text))
    .pipe(z.string().min(options.minimum ?? 0, options.tooShort).max(maximum, options.tooLong));
}

/** Text that may hold line breaks (a caption, a description, a comment): other control characters removed, trimmed. */
export function multilineText(maximum: number, options: { tooLong?: string } = {}) {
  return z
    .string()
    .transform((text) => withoutControlCharacters(text, { keepLineFeeds: true }))
    .pipe(z.string().max(maximum, options.tooLong));
}

/** The longest identifier any route takes: ids are UUIDs, keys and slugs far shorter. */
export const MAXIMUM_IDENTIFIER_LENGTH = 200;

/**
 * An id, slug, key or tag name as a path or a body names it: 1 to 200 characters, none of them a
 * control character, storable. What it names is the service's question (404 when nothing).
 */
export const identifierSchema = z
  .string()
  .min(1)
  .max(MAXIMUM_IDENTIFIER_LENGTH)
  .refine((value) => isStorableText(value) && !hasControlCharacter(value), "An identifier holds no control characters.");

/** A catch-all's segments (`[...key]`: a storage key, an og path), each an identifier's characters. */
export const pathSegmentsSchema = z.array(identifierSchema).min(1).max(32);

/** `[id]` routes: the id is checked by the service that looks it up (404 when there is none). */
export const idParamsSchema = z.object({ id: identifierSchema.describe("The id, as the API answers it.") });

/**
 * A page's identifier segment, or null when it cannot name anything (the page answers 404): pages
 * read their params themselves, so they ask here what the wrappers' params schemas ask.
 */
export function parseIdentifierSegment(segment: string): string | null {
  const parsed = identifierSchema.safeParse(segment);
  return parsed.success ? parsed.data : null;
}
