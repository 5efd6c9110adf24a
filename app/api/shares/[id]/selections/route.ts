import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { idParamsSchema } from "@/src/validation/input-text";
import { selectionsResponseSchema } from "@/src/shares/proofing-api.schemas";
import { listShareSelections } from "@/src/shares/proofing.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/shares/[id]/selections – every visitor's picks and comments
  GET: withUser(async ({ user, params }) => Response.json(await listShareSelections(getDb(), user, params.id)), {
    role: "editor",
    scope: "photos:read",
    summary: "A share's proofing: each visitor with their picks and comments",
    description: "The share's owner or an admin; 404 for anyone else.",
    params: idParamsSchema,
    response: { status: 200, description: "The visitors and their picks.", schema: selectionsResponseSchema },
    errors: ["NOT_FOUND"],
  }),
});
