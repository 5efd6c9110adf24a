import Link from "next/link";
import { addSearchTerm } from "../search-query-parser";
import { searchHref } from "./search-href";

/** One entry of a facet list (the service's SearchFacet). */
interface Facet {
  label: string;
  count: number;
  token: string;
}

/** The service's SearchFacets: what the current results hold, biggest first. */
export interface SearchFacetLists {
  people: Facet[];
  cameras: Facet[];
  lenses: Facet[];
  years: Facet[];
  tags: Facet[];
  places: Facet[];
}

const GROUPS: { key: keyof SearchFacetLists; title: string }[] = [
  { key: "people", title: "Person" },
  { key: "years", title: "Year" },
  { key: "tags", title: "Tag" },
  { key: "places", title: "Place" },
  { key: "cameras", title: "Camera" },
  { key: "lenses", title: "Lens" },
];

const countFormat = new Intl.NumberFormat("en");

/**
 * Facet lists beside the results: each entry is a link to the same search with its term added.
 * A group with nothing to narrow by (no entries, or only the term already in the query) is left out.
 */
export function SearchFacets({ text, facets }: { text: string; facets: SearchFacetLists }) {
  const tokens = new Set(text.trim().split(/\s+/));
  const groups = GROUPS.map((group) => ({ ...group, entries: facets[group.key] })).filter((group) => group.entries.some((entry) => !tokens.has(entry.token)));
  if (groups.length === 0) return null;
  return (
    <nav className="search-facets" aria-label="Narrow the results">
      {groups.map((group) => (
        <section key={group.key} className="search-facet" aria-labelledby={`facet-${group.key}`}>
          <h2 id={`facet-${group.key}`} className="search-facet-title">
            {group.title}
          </h2>
          <ul className="search-facet-list">
            {group.entries.map((entry) => {
              const chosen = tokens.has(entry.token);
              return (
                <li key={entry.token}>
                  <Link
                    className="search-facet-link"
                    href={searchHref(addSearchTerm(text, entry.token))}
                    aria-current={chosen ? "true" : undefined}
                    data-testid="search-facet"
                    data-token={entry.token}
                  >
                    <span className="search-facet-label">{entry.label}</span>
                    <span className="search-facet-count">{countFormat.format(entry.count)}</span>
                    <span className="visually-hidden">{entry.count === 1 ? " photo" : " photos"}</span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </nav>
  );
}
