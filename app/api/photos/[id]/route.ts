import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { parseJsonBody } from "@/src/http/request-body";
import { updatePhotoSchema } from "@/src/photos/photos.schemas";
import { deletePhotoByViewer, getPhotoForViewer, updatePhotoByViewer } from "@/src/photos/photos.service";

type Params = { id: string };

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/photos/[id] – one photo with its EXIF summary
  GET: withUser<Params>(async ({ viewer, params }) => Response.json({ photo: await getPhotoForViewer(getDb(), viewer, params.id) }), {
    role: "viewer",
    scope: "photos:read",
  }),

  // PATCH /api/photos/[id] – title, caption, alt text, visibility, show location
  PATCH: withUser<Params>(
    async ({ request, viewer, params }) => {
      const input = await parseJsonBody(request, updatePhotoSchema);
      return Response.json({ photo: await updatePhotoByViewer(getDb(), viewer, params.id, input) });
    },
    { role: "viewer", scope: "photos:write" },
  ),

  // DELETE /api/photos/[id] – delete the photo and its files
  DELETE: withUser<Params>(
    async ({ viewer, params }) => {
      await deletePhotoByViewer(getDb(), viewer, params.id);
      return new Response(null, { status: 204 });
    },
    { role: "viewer", scope: "photos:write" },
  ),
});
