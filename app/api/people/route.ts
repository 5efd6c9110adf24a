import { getDb } from "@/src/db/client";
import { listPeopleQuerySchema, peopleResponseSchema } from "@/src/faces/people.schemas";
import { listPeople } from "@/src/faces/people.service";
import { routeMethods, withUser } from "@/src/http/api-handler";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/people – the caller's own people
  GET: withUser(async ({ viewer, query }) => Response.json({ people: await listPeople(getDb(), viewer, { hidden: query.hidden }) }), {
    role: "viewer",
    summary: "The caller's own people (faces found in their photos, grouped)",
    description: "People are private to the owner of the photos they were found in. Named people first.",
    query: listPeopleQuerySchema,
    response: { status: 200, description: "The caller's people; hidden ones only when asked for.", schema: peopleResponseSchema },
  }),
});
