import { getDb } from "@/src/db/client";
import { mergePeopleSchema, personResponseSchema } from "@/src/faces/people.schemas";
import { mergePeopleByViewer } from "@/src/faces/people.service";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { idParamsSchema } from "@/src/validation/input-text";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/people/[id]/merge – merge this person into another of the caller's
  POST: withUser(async ({ viewer, params, body }) => Response.json({ person: await mergePeopleByViewer(getDb(), viewer, params.id, body.intoPersonId) }), {
    role: "viewer",
    summary: "Merge one of the caller's people into another",
    description: "Every face moves to `intoPersonId`, who keeps their name (or takes this one's); this person is deleted.",
    params: idParamsSchema,
    body: mergePeopleSchema,
    response: { status: 200, description: "The person kept.", schema: personResponseSchema },
    errors: ["NOT_FOUND", "INVALID_INPUT"],
  }),
});
