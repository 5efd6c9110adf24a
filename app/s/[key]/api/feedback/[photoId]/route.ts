import { getDb } from "@/src/db/client";
import { routeMethods, withShareGrant } from "@/src/http/api-handler";
import { feedbackResponseSchema, feedbackSchema, shareFeedbackParamsSchema } from "@/src/shares/proofing-api.schemas";
import { SHARE_VISITOR_COOKIE, setShareFeedback } from "@/src/shares/proofing.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // PUT /s/[key]/api/feedback/[photoId] – pick or unpick a photo, write or clear a comment
  PUT: withShareGrant(
    async ({ share, request, params, body }) =>
      Response.json(await setShareFeedback(getDb(), share, request.cookies.get(SHARE_VISITOR_COOKIE)?.value, params.photoId, body, new Date())),
    {
      summary: "Pick a photo of a proofing link, or comment on it",
      description: "403 before the visitor gave a name; 404 for a photo the link does not open (or a link without picks); 409 beyond the pick limit or after the owner locked the selection.",
      params: shareFeedbackParamsSchema,
      body: feedbackSchema,
      response: { status: 200, description: "The photo's pick and comment as stored, and the visitor's pick count.", schema: feedbackResponseSchema },
      errors: ["FORBIDDEN", "NOT_FOUND", "CONFLICT"],
    },
  ),
});
