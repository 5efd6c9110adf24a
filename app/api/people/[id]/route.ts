import { getDb } from "@/src/db/client";
import { personResponseSchema, updatePersonSchema } from "@/src/faces/people.schemas";
import { getPerson, updatePersonByViewer } from "@/src/faces/people.service";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { idParamsSchema } from "@/src/validation/input-text";

const RESPONSE = { status: 200, description: "The person.", schema: personResponseSchema };

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/people/[id] – one of the caller's people
  GET: withUser(async ({ viewer, params }) => Response.json({ person: await getPerson(getDb(), viewer, params.id) }), {
    role: "viewer",
    summary: "One of the caller's people",
    params: idParamsSchema,
    response: RESPONSE,
    errors: ["NOT_FOUND"],
  }),

  // PATCH /api/people/[id] – name, hide or choose the cover of one of the caller's people
  PATCH: withUser(async ({ viewer, params, body }) => Response.json({ person: await updatePersonByViewer(getDb(), viewer, params.id, body) }), {
    role: "viewer",
    summary: "Name, hide or choose the cover of one of the caller's people",
    params: idParamsSchema,
    body: updatePersonSchema,
    response: RESPONSE,
    errors: ["NOT_FOUND", "INVALID_INPUT"],
  }),
});
