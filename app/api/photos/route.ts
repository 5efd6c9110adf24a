import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { photoListResponseSchema } from "@/src/photos/photos-api.schemas";
import { listPhotosQuerySchema } from "@/src/photos/photos.schemas";
import { listPhotosForViewer } from "@/src/photos/photos.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/photos – the photos the caller may see, newest first (?cursor, ?limit, ?visibility, ?owner=me)
  GET: withUser(
    async ({ query, user, viewer }) => {
      const page = await listPhotosForViewer(getDb(), viewer, query);
      return Response.json({ viewer: { id: user.id, name: user.name, role: user.role }, ...page });
    },
    {
      role: "viewer",
      scope: "photos:read",
      summary: "The photos the caller may see, newest first",
      query: listPhotosQuerySchema,
      response: { status: 200, description: "One page of photos.", schema: photoListResponseSchema },
      errors: ["BAD_REQUEST"],
    },
  ),
});
