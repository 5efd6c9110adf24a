import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { photoIdsBodySchema, trashChangeResponseSchema } from "@/src/photos/bulk.schemas";
import { restoreFromTrash } from "@/src/photos/trash.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/trash/restore – bring photos back from the trash, as they were
  POST: withUser(async ({ body, user }) => Response.json(await restoreFromTrash(getDb(), user, body.photoIds)), {
    role: "editor",
    scope: "photos:write",
    summary: "Restore photos from the trash, with the visibility they had",
    description: "All or nothing: a photo that is not in the caller's trash answers 404 and none is restored.",
    body: photoIdsBodySchema,
    response: { status: 200, description: "How many photos were restored.", schema: trashChangeResponseSchema },
    errors: ["NOT_FOUND"],
  }),
});
