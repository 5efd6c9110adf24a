import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { mergedTagResponseSchema, mergeTagsSchema } from "@/src/tags/tags.schemas";
import { mergeTags } from "@/src/tags/tags.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/tags/merge – merge tags into one (admins)
  POST: withUser(async ({ viewer, body }) => Response.json({ tag: await mergeTags(getDb(), viewer, body.sourceIds, body.targetId) }), {
    role: "admin",
    scope: "photos:write",
    summary: "Merge tags into one (admins)",
    description: "The target gets every photo of the sources (a photo with several keeps one), and the sources are deleted.",
    body: mergeTagsSchema,
    response: { status: 200, description: "The remaining tag, with all its photos counted.", schema: mergedTagResponseSchema },
    errors: ["NOT_FOUND", "INVALID_INPUT"],
  }),
});
