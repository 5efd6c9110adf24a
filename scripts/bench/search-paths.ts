// bench:search – what is measured: the search API, its facets and suggestions, and the search page,
// as an anonymous visitor, each built for one seeded database and checked against what the seed
// placed (search-seed.ts) before any load: a wrong or empty answer is reported, never measured as fast.
import { type Check, comparePhotoIds, expectText } from "./answer-checks";
import type { LoadRequest } from "./scale-load";
import { COMMON_WORD, expectedForVisitor, FILTER_CAMERA_SLUG, NEGATED_TAG, RARE_WORD, type SearchFacts, type SearchSeed } from "./search-seed";

/** Photos a page; page 200 of COMMON_WORD at 100,000 photos is about 6,000 photos down (of about 8,000 a visitor may list). */
export const PAGE_SIZE = 30;

export interface SearchBenchPath {
  name: string;
  /** The search text, as typed in the box. */
  q: string;
  /** The photos a visitor's answer holds, in order (rows that answer photos). */
  expected?: (seed: SearchSeed) => SearchFacts[];
  /** The request and its check, asking for pages of `pageSize` photos. */
  build: (seed: SearchSeed, pageSize: number) => { request: LoadRequest; check: Check };
}

/**
 * The page both sizes ask for: PAGE_SIZE, or fewer when either size's answer is shorter. A visitor
 * lists about 1 photo in 12, so at 1,000 photos "sunset" answers 8: asking the same number at both
 * sizes compares the cost of finding a page as the library grows, not of answering 8 photos against 30.
 */
export function comparablePageSize(benchPath: SearchBenchPath, seeds: SearchSeed[]): number {
  if (!benchPath.expected) return PAGE_SIZE;
  return Math.max(1, Math.min(PAGE_SIZE, ...seeds.map((seed) => benchPath.expected!(seed).length)));
}

const get = (pathname: string): LoadRequest => ({ method: "GET", path: pathname, headers: {} });
const searchPath = (route: string, q: string, extra = "") => `${route}?q=${encodeURIComponent(q)}${extra}`;

interface PhotosBody {
  photos?: Array<{ id: string }>;
  nextCursor?: string | null;
}

function parsePhotos(body: string): PhotosBody | null {
  try {
    return JSON.parse(body) as PhotosBody;
  } catch {
    return null;
  }
}

/** A page of GET /api/search must hold exactly the first `pageSize` of `expected` from `offset`, in order. */
export function expectPhotos(expected: SearchFacts[], offset = 0, pageSize = PAGE_SIZE): Check {
  return (status, body) => {
    if (status !== 200) return `answered ${status}: ${body.slice(0, 200)}`;
    if (expected.length <= offset) return "the seed holds no photo for this page (a check needs one)";
    const answer = parsePhotos(body);
    if (!answer?.photos) return `no photos in the answer: ${body.slice(0, 200)}`;
    const want = expected.slice(offset, offset + pageSize).map((facts) => facts.id);
    const got = answer.photos.map((photo) => photo.id);
    return comparePhotoIds(got, want);
  };
}

const isRare = (facts: SearchFacts) => facts.isRare;
const isCommon = (facts: SearchFacts) => facts.isCommon;
/** `camera:canon`: every camera whose slug starts with the whole word "canon". */
const CAMERA_WORD = "canon";
const FILTER_YEAR = 2019;

/** The rows of the 1k-against-100k table, in order. */
export function listSearchBenchPaths(): SearchBenchPath[] {
  const api = (name: string, q: string, matches: (facts: SearchFacts) => boolean): SearchBenchPath => ({
    name,
    q,
    expected: (seed) => expectedForVisitor(seed, matches),
    build: (seed, pageSize) => ({ request: get(searchPath("/api/search", q, `&limit=${pageSize}`)), check: expectPhotos(expectedForVisitor(seed, matches), 0, pageSize) }),
  });
  return [
    api("search: a rare word", RARE_WORD, isRare),
    api("search: word + camera:", `${COMMON_WORD} camera:${CAMERA_WORD}`, (facts) => isCommon(facts) && (facts.cameraSlug?.startsWith(`${CAMERA_WORD}-`) ?? false)),
    api("search: filters only (camera:, year:)", `camera:${FILTER_CAMERA_SLUG} year:${FILTER_YEAR}`, (facts) => facts.cameraSlug === FILTER_CAMERA_SLUG && facts.year === FILTER_YEAR),
    api("search: word + negation", `${COMMON_WORD} -${NEGATED_TAG}`, (facts) => isCommon(facts) && !facts.tagKeys.includes(NEGATED_TAG)),
    api("search: a common word (10 %)", COMMON_WORD, isCommon),
    {
      name: "facets: a rare word",
      q: RARE_WORD,
      build: (seed) => {
        const cameras = new Set(expectedForVisitor(seed, isRare).flatMap((facts) => (facts.cameraSlug ? [`camera:${facts.cameraSlug}`] : [])));
        return { request: get(searchPath("/api/search/facets", RARE_WORD)), check: expectText([...cameras].slice(0, 1).concat(`"count":`)) };
      },
    },
    { name: "facets: empty q (the whole gallery)", q: "", build: (seed) => ({ request: get("/api/search/facets?q="), check: expectText([`camera:${seed.cameraSlugs[0]}`, `"token":"year:`, `tag:${NEGATED_TAG}`]) }) },
    // "ha": the word "harbour" (titles, captions and the public album "Harbour walks").
    { name: "suggest: a 2-letter prefix", q: "ha", build: () => ({ request: get(searchPath("/api/search/suggest", "ha", "&limit=8")), check: expectText(["harbour"]) }) },
    {
      name: "the /search page",
      q: `${RARE_WORD} camera:${CAMERA_WORD}`,
      build: (seed) => {
        const newest = expectedForVisitor(seed, (facts) => isRare(facts) && (facts.cameraSlug?.startsWith(`${CAMERA_WORD}-`) ?? false))[0];
        return { request: get(searchPath("/search", `${RARE_WORD} camera:${CAMERA_WORD}`)), check: expectText(newest ? [newest.id] : ["(no rare Canon photo in the seed)"]) };
      },
    },
  ];
}

/** The query whose page 1 and page DEEP_PAGE are compared at the large size. */
export const DEEP_QUERY = COMMON_WORD;

/** The photos a visitor's DEEP_QUERY pages hold, for the deep page's check. */
export const deepExpected = (seed: SearchSeed) => expectedForVisitor(seed, isCommon);

/** Follows nextCursor from page 1 to page `page` (not timed); answers that page's cursor. */
export async function findCursorOfPage(baseUrl: string, q: string, page: number): Promise<string> {
  let cursor: string | null = null;
  for (let current = 1; current < page; current += 1) {
    const path: string = searchPath("/api/search", q, `&limit=${PAGE_SIZE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    const response = await fetch(new URL(path, baseUrl));
    const body = parsePhotos(await response.text());
    if (response.status !== 200 || !body?.nextCursor) throw new Error(`page ${current} of "${q}" answered ${response.status} without a next page`);
    cursor = body.nextCursor;
  }
  if (!cursor) throw new Error("page 1 has no cursor");
  return cursor;
}

export function deepPageRequest(q: string, cursor: string | null): LoadRequest {
  return get(searchPath("/api/search", q, `&limit=${PAGE_SIZE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`));
}
