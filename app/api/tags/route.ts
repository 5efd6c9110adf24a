import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { tagCountListResponseSchema } from "@/src/tags/tags.schemas";
import { listTagsForViewer } from "@/src/tags/tags.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/tags – every tag on photos the caller may see, with how many
  GET: withUser(async ({ viewer }) => Response.json({ tags: await listTagsForViewer(getDb(), viewer) }), {
    role: "viewer",
    scope: "photos:read",
    summary: "Every tag on photos the caller may see, with how many",
    response: { status: 200, description: "Tags in name order; those without a photo the caller may see are left out.", schema: tagCountListResponseSchema },
  }),
});
