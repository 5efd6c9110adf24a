import { z } from "zod";
import { getDb } from "@/src/db/client";
import { faceSchema } from "@/src/faces/people.schemas";
import { listPhotoFacesForViewer } from "@/src/faces/people.service";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { idParamsSchema } from "@/src/validation/input-text";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/photos/[id]/faces – the faces in one of the caller's photos
  GET: withUser(async ({ viewer, params }) => Response.json(await listPhotoFacesForViewer(getDb(), viewer, params.id)), {
    role: "viewer",
    summary: "The faces found in a photo, with their people (the photo's owner only)",
    description: "People are private to the photo's owner: anyone else gets an empty list, as for a photo without faces.",
    params: idParamsSchema,
    response: { status: 200, description: "The photo's faces.", schema: z.object({ faces: z.array(faceSchema), isCapped: z.boolean().describe("More faces were found than are kept (the 100 strongest).") }) },
  }),
});
