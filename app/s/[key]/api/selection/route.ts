import { getDb } from "@/src/db/client";
import { routeMethods, withShareGrant } from "@/src/http/api-handler";
import { shareKeyParamsSchema, visitorResponseSchema } from "@/src/shares/proofing-api.schemas";
import { SHARE_VISITOR_COOKIE, sendShareSelection } from "@/src/shares/proofing.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /s/[key]/api/selection – "Send my selection"
  POST: withShareGrant(
    async ({ share, request }) => Response.json(await sendShareSelection(getDb(), share, request.cookies.get(SHARE_VISITOR_COOKIE)?.value, new Date())),
    {
      summary: "Send the visitor's selection to the link's owner",
      description: "May be sent again after changes until the owner locks the selection (then 409). Logged as selection_sent in the link's access log.",
      params: shareKeyParamsSchema,
      response: { status: 200, description: "The visitor as sent.", schema: visitorResponseSchema },
      errors: ["FORBIDDEN", "NOT_FOUND", "CONFLICT"],
    },
  ),
});
