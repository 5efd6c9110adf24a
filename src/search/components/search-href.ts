import { formatSearchTerm } from "../search-query-parser";

/** The search page's address for this text ("/search" alone for none). */
export function searchHref(text: string): string {
  const trimmed = text.trim();
  return trimmed === "" ? "/search" : `/search?${new URLSearchParams({ q: trimmed })}`;
}

/** The search for photos taken in this town, region or country (`place:"New York"`), e.g. from /places and the photo page. */
export function placeSearchHref(name: string): string {
  return searchHref(formatSearchTerm({ kind: "place", raw: "", negated: false, value: name }));
}
