import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { suggestTagsQuerySchema, tagListResponseSchema } from "@/src/tags/tags.schemas";
import { suggestTags } from "@/src/tags/tags.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/tags/suggest?q= – tags starting with what was typed (autocomplete)
  GET: withUser(async ({ viewer, query }) => Response.json({ tags: await suggestTags(getDb(), viewer, query.q, query.limit) }), {
    role: "editor",
    scope: "photos:read",
    summary: "Tags starting with what was typed, for autocomplete",
    query: suggestTagsQuerySchema,
    response: { status: 200, description: "Matching tags on photos the caller may see, in name order.", schema: tagListResponseSchema },
  }),
});
