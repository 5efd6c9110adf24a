import { getDb } from "@/src/db/client";
import { toDownloadResponse } from "@/src/http/download-response";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { ORIGINAL_RESPONSE } from "@/src/http/download-response.contract";
import { idParamsSchema } from "@/src/validation/input-text";
import { getOriginalForViewer } from "@/src/photos/photos.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/photos/[id]/original – the file as uploaded, for its owner and admins only; always a download
  GET: withUser(
    async ({ viewer, params }) => toDownloadResponse({ kind: "original", ...(await getOriginalForViewer(getDb(), viewer, params.id)) }),
    {
      role: "viewer",
      scope: "photos:read",
      summary: "The original file (owner and admins)",
      params: idParamsSchema,
      response: ORIGINAL_RESPONSE,
      errors: ["NOT_FOUND"],
    },
  ),
});
