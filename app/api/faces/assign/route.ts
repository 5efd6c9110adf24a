import { getDb } from "@/src/db/client";
import { assignFacesByViewer } from "@/src/faces/face-assignment.service";
import { assignFacesSchema, personResponseSchema } from "@/src/faces/people.schemas";
import { routeMethods, withUser } from "@/src/http/api-handler";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/faces/assign – name many faces at once: give them to one person, old or new
  POST: withUser(async ({ viewer, body }) => Response.json({ person: await assignFacesByViewer(getDb(), viewer, body) }), {
    role: "viewer",
    summary: "Give several faces of the caller's photos to one person",
    description: "To one of the caller's people (`personId`) or a new person (`name`), in one transaction: any face id not of the caller's photos is a 404 and nothing changes.",
    body: assignFacesSchema,
    response: { status: 200, description: "The person who has the faces now.", schema: personResponseSchema },
    errors: ["NOT_FOUND", "CONFLICT", "INVALID_INPUT"],
  }),
});
