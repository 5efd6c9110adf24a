// The characters no text the product keeps may hold, without zod: browser code on public pages
// (the tags field on the photo page, the sign-in form's redirect check) imports these, and zod is
// ~110 KB of JavaScript there. input-text.ts builds the request schemas on them and re-exports them.

/** C0 controls and DEL: never part of a title, name, identifier or log line (they reach headers and logs). */
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

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
