import { getDb } from "@/src/db/client";
import { routeMethods, withViewer } from "@/src/http/api-handler";
import { searchQuerySchema, searchResponseSchema } from "@/src/search/search-api.schemas";
import { searchPhotosForViewer } from "@/src/search/search.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/search – the photos the query finds that the caller may see, newest first (keyset pages)
  GET: withViewer(
    async ({ resolveViewer, query }) => {
      const page = await searchPhotosForViewer(getDb(), await resolveViewer(), query);
      return Response.json({ photos: page.photos, nextCursor: page.nextCursor });
    },
    {
      summary: "Search the photos the caller may see",
      description:
        "Visitors and signed-in users alike (by the session cookie): only photos the caller may list are found (public for visitors; " +
        "members-only too for signed-in users; their own photos; never unlisted photos of others or shares). An empty q answers the whole gallery. " +
        "In gallery order (date taken, newest first), paged by `cursor`.",
      query: searchQuerySchema,
      response: { status: 200, description: "One page of photos.", schema: searchResponseSchema },
      errors: ["BAD_REQUEST"],
    },
  ),
});
