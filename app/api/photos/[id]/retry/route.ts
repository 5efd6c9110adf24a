import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { retryPhotoProcessing } from "@/src/photos/processing-queue.service";

type Params = { id: string };

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/photos/[id]/retry – process a failed photo again from its original
  POST: withUser<Params>(
    async ({ viewer, params }) => {
      await retryPhotoProcessing(getDb(), viewer, params.id);
      return Response.json({ photo: { id: params.id, status: "processing" } }, { status: 202 });
    },
    { role: "editor", scope: "photos:write" },
  ),
});
