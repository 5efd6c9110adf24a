import type { z } from "zod";
import { answerShape } from "@/src/ui/api-client";
import type { FeedbackResponse, VisitorResponse } from "../proofing-api.schemas";
import type { sharePhotoDetailSchema, sharePhotoPageSchema } from "../share-visitor.schemas";

// How a share link's pages check the visitor API's answers. These pages are public, so zod stays
// out of their bundle: the types are the contracts' (erased at build), the checks only the outline
// (src/ui/api-client.ts says why).

function isObjectOrNull(value: unknown): boolean {
  return typeof value === "object" && !Array.isArray(value);
}

/** GET /s/{key}/api/photos: one page of the link's photos. */
export const sharePhotoPageAnswer = answerShape<z.output<typeof sharePhotoPageSchema>>(
  (answer) => Array.isArray(answer.photos) && (answer.nextCursor === null || typeof answer.nextCursor === "string"),
);

/** GET /s/{key}/api/photos/{photoId}: one of the link's photos, its neighbours' ids (the full-screen viewer walks them) and its place (the counter). */
export const sharePhotoDetailAnswer = answerShape<z.output<typeof sharePhotoDetailSchema>>(
  (answer) =>
    isObjectOrNull(answer.photo) &&
    answer.photo !== null &&
    (answer.previousId === null || typeof answer.previousId === "string") &&
    isObjectOrNull(answer.position) &&
    answer.position !== null,
);

/** GET|POST /s/{key}/api/visitor and POST /s/{key}/api/selection: the visitor and the link's proofing rules. */
export const visitorAnswer = answerShape<VisitorResponse>(
  (answer) => isObjectOrNull(answer.visitor) && typeof answer.locked === "boolean" && typeof answer.ownerName === "string",
);

/** PUT /s/{key}/api/feedback/{photoId}: the photo's pick and comment as stored. */
export const feedbackAnswer = answerShape<FeedbackResponse>(
  (answer) => typeof answer.feedback === "object" && answer.feedback !== null && typeof answer.pickCount === "number",
);
