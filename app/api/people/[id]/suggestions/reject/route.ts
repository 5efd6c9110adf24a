import { getDb } from "@/src/db/client";
import { rejectSuggestionSchema } from "@/src/faces/people.schemas";
import { rejectSuggestionByViewer } from "@/src/faces/person-suggestions.service";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { idParamsSchema } from "@/src/validation/input-text";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/people/[id]/suggestions/reject – "no, this is not them", remembered
  POST: withUser(
    async ({ viewer, params, body }) => {
      await rejectSuggestionByViewer(getDb(), viewer, params.id, body.suggestedPersonId);
      return new Response(null, { status: 204 });
    },
    {
      role: "viewer",
      summary: "Say one of the caller's people is not a suggested person",
      description: "The suggested person is never suggested for this one again.",
      params: idParamsSchema,
      body: rejectSuggestionSchema,
      response: { status: 204, description: "Remembered." },
      errors: ["NOT_FOUND", "INVALID_INPUT"],
    },
  ),
});
