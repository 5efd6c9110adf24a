import { getDb } from "@/src/db/client";
import { personResponseSchema } from "@/src/faces/people.schemas";
import { splitFaceByViewer } from "@/src/faces/people.service";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { idParamsSchema } from "@/src/validation/input-text";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/faces/[id]/split – take a face away from its person, as a new person
  POST: withUser(async ({ viewer, params }) => Response.json({ person: await splitFaceByViewer(getDb(), viewer, params.id) }, { status: 201 }), {
    role: "viewer",
    summary: "Take a face of one of the caller's photos away from its person",
    description: "The face becomes a new, unnamed person of its own.",
    params: idParamsSchema,
    response: { status: 201, description: "The new person.", schema: personResponseSchema },
    errors: ["NOT_FOUND"],
  }),
});
