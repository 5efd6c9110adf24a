import { getDb } from "@/src/db/client";
import { routeMethods, withShareGrant } from "@/src/http/api-handler";
import { SHARED_PHOTO_RESPONSE, toSharedPhotoResponse } from "@/src/http/share-download-response";
import { downloadSharedPhoto } from "@/src/shares/share-downloads.service";
import { sharedPhotoDownloadParamsSchema } from "@/src/shares/share-downloads.schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /s/[key]/p/[photoId]/download – one photo of a share, as the link's download right and metadata policy allow
  GET: withShareGrant(
    async ({ request, share, params }) =>
      toSharedPhotoResponse(await downloadSharedPhoto(getDb(), share, params.photoId, new Date(), { count: request.method !== "HEAD" })),
    {
      summary: "Download one photo of a share link",
      description:
        "For a browser admitted to the link. 403 when the link offers no downloads, 404 when the photo is not in the share. Logged as a download in the link's access log.",
      params: sharedPhotoDownloadParamsSchema,
      response: SHARED_PHOTO_RESPONSE,
      errors: ["FORBIDDEN", "NOT_FOUND", "CONFLICT"],
    },
  ),
});
