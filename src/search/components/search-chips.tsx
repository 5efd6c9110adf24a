import Link from "next/link";
import { describeSearchTerm, removeSearchTerm } from "../search-query-parser";
import type { SearchTerm } from "../search-query.types";
import { searchHref } from "./search-href";

/** The query's terms as chips; each one's ✕ is a link to the same search without that term. */
export function SearchChips({ text, terms }: { text: string; terms: SearchTerm[] }) {
  if (terms.length === 0) return null;
  return (
    <div className="search-chips-row">
      <ul className="search-chips" aria-label="Search terms">
        {terms.map((term, index) => {
          const { field, value } = describeSearchTerm(term);
          const label = `${term.negated ? "Not " : ""}${field.toLowerCase()} ${value}`;
          return (
            <li key={`${index}:${term.raw}`} className={term.negated ? "search-chip search-chip-negated" : "search-chip"} data-testid="search-chip">
              <span className="search-chip-field">{term.negated ? `Not ${field.toLowerCase()}` : field}</span>
              <span className="search-chip-value">{value}</span>
              <Link className="search-chip-remove" href={searchHref(removeSearchTerm(text, term.raw))} aria-label={`Remove ${label}`} scroll={false}>
                <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                  <path d="M6 6l12 12M18 6 6 18" />
                </svg>
              </Link>
            </li>
          );
        })}
      </ul>
      {terms.length > 1 && (
        <Link className="search-clear" href="/search">
          Clear all
        </Link>
      )}
    </div>
  );
}
