import { getDb } from "@/src/db/client";
import { toDownloadResponse } from "@/src/http/download-response";
import { routeMethods, withViewer } from "@/src/http/api-handler";
import { DOWNLOAD_RESPONSE } from "@/src/http/download-response.contract";
import { idParamsSchema } from "@/src/validation/input-text";
import { getDownloadForViewer } from "@/src/photos/photos.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /p/[id]/download – the photo page's download link: like /api/photos/[id]/download, for visitors too
  GET: withViewer(
    async ({ resolveViewer, params }) => toDownloadResponse(await getDownloadForViewer(getDb(), await resolveViewer(), params.id)),
    {
      summary: "Download a photo from its page (visitors too)",
      description: "Like GET /api/photos/{id}/download, with the session cookie when there is one, for visitors where downloads are allowed.",
      params: idParamsSchema,
      response: DOWNLOAD_RESPONSE,
      errors: ["NOT_FOUND"],
    },
  ),
});
