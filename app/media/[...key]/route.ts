import { z } from "zod";
import { pathSegmentsSchema } from "@/src/validation/input-text";
import { getDb } from "@/src/db/client";
import { routeMethods, withViewer } from "@/src/http/api-handler";
import { serveMedia } from "@/src/media/serve-media";
import { findServableVariant } from "@/src/photos/servable-variant";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /media/<key> – a photo variant, if the viewer may see its photo
  GET: withViewer(
    async ({ request, params, resolveViewer }) => {
      const mediaPath = params.key.join("/");
      return serveMedia(request, mediaPath, () => findServableVariant(getDb(), resolveViewer, mediaPath));
    },
    {
      summary: "A photo variant's bytes",
      description:
        "The URLs come from a photo's `variants`. Public photos' variants are cached for a year; the others are checked against the session cookie on every request and sent `private, no-store`. A photo the caller may not see answers 404.",
      params: z.object({ key: pathSegmentsSchema.describe("The variant's key: several path segments.") }),
      response: { status: 200, description: "The image.", contentType: "image/*", headers: { ETag: "The variant's content hash" } },
      errors: ["NOT_FOUND"],
    },
  ),
});
