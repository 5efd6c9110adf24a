import { z } from "zod";
import { routeMethods, withPublic } from "@/src/http/api-handler";
import { serveMedia } from "@/src/photos/serve-media";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /media/<key> – a photo variant, checked against the viewer unless the photo is public
  GET: withPublic(async ({ request, params }) => serveMedia(request, params.key.join("/")), {
    summary: "A photo variant's bytes",
    description:
      "The URLs come from a photo's `variants`. Public photos' variants are cached for a year; the others are checked against the session cookie on every request and sent `private, no-store`. A photo the caller may not see answers 404.",
    params: z.object({ key: z.array(z.string()).describe("The variant's key: several path segments.") }),
    response: { status: 200, description: "The image.", contentType: "image/*", headers: { ETag: "The variant's content hash" } },
    errors: ["NOT_FOUND"],
  }),
});
