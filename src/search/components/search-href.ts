/** The search page's address for this text ("/search" alone for none). */
export function searchHref(text: string): string {
  const trimmed = text.trim();
  return trimmed === "" ? "/search" : `/search?${new URLSearchParams({ q: trimmed })}`;
}
