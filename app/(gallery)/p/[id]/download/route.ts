import { findSessionUser } from "@/src/auth/current-user";
import { toDownloadResponse } from "@/src/http/download-response";
import { routeMethods, withPublic } from "@/src/http/api-handler";
import { getDownloadForViewer } from "@/src/photos/photos.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /p/[id]/download – the photo page's download link: like /api/photos/[id]/download, for visitors too
  GET: withPublic<{ id: string }>(async ({ request, params }) =>
    toDownloadResponse(await getDownloadForViewer(await findSessionUser(request.cookies), params.id)),
  ),
});
