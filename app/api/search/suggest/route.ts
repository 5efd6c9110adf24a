import { getDb } from "@/src/db/client";
import { routeMethods, withViewer } from "@/src/http/api-handler";
import { searchSuggestQuerySchema, searchSuggestResponseSchema } from "@/src/search/search-api.schemas";
import { suggestSearchForViewer } from "@/src/search/search.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/search/suggest – completions for the last word of q
  GET: withViewer(
    async ({ resolveViewer, query }) => Response.json({ suggestions: await suggestSearchForViewer(getDb(), await resolveViewer(), query) }),
    {
      summary: "Suggest completions for the word being typed",
      description:
        "For the last word of q: tags, albums, cameras and lenses the caller may list, and words of photos the caller may list, by prefix " +
        "(accents and case ignored). `tag:`, `album:`, `camera:` or `lens:` in front asks for that kind only. Nothing when q ends with a space.",
      query: searchSuggestQuerySchema,
      response: { status: 200, description: "The suggestions; each token replaces the last word of q.", schema: searchSuggestResponseSchema },
      errors: ["BAD_REQUEST"],
    },
  ),
});
