import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { listPhotosQuerySchema } from "@/src/photos/photos.schemas";
import { listPhotosForViewer } from "@/src/photos/photos.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/photos – the photos the caller may see, newest first (?cursor, ?limit, ?visibility, ?owner=me)
  GET: withUser(
    async ({ request, user, viewer }) => {
      const query = listPhotosQuerySchema.parse(Object.fromEntries(request.nextUrl.searchParams));
      const page = await listPhotosForViewer(getDb(), viewer, query);
      return Response.json({ viewer: { id: user.id, name: user.name, role: user.role }, ...page });
    },
    { role: "viewer", scope: "photos:read" },
  ),
});
