/**
 * The conditional headers a browser sends for media (RFC 9110 section 13), against the one entity
 * tag a stored variant has: strong, and named after its content, so it never changes for a URL.
 */

/** The opaque part of an entity tag (`"abc"` of `W/"abc"`), or null when the text is not one. */
function opaqueTag(tag: string): string | null {
  const trimmed = tag.trim();
  const strong = trimmed.startsWith("W/") ? trimmed.slice(2) : trimmed;
  return strong.length >= 2 && strong.startsWith('"') && strong.endsWith('"') ? strong : null;
}

/**
 * If-None-Match: true when the header names this tag (weak comparison, as the RFC asks: `W/"x"`
 * matches `"x"`), in a list or alone, or is `*` (the variant exists).
 */
export function matchesIfNoneMatch(header: string | null | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => opaqueTag(tag) === etag);
}

/**
 * If-Range: whether a Range may be answered with part of this variant. Without the header, yes.
 * With it, only when it is exactly this strong tag; a weak tag, another tag or a date (no
 * Last-Modified is ever sent, so no date can validate) mean the client holds other bytes and gets
 * the whole variant (200) instead of a part it would splice onto them.
 */
export function isRangeStillValid(ifRange: string | null | undefined, etag: string): boolean {
  if (!ifRange) return true;
  return ifRange.trim() === etag;
}
