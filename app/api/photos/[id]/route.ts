import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { idParamsSchema } from "@/src/validation/input-text";
import { photoResponseSchema } from "@/src/photos/photos-api.schemas";
import { updatePhotoSchema } from "@/src/photos/photos.schemas";
import { deletePhotoByViewer, getPhotoForViewer, updatePhotoByViewer } from "@/src/photos/photos.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/photos/[id] – one photo with its EXIF summary
  GET: withUser(async ({ viewer, params }) => Response.json({ photo: await getPhotoForViewer(getDb(), viewer, params.id) }), {
    role: "viewer",
    scope: "photos:read",
    summary: "One photo with its EXIF summary",
    params: idParamsSchema,
    response: { status: 200, description: "The photo, as far as the caller may see it.", schema: photoResponseSchema },
    errors: ["NOT_FOUND"],
  }),

  // PATCH /api/photos/[id] – title, caption, alt text, visibility, show location, date taken, location, rotation
  PATCH: withUser(
    async ({ body: input, viewer, params }) => {
      return Response.json({ photo: await updatePhotoByViewer(getDb(), viewer, params.id, input) });
    },
    {
      role: "viewer",
      scope: "photos:write",
      summary: "Change a photo's title, caption, alt text, visibility, date taken, location, rotation or download choice",
      params: idParamsSchema,
      body: updatePhotoSchema,
      response: { status: 200, description: "The photo as changed.", schema: photoResponseSchema },
      errors: ["NOT_FOUND", "FORBIDDEN"],
    },
  ),

  // DELETE /api/photos/[id] – delete the photo and its files
  DELETE: withUser(
    async ({ viewer, params }) => {
      await deletePhotoByViewer(getDb(), viewer, params.id);
      return new Response(null, { status: 204 });
    },
    {
      role: "viewer",
      scope: "photos:write",
      summary: "Delete a photo and its files",
      params: idParamsSchema,
      response: { status: 204, description: "The photo is gone; its URLs answer 404." },
      errors: ["NOT_FOUND"],
    },
  ),
});
