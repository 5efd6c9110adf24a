import { getDb } from "@/src/db/client";
import { addManualFaceSchema, faceResponseSchema, photoFacesResponseSchema } from "@/src/faces/people.schemas";
import { addManualFace, listPhotoFacesForViewer } from "@/src/faces/people.service";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { idParamsSchema } from "@/src/validation/input-text";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/photos/[id]/faces – the faces in a photo, for whoever may see its people
  GET: withUser(async ({ viewer, params }) => Response.json(await listPhotoFacesForViewer(getDb(), viewer, params.id)), {
    role: "viewer",
    summary: "The faces in a photo, with their people",
    description:
      "The photo's owner gets every face. With the site setting \"members see people\" on, a signed-in user who may list the photo gets the faces of its named people; anyone else an empty list, as for a photo without faces.",
    params: idParamsSchema,
    response: { status: 200, description: "The photo's faces.", schema: photoFacesResponseSchema },
  }),

  // POST /api/photos/[id]/faces – draw a face by hand on one of the caller's photos
  POST: withUser(async ({ viewer, params, body }) => Response.json({ face: await addManualFace(getDb(), viewer, params.id, body) }, { status: 201 }), {
    role: "viewer",
    summary: "Add a face by hand to one of the caller's photos",
    description: "For a face detection missed or someone turned away: the box is given to one of the caller's people, or to a new person of that name. A rescan never removes it.",
    params: idParamsSchema,
    body: addManualFaceSchema,
    response: { status: 201, description: "The face.", schema: faceResponseSchema },
    errors: ["NOT_FOUND", "CONFLICT", "INVALID_INPUT"],
  }),
});
