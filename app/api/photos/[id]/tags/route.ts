import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { idParamsSchema } from "@/src/validation/input-text";
import { setPhotoTagsSchema, tagListResponseSchema } from "@/src/tags/tags.schemas";
import { listTagsForPhoto, setPhotoTags } from "@/src/tags/tags.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/photos/[id]/tags – the photo's tags
  GET: withUser(async ({ viewer, params }) => Response.json({ tags: await listTagsForPhoto(getDb(), viewer, params.id) }), {
    role: "viewer",
    scope: "photos:read",
    summary: "A photo's tags",
    params: idParamsSchema,
    response: { status: 200, description: "Its tags, in name order.", schema: tagListResponseSchema },
    errors: ["NOT_FOUND"],
  }),

  // PUT /api/photos/[id]/tags – set the photo's tags
  PUT: withUser(async ({ viewer, params, body }) => Response.json({ tags: await setPhotoTags(getDb(), viewer, params.id, body.names) }), {
    role: "viewer",
    scope: "photos:write",
    summary: "Set a photo's tags",
    description:
      "New names become tags; a name that is an existing tag in another case or form joins it and keeps its first spelling. The list set is the photo's whole list: keywords written in the file are not added to it later, even when the photo has not been processed yet.",
    params: idParamsSchema,
    body: setPhotoTagsSchema,
    response: { status: 200, description: "The photo's tags as set.", schema: tagListResponseSchema },
    errors: ["NOT_FOUND", "INVALID_INPUT"],
  }),
});
