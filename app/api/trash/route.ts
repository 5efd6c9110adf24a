import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { emptyTrashBodySchema, trashChangeResponseSchema, trashListQuerySchema, trashListResponseSchema } from "@/src/photos/bulk.schemas";
import { emptyTrash, listTrash } from "@/src/photos/trash.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/trash – the caller's trash (an admin's: everyone's), most recently trashed first
  GET: withUser(async ({ query, user }) => Response.json(await listTrash(getDb(), user, query)), {
    role: "editor",
    scope: "photos:read",
    summary: "The trash: photos moved there, most recently first, with when each is deleted for good",
    query: trashListQuerySchema,
    response: { status: 200, description: "One page of the trash.", schema: trashListResponseSchema },
    errors: ["BAD_REQUEST"],
  }),

  // DELETE /api/trash – empty the trash (or only { photoIds } of it) for good
  DELETE: withUser(async ({ body, user }) => Response.json(await emptyTrash(getDb(), user, body?.photoIds)), {
    role: "editor",
    scope: "photos:write",
    summary: "Empty the trash, or delete only some photos of it, for good (rows and files)",
    description: "Without a body: every photo in the caller's trash (an admin's: everyone's). With `{ photoIds }`: those, all of them the caller's and in the trash, or 404 and nothing is deleted.",
    body: emptyTrashBodySchema.optional(),
    response: { status: 200, description: "How many photos were deleted.", schema: trashChangeResponseSchema },
    errors: ["NOT_FOUND"],
  }),
});
