import { getDb } from "@/src/db/client";
import { toDownloadResponse } from "@/src/http/download-response";
import { routeMethods, withViewer } from "@/src/http/api-handler";
import { getDownloadForViewer } from "@/src/photos/photos.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /p/[id]/download – the photo page's download link: like /api/photos/[id]/download, for visitors too
  GET: withViewer<{ id: string }>(async ({ resolveViewer, params }) =>
    toDownloadResponse(await getDownloadForViewer(getDb(), await resolveViewer(), params.id)),
  ),
});
