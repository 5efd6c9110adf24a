import { getDb } from "@/src/db/client";
import { toDownloadResponse } from "@/src/http/download-response";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { getDownloadForViewer } from "@/src/photos/photos.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/photos/[id]/download – the original for its owner and admins, a download copy for others where downloads are allowed
  GET: withUser<{ id: string }>(async ({ viewer, params }) => toDownloadResponse(await getDownloadForViewer(getDb(), viewer, params.id)), {
    role: "viewer",
    scope: "photos:read",
  }),
});
