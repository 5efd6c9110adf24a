import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { idParamsSchema } from "@/src/validation/input-text";
import { retryResponseSchema } from "@/src/photos/photos-api.schemas";
import { retryPhotoProcessing } from "@/src/photos/processing-queue.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/photos/[id]/retry – process a failed photo again from its original
  POST: withUser(
    async ({ viewer, params }) => {
      await retryPhotoProcessing(getDb(), viewer, params.id);
      return Response.json({ photo: { id: params.id, status: "processing" } }, { status: 202 });
    },
    {
      role: "editor",
      scope: "photos:write",
      summary: "Process a failed photo again",
      params: idParamsSchema,
      response: { status: 202, description: "Processing has started again.", schema: retryResponseSchema },
      errors: ["NOT_FOUND", "CONFLICT"],
    },
  ),
});
