import { getDb } from "@/src/db/client";
import { toDownloadResponse } from "@/src/http/download-response";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { DOWNLOAD_RESPONSE } from "@/src/http/download-response.contract";
import { idParamsSchema } from "@/src/validation/input-text";
import { getDownloadForViewer } from "@/src/photos/photos.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/photos/[id]/download – the original for its owner and admins, a download copy for others where downloads are allowed
  GET: withUser(async ({ viewer, params }) => toDownloadResponse(await getDownloadForViewer(getDb(), viewer, params.id)), {
    role: "viewer",
    scope: "photos:read",
    summary: "Download a photo",
    params: idParamsSchema,
    response: DOWNLOAD_RESPONSE,
    errors: ["NOT_FOUND"],
  }),
});
