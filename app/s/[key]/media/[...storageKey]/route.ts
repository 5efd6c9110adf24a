import { getDb } from "@/src/db/client";
import { routeMethods, withShareGrant } from "@/src/http/api-handler";
import { serveMedia } from "@/src/media/serve-media";
import { findShareServableVariant } from "@/src/shares/share-media";
import { shareMediaParamsSchema } from "@/src/shares/share-visitor.schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /s/<key>/media/<storage key> – a variant of a photo this share link opens
  GET: withShareGrant(
    async ({ request, params, share }) => {
      const storageKey = params.storageKey.join("/");
      return serveMedia(request, `s/${share.id}/${storageKey}`, () => findShareServableVariant(getDb(), share.id, storageKey));
    },
    {
      summary: "A variant of a photo in a share link",
      description:
        "The URLs come from the visitor API's `variants`. Checked against the link on every request (revoked or expired: 401 at once) and sent `private, no-store`, never cached as public. A variant of a photo the link does not hold answers 404, whether it exists or not.",
      params: shareMediaParamsSchema,
      response: { status: 200, description: "The image.", contentType: "image/*", headers: { ETag: "The variant's content hash" } },
      errors: ["NOT_FOUND"],
    },
  ),
});
