import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { idParamsSchema } from "@/src/validation/input-text";
import { renameTagSchema, tagResponseSchema } from "@/src/tags/tags.schemas";
import { renameTag } from "@/src/tags/tags.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // PATCH /api/tags/[id] – rename a tag (admins)
  PATCH: withUser(async ({ viewer, params, body }) => Response.json({ tag: await renameTag(getDb(), viewer, params.id, body.name) }), {
    role: "admin",
    scope: "photos:write",
    summary: "Rename a tag (admins)",
    description: "A new spelling of the same tag (case, accents) changes how it is shown; another tag's name is a 409: merge them instead.",
    params: idParamsSchema,
    body: renameTagSchema,
    response: { status: 200, description: "The tag as renamed.", schema: tagResponseSchema },
    errors: ["NOT_FOUND", "CONFLICT", "INVALID_INPUT"],
  }),
});
