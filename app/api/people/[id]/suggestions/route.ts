import { getDb } from "@/src/db/client";
import { suggestionsResponseSchema } from "@/src/faces/people.schemas";
import { suggestPeopleForPerson } from "@/src/faces/person-suggestions.service";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { idParamsSchema } from "@/src/validation/input-text";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/people/[id]/suggestions – "is this X?": named people this unnamed person may be
  GET: withUser(async ({ viewer, params }) => Response.json({ suggestions: await suggestPeopleForPerson(getDb(), viewer, params.id) }), {
    role: "viewer",
    summary: "Named people one of the caller's unnamed people may be",
    description: "Nearest first, at most three, never one the caller said no to; empty for a named person. Ids, names and ranks only.",
    params: idParamsSchema,
    response: { status: 200, description: "The suggestions.", schema: suggestionsResponseSchema },
    errors: ["NOT_FOUND"],
  }),
});
