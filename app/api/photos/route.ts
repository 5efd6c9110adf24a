import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { bulkPhotosResponseSchema, bulkPhotosSchema } from "@/src/photos/bulk.schemas";
import { updatePhotosInBulk } from "@/src/photos/bulk.service";
import { photoListResponseSchema } from "@/src/photos/photos-api.schemas";
import { listPhotosQuerySchema } from "@/src/photos/photos.schemas";
import { listPhotosForViewer } from "@/src/photos/photos.service";
import { AppError } from "@/src/errors/app-error";
import { searchPhotosForViewer } from "@/src/search/search.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/photos – the photos the caller may see, newest first (?cursor, ?limit, ?visibility, ?owner=me)
  GET: withUser(
    async ({ query, user, viewer }) => {
      if (query.q !== undefined && (query.visibility !== undefined || query.owner !== undefined)) {
        throw new AppError("BAD_REQUEST", "q cannot be combined with visibility or owner: say it in the search instead.");
      }
      const page =
        query.q !== undefined
          ? await searchPhotosForViewer(getDb(), viewer, { q: query.q, cursor: query.cursor, limit: query.limit }).then(({ photos, nextCursor }) => ({ photos, nextCursor }))
          : await listPhotosForViewer(getDb(), viewer, query);
      return Response.json({ viewer: { id: user.id, name: user.name, role: user.role }, ...page });
    },
    {
      role: "viewer",
      scope: "photos:read",
      summary: "The photos the caller may see, newest first",
      description: "With `q`, the photos a search finds (the search language of GET /api/search), in the same order and pages.",
      query: listPhotosQuerySchema,
      response: { status: 200, description: "One page of photos.", schema: photoListResponseSchema },
      errors: ["BAD_REQUEST"],
    },
  ),

  // PATCH /api/photos – one change to many photos (by id or by library filter), all or nothing
  PATCH: withUser(async ({ body, user }) => Response.json(await updatePhotosInBulk(getDb(), user, body)), {
    role: "editor",
    scope: "photos:write",
    summary: "Change many photos at once: a visibility, or move them to the trash",
    description:
      "Names the photos by `photoIds` (at most 1000) or by a library `filter` (decided on the server: every matching photo the caller may manage, at most 10,000). " +
      "Then `set: { visibility }` or `action: \"trash\"`; or `each: [{ id, visibility }]` to give each photo its own (how Undo puts visibilities back). " +
      "One transaction: if any named photo does not exist or is not the caller's to change, the answer is 404 and nothing changes.",
    body: bulkPhotosSchema,
    response: { status: 200, description: "What changed, with each photo's visibility before and after.", schema: bulkPhotosResponseSchema },
    errors: ["BAD_REQUEST", "NOT_FOUND", "INVALID_INPUT"],
  }),
});
