import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { idParamsSchema } from "@/src/validation/input-text";
import { listSharesQuerySchema, shareAccessLogResponseSchema } from "@/src/shares/shares-api.schemas";
import { listShareAccessLog } from "@/src/shares/shares.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/shares/[id]/access-log – what the link's visitors did, newest first
  GET: withUser(async ({ user, params, query }) => Response.json(await listShareAccessLog(getDb(), user, params.id, query)), {
    role: "editor",
    scope: "photos:read",
    summary: "A link's access log, newest first: time, event, photo, address (hashed after 30 days) and user agent",
    params: idParamsSchema,
    query: listSharesQuerySchema,
    response: { status: 200, description: "A page of entries.", schema: shareAccessLogResponseSchema },
    errors: ["NOT_FOUND", "BAD_REQUEST"],
  }),
});
