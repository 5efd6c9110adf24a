import { getDb } from "@/src/db/client";
import { routeMethods, withViewer } from "@/src/http/api-handler";
import { searchFacetsQuerySchema, searchFacetsResponseSchema } from "@/src/search/search-api.schemas";
import { facetSearchForViewer } from "@/src/search/search.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/search/facets – how many of the photos found each camera, lens, year and tag has
  GET: withViewer(async ({ resolveViewer, query }) => Response.json(await facetSearchForViewer(getDb(), await resolveViewer(), query)), {
    summary: "Count the photos a search finds per camera, lens, year and tag",
    description: "Among the photos the caller may list only; at most 12 of each, biggest first. Each `token` is the term that narrows q to that value.",
    query: searchFacetsQuerySchema,
    response: { status: 200, description: "The counts.", schema: searchFacetsResponseSchema },
    errors: ["BAD_REQUEST"],
  }),
});
