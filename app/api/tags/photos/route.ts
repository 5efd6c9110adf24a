import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { bulkTagsSchema, tagListResponseSchema } from "@/src/tags/tags.schemas";
import { addTagsToPhotos, removeTagsFromPhotos } from "@/src/tags/tags.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/tags/photos – add tags to, or remove them from, several photos at once
  POST: withUser(
    async ({ viewer, body }) => {
      const change = body.action === "add" ? addTagsToPhotos : removeTagsFromPhotos;
      return Response.json({ tags: await change(getDb(), viewer, body.photoIds, body.names) });
    },
    {
      role: "viewer",
      scope: "photos:write",
      summary: "Add tags to, or remove them from, several photos at once",
      description: "All or nothing: when any photo is not the caller's to change, nothing changes (404).",
      body: bulkTagsSchema,
      response: { status: 200, description: "The tags added or removed.", schema: tagListResponseSchema },
      errors: ["NOT_FOUND", "INVALID_INPUT"],
    },
  ),
});
