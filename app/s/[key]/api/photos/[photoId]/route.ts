import { getDb } from "@/src/db/client";
import { routeMethods, withShareGrant } from "@/src/http/api-handler";
import { getSharePhoto } from "@/src/shares/share-gallery.service";
import { sharePhotoDetailSchema, sharePhotoParamsSchema } from "@/src/shares/share-visitor.schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /s/<key>/api/photos/<photo id> – one of the link's photos, with its neighbours in the link's order
  GET: withShareGrant(
    async ({ params, share }) => Response.json(await getSharePhoto(getDb(), share, params.photoId), { headers: { "Cache-Control": "private, no-store" } }),
    {
      summary: "One photo of a share link, with the previous and next in the link's order",
      params: sharePhotoParamsSchema,
      response: { status: 200, description: "The photo.", schema: sharePhotoDetailSchema },
      errors: ["NOT_FOUND"],
    },
  ),
});
