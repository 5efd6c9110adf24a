import { getDb } from "@/src/db/client";
import { answerFaceConsent, getFaceConsent } from "@/src/faces/face-consent.service";
import { answerFaceConsentSchema, faceConsentResponseSchema } from "@/src/faces/people.schemas";
import { routeMethods, withUser } from "@/src/http/api-handler";

const RESPONSE = { status: 200, description: "Whether people is on, what the caller is asked, and their answer to those words (null: not asked yet, or agreed only to earlier words; either counts as no).", schema: faceConsentResponseSchema };

// The caller's own consent to people (issue 32); sessions only (no token scope): consent is a
// person's answer, never a script's, and no route names another user.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/faces/consent – the caller's answer and the text they are asked
  GET: withUser(async ({ viewer }) => Response.json(await getFaceConsent(getDb(), viewer)), { role: "viewer", summary: "People: the caller's consent", response: RESPONSE }),

  // PUT /api/faces/consent – agree, or say no (deletes the faces found in the caller's photos)
  PUT: withUser(async ({ viewer, body }) => Response.json(await answerFaceConsent(getDb(), viewer, body.agreed, body.textVersion)), {
    role: "viewer",
    summary: "People: agree or say no to having the caller's photos looked at for faces",
    description: "Agreeing queues the caller's photos for detection (when people is on). Saying no, first or later, deletes every face found in the caller's photos and its descriptor; faces drawn by hand and named people stay.",
    body: answerFaceConsentSchema,
    response: RESPONSE,
    errors: ["INVALID_INPUT", "CONFLICT"],
  }),
});
