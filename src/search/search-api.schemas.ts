import { z } from "zod";
import { schemaMatches } from "@/src/validation/schema-matches";
import { photoSummarySchema } from "@/src/photos/photos-api.schemas";
import { MAX_SEARCH_QUERY_LENGTH } from "./search-query.types";
import type { SearchFacet, SearchFacets, SearchSuggestion } from "./search.service";

// The search API's input and answers (GET /api/search, /api/search/facets, /api/search/suggest, and
// `q` on GET /api/photos). The language itself is described once, here, for the OpenAPI document.

export const SEARCH_LANGUAGE_DESCRIPTION =
  "Tokens separated by spaces, all of which must match (AND): free words (prefixes of words in the title, caption, alt text, tags, " +
  "public albums' titles, camera and lens; accents and case ignored), `*ton*` (3 to 50 letters or digits anywhere inside a word), \"quoted phrases\", `tag:beach`, `album:<slug>`, " +
  "`camera:canon` (any camera whose name holds those whole words), `lens:`, `year:2019`, `date:2024-05`, `date:>=2024-05-01`, " +
  "`iso:>1600`, `f:<2.8`, `orientation:portrait|landscape|square`; `-` in front leaves matching photos out. " +
  `At most ${MAX_SEARCH_QUERY_LENGTH} characters. A token that cannot be read is a 400 whose message names it.`;

/**
 * The query text. The language reads at most MAX_SEARCH_QUERY_LENGTH characters: longer text is a
 * 400 from the parser (like any query it cannot read), never cut silently. The schema's own cap is
 * only a backstop far above it.
 */
export const SEARCH_TEXT_BACKSTOP = 16_384;
export const searchTextSchema = z.string().max(SEARCH_TEXT_BACKSTOP).describe(SEARCH_LANGUAGE_DESCRIPTION);

export const searchQuerySchema = z.object({
  q: searchTextSchema.default(""),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(30),
});

export const searchFacetsQuerySchema = z.object({ q: searchTextSchema.default("") });

export const searchSuggestQuerySchema = z.object({
  q: searchTextSchema.default(""),
  limit: z.coerce.number().int().min(1).max(20).default(8),
});

export const searchResponseSchema = z.object({
  photos: z.array(photoSummarySchema),
  nextCursor: z.string().nullable().describe("Pass as ?cursor= (with the same q) for the next page; null on the last one."),
});

const searchFacetSchema = z.object({
  label: z.string(),
  count: z.number().int(),
  token: z.string().describe("The term to add to q to narrow to this value, e.g. camera:canon-eos-40d, year:2019, tag:beach."),
});

export const searchFacetsResponseSchema = z.object({
  people: z.array(searchFacetSchema).describe("Named people the caller may see; always empty for visitors."),
  cameras: z.array(searchFacetSchema),
  lenses: z.array(searchFacetSchema),
  years: z.array(searchFacetSchema),
  tags: z.array(searchFacetSchema),
  places: z.array(searchFacetSchema).describe("Towns, only of photos whose place the viewer may learn (the owner shows the location)."),
});

export const searchSuggestResponseSchema = z.object({
  suggestions: z.array(
    z.object({
      kind: z.enum(["person", "tag", "album", "camera", "lens", "place", "word"]),
      label: z.string(),
      token: z.string().describe("Replaces the last word of q."),
    }),
  ),
});

schemaMatches<z.output<typeof searchFacetSchema>, SearchFacet>(true);
schemaMatches<z.output<typeof searchFacetsResponseSchema>, SearchFacets>(true);
schemaMatches<z.output<typeof searchSuggestResponseSchema>["suggestions"][number], SearchSuggestion>(true);
