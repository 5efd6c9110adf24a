import type { Metadata } from "next";
import Link from "next/link";
import { findCurrentViewer } from "@/src/auth/current-user";
import { getDb } from "@/src/db/client";
import { AppError } from "@/src/errors/app-error";
import { EndlessGallery } from "@/src/photos/components/endless-gallery";
import { toGalleryTiles } from "@/src/photos/gallery-tile";
import { SearchBox } from "@/src/search/components/search-box";
import { SearchChips } from "@/src/search/components/search-chips";
import { SearchFacets } from "@/src/search/components/search-facets";
import { SearchHelp } from "@/src/search/components/search-help";
import { parseSearchQuery } from "@/src/search/search-query-parser";
import type { SearchQueryError } from "@/src/search/search-query.types";
import { facetSearchForViewer, searchPhotosForViewer } from "@/src/search/search.service";
import { loadMoreSearchResults } from "./search-actions";

const SEARCH_PAGE_SIZE = 30;
const FACET_LIMIT = 12;

interface SearchPageProps {
  searchParams: Promise<{ q?: string | string[] }>;
}

/** The first `q` of the address, as typed. */
async function readQuery(searchParams: SearchPageProps["searchParams"]): Promise<string> {
  const { q } = await searchParams;
  return (Array.isArray(q) ? q[0] : q) ?? "";
}

export async function generateMetadata({ searchParams }: SearchPageProps): Promise<Metadata> {
  const q = (await readQuery(searchParams)).trim();
  // A results page is the visitor's own question, not a page for search engines to keep.
  return { title: q ? `“${q.slice(0, 60)}” · Search` : "Search", robots: q ? { index: false, follow: true } : undefined };
}

const countFormat = new Intl.NumberFormat("en");

// /search – one box for the search language, the query's terms as chips, facets to narrow by and the
// results in the gallery's grid. For visitors and users alike: the search service lists only what
// this viewer may list. Works without JavaScript (a GET form and links).
export default async function SearchPage({ searchParams }: SearchPageProps) {
  const q = await readQuery(searchParams);
  const parse = parseSearchQuery(q);
  const viewer = await findCurrentViewer();

  let problem: SearchQueryError | null = parse.ok ? null : parse.error;
  let results = null;
  if (!problem) {
    try {
      const [page, facets] = await Promise.all([
        searchPhotosForViewer(getDb(), viewer, { q, limit: SEARCH_PAGE_SIZE }),
        facetSearchForViewer(getDb(), viewer, { q }),
      ]);
      results = { page, facets };
    } catch (error) {
      if (!(error instanceof AppError && error.code === "BAD_REQUEST")) throw error;
      problem = { message: error.message, token: "", position: -1 };
    }
  }
  const terms = parse.ok ? parse.query.terms : [];
  const hasQuery = terms.length > 0;

  return (
    <section className="search-page" aria-labelledby="search-title">
      <header className="search-header">
        <h1 id="search-title">Search</h1>
        <SearchBox key={q} initialQuery={q} describedBy={problem ? "search-problem" : undefined} invalid={problem !== null} />
        {problem && <SearchProblem text={q} problem={problem} />}
        {results && <SearchChips text={q} terms={terms} />}
      </header>

      {results && (
        <div className={results.page.photos.length > 0 ? "search-body" : "search-body search-body-empty"}>
          {results.page.photos.length > 0 && <SearchFacets text={q} facets={results.facets} />}
          <div className="search-results gallery">
            {results.page.photos.length > 0 ? (
              <>
                <p className="search-count" aria-live="polite" data-testid="search-count">
                  {describeCount(results.page.photos.length, results.page.nextCursor !== null, results.facets.years)}
                  {!hasQuery && " in the gallery"}
                </p>
                <EndlessGallery
                  key={q}
                  firstTiles={toGalleryTiles(results.page.photos, viewer)}
                  firstCursor={results.page.nextCursor}
                  loadMore={loadMoreSearchResults.bind(null, q)}
                />
              </>
            ) : (
              <div className="search-empty" data-testid="search-empty">
                <h2>No photos match</h2>
                <p>
                  {hasQuery ? "Nothing you may see matches every term. Remove a term above, check the spelling, or try fewer words." : "There are no photos to search yet."}
                </p>
                {hasQuery && (
                  <Link className="button secondary" href="/search">
                    Clear the search
                  </Link>
                )}
              </div>
            )}
          </div>
        </div>
      )}

      <SearchHelp open={!hasQuery || problem !== null || (results !== null && results.page.photos.length === 0)} />
    </section>
  );
}

/**
 * How many photos match. The years facet counts every result once (each photo has one year), so
 * while it lists fewer years than its limit its sum is the exact total; otherwise say "more than".
 */
function describeCount(shown: number, more: boolean, years: { count: number }[]): string {
  if (!more) return `${countFormat.format(shown)} ${shown === 1 ? "photo" : "photos"}`;
  if (years.length < FACET_LIMIT) {
    const total = years.reduce((sum, year) => sum + year.count, 0);
    if (total >= shown) return `${countFormat.format(total)} photos`;
  }
  return `More than ${countFormat.format(shown)} photos`;
}

/** The parser's message, with the text it could not read marked where it stands. */
function SearchProblem({ text, problem }: { text: string; problem: SearchQueryError }) {
  const marked = problem.position >= 0 && problem.token !== "" && text.startsWith(problem.token, problem.position);
  return (
    <div id="search-problem" className="notice notice-error search-problem" role="alert" data-testid="search-problem">
      <p className="search-problem-message">{problem.message}</p>
      {marked && (
        <p className="search-problem-text">
          <code>
            {text.slice(0, problem.position)}
            <mark>{problem.token}</mark>
            {text.slice(problem.position + problem.token.length)}
          </code>
        </p>
      )}
    </div>
  );
}
