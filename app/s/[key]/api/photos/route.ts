import { getDb } from "@/src/db/client";
import { routeMethods, withShareGrant } from "@/src/http/api-handler";
import { listSharePhotos } from "@/src/shares/share-gallery.service";
import { shareKeyParamsSchema, sharePhotoPageSchema, sharePhotosQuerySchema } from "@/src/shares/share-visitor.schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /s/<key>/api/photos – the link's photos in its order (?cursor, ?limit)
  GET: withShareGrant(async ({ query, share }) => Response.json(await listSharePhotos(getDb(), share, query), { headers: { "Cache-Control": "private, no-store" } }), {
    summary: "A share link's photos, in the link's order",
    description: "For the link's admitted visitors (grant cookie). Metadata follows the link's policy: EXIF only when it shows EXIF, location only when it shows location.",
    params: shareKeyParamsSchema,
    query: sharePhotosQuerySchema,
    response: { status: 200, description: "One page of the link's photos.", schema: sharePhotoPageSchema },
    errors: ["BAD_REQUEST"],
  }),
});
